import ArgumentParser
import Catalog

/// The options of a command that reads a listed result (`list`, `show`, `search`, `delete`, `watch`):
/// those that shape the result, shared so that an index path printed by one resolves to the same row
/// in the others, after the database, entity and JSON options of ``StoreOptions``, declared again
/// here so that these commands parse one option group rather than two (see ``StoreOptions``).
struct ListOptions: ParsableArguments, StoreChoosing {
    @Option(name: .long, help: DatabaseOption.help, completion: DatabaseOption.completion)
    var database: String?

    @Option(name: .long, help: StoreOptions.entityHelp, completion: StoreOptions.entityCompletion, transform: parseEntity)
    var entity: EntityKind?

    @Flag(name: .long, help: StoreOptions.jsonHelp)
    var json = false

    @Option(
        name: .long,
        help: ArgumentHelp("Only products of this type: device, desktop or portable.", valueName: "type"),
        completion: .list(ProductType.allCases.map(\.rawValue)),
        transform: ProductType.init(parsing:))
    var scope: ProductType?

    @Option(
        name: .long,
        help: ArgumentHelp(
            "Sort rows by name, year, price (products) or maker (phones). Default: name.", valueName: "field"),
        completion: .list(SortField.allCases.map(\.rawValue)),
        transform: ListOptions.sortField(parsing:))
    var sort: SortField = .name

    @Flag(name: .long, help: "Sort in descending order.")
    var reverse = false

    @Option(
        name: .long,
        help: ArgumentHelp(
            "Only records whose name (or maker) contains every word, ignoring case, accents and width.",
            valueName: "text"))
    var search: String?

    /// Reads `--sort`'s value, in any case.
    ///
    /// - Throws: `ValidationError` for a word that names no sort field.
    static func sortField(parsing text: String) throws -> SortField {
        guard let field = SortField(rawValue: text.lowercased()) else {
            throw ValidationError("unknown sort field '\(text)': expected name, year, price or maker")
        }
        return field
    }

    /// The list these options describe for `entity`.
    ///
    /// - Throws: `ValidationError` for a scope or sort the entity does not take.
    func choice(for entity: EntityKind, searchText: String? = nil) throws -> ListChoice {
        let choice = ListChoice(
            entity: entity, scope: scope, sort: sort, isReversed: reverse, searchText: searchText ?? search ?? "")
        do {
            try choice.validate()
        } catch let error as CatalogError {
            throw ValidationError(error.description)
        }
        return choice
    }
}
