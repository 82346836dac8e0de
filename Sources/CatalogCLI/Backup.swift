import ArgumentParser
import Catalog
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import SQLiteStore

extension CatalogCommand {
    /// `catalog backup`: a consistent copy of the database, taken while others keep writing.
    struct Backup: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "backup",
            _superCommandName: CatalogCommand.commandName,
            abstract: "Copy the database to a new file, consistently, while other processes keep writing.",
            discussion: """
                Uses SQLite's online backup API: the copy is one snapshot of the database, taken in a read \
                transaction that does not block writers. The copy is written beside DEST and moved there when \
                complete. An existing DEST is refused unless --force. To restore, stop every program using \
                the database and copy the backup over it (removing any -wal and -shm files beside it).

                Examples:
                  catalog backup ~/catalog-copy.sqlite
                  catalog backup ~/catalog-copy.sqlite --force
                """)

        @Argument(help: ArgumentHelp("Where to write the copy.", valueName: "dest"), completion: .file(extensions: ["sqlite"]))
        var destination: String

        @Flag(name: .long, help: "Replace DEST if it exists.")
        var force = false

        @OptionGroup var store: StoreOptions

        func run() throws {
            try reportingFailures {
                try store.location().requireFile(
                    for: "backup", instead: "back it up with pg_dump (this database) or pg_basebackup (the whole server)")
                let source = try store.location().openForBackup()
                try OutputFile.checkWritable(destination, database: source.path)
                if !force && FileManager.default.fileExists(atPath: destination) {
                    throw CommandFailure.destinationExists(destination)
                }
                do {
                    try source.writeWithoutTransaction { db in try db.backup(to: destination, replacing: force) }
                } catch let error as DatabaseError where error.resultCode.primaryResultCode == .SQLITE_CANTOPEN {
                    // The source is open: what cannot be opened is the copy (a DEST that appeared or
                    // changed since the checks above), which is not the database's fault.
                    if !force && FileManager.default.fileExists(atPath: destination) { throw CommandFailure.destinationExists(destination) }
                    throw CommandFailure.outputNotCreatable(path: destination, reason: error.message)
                }
                if store.json {
                    Terminal.print(try renderJSON(["backup": destination]))
                } else {
                    Terminal.print("Backed up \(source.path) to \(destination).")
                }
            }
        }
    }
}

extension DatabaseLocation {
    /// The database opened read-only as it is, without migrating or checking it: what a backup copies.
    ///
    /// - Throws: ``CommandFailure/noDatabase(_:)`` when there is no file.
    func openForBackup() throws -> DatabaseQueue {
        guard FileManager.default.fileExists(atPath: path) else { throw CommandFailure.noDatabase(path) }
        var configuration = Configuration()
        configuration.isReadonly = true
        configuration.busyTimeout = busyTimeout
        return try DatabaseQueue(path: path, configuration: configuration)
    }
}
