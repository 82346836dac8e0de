import ArgumentParser

/// The `--database` option, and where it puts the database: `browse`'s options, and what
/// ``StoreOptions`` declares for every other command.
struct DatabaseOption: ParsableArguments {
    /// The option's help, the same in ``StoreOptions``.
    static let help = ArgumentHelp(
        "The database file, or a postgresql:// URL (default: $CATALOG_DATABASE, else the user's data directory).",
        valueName: "path")
    /// The option's shell completion, the same in ``StoreOptions``.
    static let completion = CompletionKind.file(extensions: ["sqlite", "db"])

    @Option(name: .long, help: help, completion: completion)
    var database: String?

    /// Where the database is, and whether it is the default one.
    ///
    /// - Throws: ``CommandFailure/usage(_:)`` for a malformed `CATALOG_…` variable or an empty path.
    func location(environment: (String) -> String? = DatabaseLocation.processVariable) throws -> DatabaseLocation {
        try DatabaseLocation(explicitPath: database, environment: environment)
    }
}
