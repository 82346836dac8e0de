import ArgumentParser
import Catalog
import Entities

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

    /// The flags of the options above, without their dashes, in order.
    static let flags = ["name", "type", "year", "price", "maker", "os", "screen"]

    /// The given options, by flag without its dashes, in the order of the options above.
    private var given: [(flag: String, value: String)] {
        zip(Self.flags, [name, type, year, price, maker, os, screen]).compactMap { flag, value in value.map { (flag, $0) } }
    }

    /// The option that sets `attribute`: its table title in lowercase (`YEAR` → `--year`).
    static func flag<Record>(of attribute: EntityAttribute<Record>) -> String { attribute.title.lowercased() }

    /// Whether no field is given.
    var isEmpty: Bool { given.isEmpty }

    /// Checks that every option given sets a field of `Record`, and, when `complete`, that every field
    /// is given.
    ///
    /// - Throws: ``CommandFailure/usage(_:)`` naming the options at fault, in one sentence.
    func validate<Record: CatalogRecord>(for type: Record.Type, complete: Bool) throws {
        let own = Record.declaredFlags
        let foreign = given.map(\.flag).filter { !own.contains($0) }
        if !foreign.isEmpty {
            let owner = Entity.allCases.first { entity in
                entity != Record.entity && foreign.allSatisfy(entity.recordType.declaredFlags.contains)
            }
            let options = foreign.map { "--" + $0 }.joined(separator: ", ")
            let verb = foreign.count == 1 ? "applies" : "apply"
            throw CommandFailure.usage(
                owner.map { "\(options) \(verb) only to a \($0.singular), not to a \(Record.entity.singular)" }
                    ?? "\(options) \(verb) to no \(Record.entity.singular)")
        }
        // Only options this command has can be missing: an attribute without one keeps the template's value.
        let missing = own.filter { flag in Self.flags.contains(flag) && !given.contains { $0.flag == flag } }
        if complete && !missing.isEmpty {
            throw CommandFailure.usage("missing \(missing.map { "--" + $0 }.joined(separator: ", ")) for a new \(Record.entity.singular)")
        }
    }

    /// `record` with the given fields replaced, each read as its attribute reads typed text.
    ///
    /// - Throws: ``CatalogError/invalidValue(field:value:reason:)`` for a value that does not parse.
    func applied<Record: CatalogRecord>(to record: Record) throws -> Record {
        var record = record
        for attribute in Record.declaration.attributes {
            if let value = given.first(where: { $0.flag == Self.flag(of: attribute) })?.value {
                try attribute.set(fromText: value, on: &record)
            }
        }
        return record
    }
}

extension CatalogRecord {
    /// The flags of the options that set the record's fields.
    static var declaredFlags: [String] { shownAttributes.map(RecordFieldOptions.flag) }
}
