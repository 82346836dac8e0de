import ArgumentParser
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The `--database` option, and where it puts the database: shared by every command
/// (through ``StoreOptions``) and `browse`.
struct DatabaseOption: ParsableArguments {
    @Option(
        name: .long,
        help: ArgumentHelp(
            "The database file (default: $CATALOG_DATABASE, else the user's data directory).", valueName: "path"),
        completion: .file(extensions: ["sqlite", "db"]))
    var database: String?

    /// Where the database is, and whether it is the default one.
    ///
    /// - Throws: ``CommandFailure/usage(_:)`` for a malformed `CATALOG_…` variable or an empty path.
    func location(environment: [String: String] = ProcessInfo.processInfo.environment) throws -> DatabaseLocation {
        try DatabaseLocation(explicitPath: database, environment: environment)
    }
}
