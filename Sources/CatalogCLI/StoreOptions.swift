import ArgumentParser
import Catalog
import SQLiteStore

/// Options every command takes: which database, which entity, and JSON output.
///
/// `--database` is declared here as in ``DatabaseOption`` (`browse`'s options), not taken from it as
/// an option group: each group type costs ArgumentParser's parse reflection, generic instantiations and
/// four conformance lookups, each of which scans every conformance record of the static binary the
/// first time, in every command's process (W7).
/// ``ListOptions`` declares all three again, with the same help.
struct StoreOptions: ParsableArguments, StoreChoosing {
    /// The help of `--entity`, the same in ``ListOptions``.
    static let entityHelp = ArgumentHelp(
        "The records to work on: products or phones (default: products).", valueName: "entity")
    /// The shell completion of `--entity`, the same in ``ListOptions``.
    static let entityCompletion = CompletionKind.list(["products", "phones"])
    /// The help of `--json`, the same in ``ListOptions``.
    static let jsonHelp: ArgumentHelp = "Print JSON instead of text."

    @Option(name: .long, help: DatabaseOption.help, completion: DatabaseOption.completion)
    var database: String?

    @Option(name: .long, help: entityHelp, completion: entityCompletion, transform: parseEntity)
    var entity: EntityKind?

    @Flag(name: .long, help: jsonHelp)
    var json = false
}

/// Reads `products`/`phones` (or `product`/`phone`) as an entity.
func parseEntity(_ text: String) throws -> EntityKind {
    guard let entity = EntityKind(parsing: text) else {
        throw ValidationError("unknown entity '\(text)': expected products or phones")
    }
    return entity
}

extension Argument where Value == EntityKind? {
    /// The entity as a command's first word (`list phones`, `add phone`), read by ``parseEntity(_:)``.
    ///
    /// ```swift
    /// @Argument(entityWordHelp: "products or phones (same as --entity).") var entityWord: EntityKind?
    /// ```
    init(entityWordHelp help: String, words: [String] = ["products", "phones"]) {
        self.init(help: ArgumentHelp(help, valueName: "entity"), completion: .list(words), transform: parseEntity)
    }
}

/// Resolves an entity given as a first word and as `--entity`, which must agree.
func resolveEntity(word: EntityKind?, option: EntityKind?) throws -> EntityKind {
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
