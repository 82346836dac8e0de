import Entities
import SQLiteStore
import TextSearch

extension Phone: DeclaredEntity {
    /// The most decimals of a screen size: hundredths of an inch, as makers quote them (`6.39"`, and the
    /// built-in seeds). A size with more is refused, so that the size shown is the one stored.
    public static let screenDecimals = 2

    /// The one place a phone's table and fields are described; SQL, decoding, validation, search,
    /// the fields of files and the columns of tables follow from it.
    ///
    /// Names and makers are stored with their folded forms, which sort them and are searched. Names
    /// section by folded initial (`É` under `E`); makers by the maker as spelled (a section's name must
    /// follow from its key alone, so `Apple` and `apple` are two sections); years by the year.
    public static let declaration = EntityDeclaration<Phone>(
        table: "phones",
        template: Phone(name: "", maker: "", yearReleased: 0, operatingSystem: "", screenInches: 0),
        folding: TextFolding.fold,
        attributes: [
            .text(
                "name", \.name, folded: true, searched: true, sections: .initial, check: { try Validation.name($0) },
                unique: true),
            .text("maker", \.maker, folded: true, searched: true, width: 12, check: { try Validation.name($0, field: "maker") }),
            .value(
                "yearReleased", \.yearReleased, title: "YEAR", parse: { try FieldParsing.year($0) },
                check: { try Validation.year($0, field: "year") }, shown: { String($0) }),
            .text("operatingSystem", \.operatingSystem, title: "OS", width: 10, check: { try Validation.name($0, field: "os") }),
            .value(
                "screenInches", \.screenInches, title: "SCREEN", label: "screen",
                parse: { try FieldParsing.amount($0, field: "screen", decimals: screenDecimals, example: "6.1") },
                check: { try Validation.amount($0, field: "screen", decimals: screenDecimals) }, shown: ShownNumber.inches),
        ])
}
