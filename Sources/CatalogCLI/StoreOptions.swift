import ArgumentParser
import Catalog
import SQLiteStore

/// Options every command takes: which database, which entity, and JSON output.
struct StoreOptions: ParsableArguments {
    @OptionGroup var databaseOption: DatabaseOption

    @Option(
        name: .long,
        help: ArgumentHelp("The records to work on: products or phones (default: products).", valueName: "entity"),
        completion: .list(["products", "phones"]),
        transform: parseEntity)
    var entity: Entity?

    @Flag(name: .long, help: "Print JSON instead of text.")
    var json = false

    /// Where the database is, and whether it is the default one: see ``DatabaseOption/location(environment:)``.
    func location() throws -> DatabaseLocation { try databaseOption.location() }

    /// Opens (creating, migrating and, for a new default database, seeding) the catalog.
    func openStore(readonly: Bool = false) throws -> CatalogStore {
        try location().open(readonly: readonly)
    }

    /// Opens the catalog on one connection, which checks, migrates and reads: for a command that
    /// reads once or twice and ends (`list`, `show`, `search`, `suggest`), whose process would
    /// otherwise parse the schema on a second connection for its first read (see
    /// `CatalogStore.init(path:configuration:migrationSets:concurrentReads:)`).
    func openStoreForShortRead() throws -> CatalogStore {
        try location().open(readonly: false, concurrentReads: false)
    }

    /// Opens the catalog for a command that writes, checking a small file whole first
    /// (``DatabaseLocation/openForWriting()``).
    func openStoreForWriting() throws -> CatalogStore {
        try location().openForWriting()
    }
}

/// Reads `products`/`phones` (or `product`/`phone`) as an entity.
func parseEntity(_ text: String) throws -> Entity {
    guard let entity = Entity(parsing: text) else {
        throw ValidationError("unknown entity '\(text)': expected products or phones")
    }
    return entity
}

extension Argument where Value == Entity? {
    /// The entity as a command's first word (`list phones`, `add phone`), read by ``parseEntity(_:)``.
    ///
    /// ```swift
    /// @Argument(entityWordHelp: "products or phones (same as --entity).") var entityWord: Entity?
    /// ```
    init(entityWordHelp help: String, words: [String] = ["products", "phones"]) {
        self.init(help: ArgumentHelp(help, valueName: "entity"), completion: .list(words), transform: parseEntity)
    }
}

/// Resolves an entity given as a first word and as `--entity`, which must agree.
func resolveEntity(word: Entity?, option: Entity?) throws -> Entity {
    if let word, let option, word != option {
        throw ValidationError("the entity is given twice: \(word.rawValue) and --entity \(option.rawValue)")
    }
    return word ?? option ?? .products
}

/// The first argument of the process that reads as a negative number (`-1`, `-0.0`) and is not the
/// value of an option that takes one (`--price -1`), which the argument parser takes for an unknown
/// option: so that `show -0.0` can say the index path is invalid, and `update -1` the id, rather than
/// missing.
func negativeNumberArgument() -> String? {
    let arguments = Array(CommandLine.arguments.dropFirst())
    return arguments.indices.first { index in
        CatalogCommand.looksLikeANegativeNumber(arguments[index])
            && !(index > 0 && CatalogCommand.numericOptions.contains(arguments[index - 1]))
    }.map { arguments[$0] }
}

/// The usage error for `word` given as a record's id (`-1`): the same words in every command.
func invalidIDError(_ word: String) -> ValidationError {
    ValidationError("invalid id \(String(reflecting: word)): expected a record's id, such as 7")
}
