import ArgumentParser
import Catalog
import Entities

/// The fields of a record as options, shared by `add` (which needs those of its entity) and `update`
/// (which takes any of them).
struct EntityFieldOptions: ParsableArguments {
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

    @Argument(
        parsing: .allUnrecognized,
        help: ArgumentHelp(
            "Any other field a record type declares, as --field value: \(Self.otherFlagsHelp).",
            valueName: "--field value"))
    var otherFields: [String] = []

    /// The flags of the options above, without their dashes, in order.
    static let flags = ["name", "type", "year", "price", "maker", "os", "screen"]

    /// The flags of fields the entity types declare beyond the options above: read from
    /// ``otherFields``, so that a field added to a declaration is set without an option of its own.
    static var otherFlags: [String] {
        var seen = Set(flags)
        return EntityKind.allCases.flatMap { $0.entityType.declaredFlags }.filter { seen.insert($0).inserted }
    }

    /// The other flags, for `--help`.
    private static var otherFlagsHelp: String {
        otherFlags.isEmpty ? "none today" : otherFlags.map { "--" + $0 }.joined(separator: ", ")
    }

    /// The given options, by flag without its dashes: the options above in order, then the others.
    private var given: [(flag: String, value: String)] {
        zip(Self.flags, [name, type, year, price, maker, os, screen]).compactMap { flag, value in value.map { (flag, $0) } }
            + ((try? Self.pairs(otherFields)) ?? [])
    }

    /// Reads `--flag value` and `--flag=value` pairs of declared flags.
    ///
    /// - Throws: `ValidationError` for an option no entity type declares, or one without a value.
    static func pairs(_ arguments: [String]) throws -> [(flag: String, value: String)] {
        var pairs: [(flag: String, value: String)] = []
        var rest = arguments[...]
        while let option = rest.popFirst() {
            guard option.hasPrefix("--"), option.count > 2 else { throw ValidationError("Unexpected argument '\(option)'") }
            let parts = option.dropFirst(2).split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let flag = String(parts[0])
            guard otherFlags.contains(flag) else { throw ValidationError("Unknown option '--\(flag)'") }
            if parts.count == 2 {
                pairs.append((flag, String(parts[1])))
            } else if let value = rest.popFirst() {
                pairs.append((flag, value))
            } else {
                throw ValidationError("Missing value for '--\(flag) <\(flag)>'")
            }
        }
        return pairs
    }

    /// Checks the other fields' flags and values are well formed: called by the commands' `validate()`
    /// after their own checks, so that a word they read first (`update -1`, an id the parser took for
    /// an option) is told in their words, not as an unexpected argument.
    ///
    /// - Throws: `ValidationError` for an unknown option or a missing value.
    func validateOtherFields() throws {
        _ = try Self.pairs(otherFields)
    }

    /// The option that sets `attribute`: its table title in lowercase (`YEAR` → `--year`).
    static func flag<Entity>(of attribute: EntityAttribute<Entity>) -> String { attribute.title.lowercased() }

    /// Whether no field is given.
    var isEmpty: Bool { given.isEmpty }

    /// Checks that every option given sets a field of `Entity`, and, when `complete`, that every field
    /// is given.
    ///
    /// - Throws: ``CommandFailure/usage(_:)`` naming the options at fault, in one sentence.
    func validate<Entity: CatalogEntity>(for type: Entity.Type, complete: Bool) throws {
        let own = Entity.declaredFlags
        let foreign = given.map(\.flag).filter { !own.contains($0) }
        if !foreign.isEmpty {
            let owner = EntityKind.allCases.first { entity in
                entity != Entity.kind && foreign.allSatisfy(entity.entityType.declaredFlags.contains)
            }
            let options = foreign.map { "--" + $0 }.joined(separator: ", ")
            let verb = foreign.count == 1 ? "applies" : "apply"
            throw CommandFailure.usage(
                owner.map { "\(options) \(verb) only to a \($0.singular), not to a \(Entity.kind.singular)" }
                    ?? "\(options) \(verb) to no \(Entity.kind.singular)")
        }
        // A field files may leave out (one added after files were written) may be left out here too:
        // it keeps the template's value.
        let optional = Set(Entity.layout.fields.filter(\.isOptional).map(\.name))
        let required = Entity.shownAttributes.filter { !optional.contains($0.name) }.map(Self.flag)
        let missing = required.filter { flag in !given.contains { $0.flag == flag } }
        if complete && !missing.isEmpty {
            throw CommandFailure.usage("missing \(missing.map { "--" + $0 }.joined(separator: ", ")) for a new \(Entity.kind.singular)")
        }
    }

    /// `record` with the given fields replaced, each read as its attribute reads typed text.
    ///
    /// - Throws: ``CatalogError/invalidValue(field:value:reason:)`` for a value that does not parse.
    func applied<Entity: CatalogEntity>(to record: Entity) throws -> Entity {
        var record = record
        for attribute in Entity.declaration.attributes {
            if let value = given.first(where: { $0.flag == Self.flag(of: attribute) })?.value {
                try attribute.set(fromText: value, on: &record)
            }
        }
        return record
    }
}

extension CatalogEntity {
    /// The flags of the options that set the record's fields.
    static var declaredFlags: [String] { shownAttributes.map(EntityFieldOptions.flag) }
}
