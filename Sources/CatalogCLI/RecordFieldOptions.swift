import ArgumentParser
import Catalog

/// The fields of a record as options, shared by `add` (which needs those of its entity) and `update`
/// (which takes any of them).
struct RecordFieldOptions: ParsableArguments {
    @Option(help: ArgumentHelp("The name, unique among records of its entity.", valueName: "name"))
    var name: String?

    @Option(
        help: ArgumentHelp("Product: device, desktop or portable.", valueName: "type"),
        completion: .list(ProductType.allCases.map(\.rawValue)))
    var type: String?

    @Option(help: ArgumentHelp("The year introduced (products) or released (phones).", valueName: "year"))
    var year: String?

    @Option(help: ArgumentHelp("Product: the introductory price in dollars, such as 599.00.", valueName: "price"))
    var price: String?

    @Option(help: ArgumentHelp("Phone: who makes it.", valueName: "maker"))
    var maker: String?

    @Option(help: ArgumentHelp("Phone: its operating system.", valueName: "os"))
    var os: String?

    @Option(help: ArgumentHelp("Phone: the screen diagonal in inches.", valueName: "inches"))
    var screen: String?

    /// The options of an entity's fields, by flag.
    func fields(of entity: Entity) -> [(flag: String, value: String?)] {
        entity == .products
            ? [("--name", name), ("--type", type), ("--year", year), ("--price", price)]
            : [("--name", name), ("--maker", maker), ("--year", year), ("--os", os), ("--screen", screen)]
    }

    /// Whether no field is given.
    var isEmpty: Bool { [name, type, year, price, maker, os, screen].allSatisfy { $0 == nil } }

    /// Checks that no option of the other entity's fields is given, and, when `complete`, that every
    /// field of `entity` is.
    ///
    /// - Throws: ``CommandFailure/usage(_:)`` naming the options at fault, in one sentence.
    func validate(for entity: Entity, complete: Bool) throws {
        let own = fields(of: entity)
        let foreign = fields(of: entity == .products ? .phones : .products)
            .filter { field in field.value != nil && !own.contains { $0.flag == field.flag } }.map(\.flag)
        guard foreign.isEmpty else {
            let other: Entity = entity == .products ? .phones : .products
            throw CommandFailure.usage(
                "\(foreign.joined(separator: ", ")) \(foreign.count == 1 ? "applies" : "apply") only to a \(other.singular), not to a \(entity.singular)")
        }
        let missing = own.filter { $0.value == nil }.map(\.flag)
        if complete && !missing.isEmpty {
            throw CommandFailure.usage("missing \(missing.joined(separator: ", ")) for a new \(entity.singular)")
        }
    }

    /// `product` with the given fields replaced.
    ///
    /// - Throws: ``CatalogError/invalidValue(field:value:reason:)`` for a value that does not parse.
    func applied(to product: Product) throws -> Product {
        var product = product
        if let name { product.name = name }
        if let type { product.type = try ProductType(parsing: type) }
        if let year { product.yearIntroduced = try FieldParsing.year(year) }
        if let price { product.introPrice = try FieldParsing.amount(price, field: "price", decimals: Product.priceDecimals) }
        return product
    }

    /// `phone` with the given fields replaced.
    ///
    /// - Throws: ``CatalogError/invalidValue(field:value:reason:)`` for a value that does not parse.
    func applied(to phone: Phone) throws -> Phone {
        var phone = phone
        if let name { phone.name = name }
        if let maker { phone.maker = maker }
        if let os { phone.operatingSystem = os }
        if let year { phone.yearReleased = try FieldParsing.year(year) }
        if let screen { phone.screenInches = try FieldParsing.amount(screen, field: "screen", decimals: Phone.screenDecimals) }
        return phone
    }
}
