import Entities
import SQLiteStore
import TextSearch

extension Product: DeclaredEntity {
    /// The most decimals of a price: cents. A price with more is refused, so that the price shown (with
    /// 2 decimals) and searched is the one stored.
    public static let priceDecimals = 2

    /// The one place a product's table and fields are described; SQL, decoding, validation, search,
    /// the fields of files and the columns of tables follow from it. Files take the fields in this
    /// order (`id`, `type`, `name`, `yearIntroduced`, `introPrice`).
    ///
    /// Names are stored with their folded form (`name_folded`), which sorts them, is searched, and
    /// sections them by initial; types section by type, named by their title (`Device`); a search's
    /// numbers match the year or the price. A type shows as its raw value and a year as its digits,
    /// what `String(describing:)` shows, written out: that function's dynamic casts (to
    /// `TextOutputStreamable`, `CustomStringConvertible`, …) each scan every conformance record of
    /// the static binary the first time (W7).
    public static let declaration = EntityDeclaration<Product>(
        table: "products",
        template: Product(type: .device, name: "", yearIntroduced: 0, introPrice: 0),
        folding: TextFolding.fold,
        attributes: [
            .value(
                "type", \.type,
                sections: .value { value in
                    guard case .text(let raw) = value else { return AttributeSections.text(value) }
                    return ProductType(rawValue: raw)?.title ?? raw
                },
                width: 8, parse: { try ProductType(parsing: $0) }, shown: { $0.rawValue }),
            .text(
                "name", \.name, folded: true, searched: true, sections: .initial, check: { try Validation.name($0) },
                unique: true),
            .value(
                "yearIntroduced", \.yearIntroduced, searchedAsNumber: true, title: "YEAR", parse: { try FieldParsing.year($0) },
                check: { try Validation.year($0, field: "year") }, shown: { String($0) }),
            .value(
                "introPrice", \.introPrice, searchedAsNumber: true, title: "PRICE", width: 10,
                parse: { try FieldParsing.amount($0, field: "price", decimals: priceDecimals) },
                check: { try Validation.amount($0, field: "price", decimals: priceDecimals) },
                shown: ShownNumber.amount, shownInDetail: { "$" + ShownNumber.amount($0) }),
        ])
}
