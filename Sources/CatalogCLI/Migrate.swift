import ArgumentParser
import Catalog
import Foundation
import SQLiteStore

extension CatalogCommand {
    /// `catalog migrate`: brings the database to the current schema, or shows where it stands.
    struct Migrate: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "migrate",
            abstract: "Apply pending schema migrations (every command also does on open), or show their status.",
            discussion: """
                Examples:
                  catalog migrate
                  catalog migrate --status --json
                """)

        @Flag(name: .long, help: "List each migration with its state instead of applying them.")
        var status = false

        @OptionGroup var store: StoreOptions

        private struct StatusJSON: Encodable {
            let set: String
            let version: Int
            let name: String
            let state: String
            let appliedAt: String?
        }

        func run() throws {
            try reportingFailures {
                if status {
                    // Looking must not migrate, nor create the file, nor change its journal mode, and
                    // refuses what every command refuses.
                    let location = try store.location()
                    guard FileManager.default.fileExists(atPath: location.path) else { throw CommandFailure.noDatabase(location.path) }
                    var configuration = Configuration()
                    configuration.busyTimeout = location.busyTimeout
                    let statuses = try CatalogStore.migrationStatus(path: location.path, configuration: configuration)
                    try printStatus(statuses)
                } else {
                    let catalog = try store.openStoreForWriting()
                    let version = try catalog.schemaVersion()
                    if store.json {
                        Terminal.print(try renderJSON(["version": version]))
                    } else {
                        Terminal.print("The database is at schema version \(version), the latest.")
                    }
                }
            }
        }

        private func printStatus(_ statuses: [MigrationStatus]) throws {
            let formatter = ISO8601DateFormatter()
            if store.json {
                Terminal.print(try renderJSON(statuses.map {
                    StatusJSON(set: $0.set, version: $0.version, name: $0.name, state: $0.state.rawValue,
                               appliedAt: $0.appliedAt.map(formatter.string(from:)))
                }))
                return
            }
            var table = TextTable(rightAligned: [1])
            table.append(["SET", "VERSION", "NAME", "STATE", "APPLIED AT"])
            for status in statuses {
                table.append([status.set, String(status.version), status.name, status.state.rawValue,
                              status.appliedAt.map(formatter.string(from:)) ?? ""])
            }
            Terminal.print(table.render())
        }
    }
}
