import ArgumentParser
import Catalog
import Foundation
import SQLiteStore

/// Options every command takes: which database, which entity, and JSON output.
struct StoreOptions: ParsableArguments {
    @Option(
        name: .long,
        help: ArgumentHelp(
            "The database file (default: $CATALOG_DATABASE, else the user's data directory).", valueName: "path"),
        completion: .file(extensions: ["sqlite", "db"]))
    var database: String?

    @Option(
        name: .long,
        help: ArgumentHelp("The records to work on: products or phones (default: products).", valueName: "entity"),
        completion: .list(["products", "phones"]),
        transform: parseEntity)
    var entity: Entity?

    @Flag(name: .long, help: "Print JSON instead of a table.")
    var json = false

    /// Where the database is, and whether it is the default one.
    func location() -> DatabaseLocation {
        DatabaseLocation(explicitPath: database, environment: ProcessInfo.processInfo.environment)
    }

    /// Opens (creating, migrating and, for a new default database, seeding) the catalog.
    func openStore(readonly: Bool = false) throws -> CatalogStore {
        try location().open(readonly: readonly)
    }
}

/// Reads `products`/`phones` (or `product`/`phone`) as an entity.
func parseEntity(_ text: String) throws -> Entity {
    guard let entity = Entity(parsing: text) else {
        throw ValidationError("unknown entity '\(text)': expected products or phones")
    }
    return entity
}

/// Resolves an entity given as a first word and as `--entity`, which must agree.
func resolveEntity(word: Entity?, option: Entity?) throws -> Entity {
    if let word, let option, word != option {
        throw ValidationError("the entity is given twice: \(word.rawValue) and --entity \(option.rawValue)")
    }
    return word ?? option ?? .products
}
