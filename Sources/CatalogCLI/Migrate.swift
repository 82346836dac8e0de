import ArgumentParser
import Catalog
import PostgreSQLStore
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import SQLiteStore

extension CatalogCommand {
    /// `catalog migrate`: brings the database to the current schema, or shows where it stands.
    struct Migrate: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "migrate",
            _superCommandName: CatalogCommand.commandName,
            abstract: "Apply pending schema migrations (every command also does on open), or show their status.",
            discussion: """
                When migrations that change the file are pending and the database holds data, `migrate` first \
                backs the database up (as `catalog backup` does) to PATH.before-migration-<version>-<time>.sqlite beside it, and \
                says where, unless --no-backup. To undo a migration, copy that file back over the database.

                Examples:
                  catalog migrate
                  catalog migrate --no-backup
                  catalog migrate --status --json
                """)

        @Flag(name: .long, help: "List each migration with its state instead of applying them.")
        var status = false

        @Flag(name: .long, help: "Do not back the database up before applying pending migrations.")
        var noBackup = false

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
                    guard location.server != nil || FileManager.default.fileExists(atPath: location.path) else {
                        throw CommandFailure.noDatabase(location.path)
                    }
                    try printStatus(try statuses(location))
                } else {
                    // A server's database is not copied beside itself: back it up with pg_dump.
                    let backup = try noBackup || store.location().server != nil ? nil : backUpBeforeMigrating()
                    let catalog: CatalogStore
                    do {
                        catalog = try store.openStoreForWriting()
                    } catch {
                        if let backup { removeIfNothingWasMigrated(backup) }
                        throw error
                    }
                    let version = try catalog.schemaVersion()
                    if store.json {
                        Terminal.print(try renderJSON(MigratedJSON(version: version, backup: backup?.path)))
                    } else {
                        if let backup { Terminal.print("Backed up the database to \(backup.path) before migrating.") }
                        Terminal.print("The database is at schema version \(version), the latest.")
                    }
                }
            }
        }

        /// `{"version", "backup"}`, with `"backup": null` when no backup was taken.
        private struct MigratedJSON: Encodable {
            let version: Int
            let backup: String?

            private enum CodingKeys: String, CodingKey { case version, backup }

            func encode(to encoder: any Encoder) throws {
                var container = encoder.container(keyedBy: CodingKeys.self)
                try container.encode(version, forKey: .version)
                try container.encode(backup, forKey: .backup)
            }
        }

        /// A backup taken before migrating: where, and the catalog's schema version it holds.
        private struct TakenBackup {
            let path: String
            let version: Int
        }

        /// The migrations of the database at `location` and their states, read without migrating.
        private func statuses(_ location: DatabaseLocation) throws -> [MigrationStatus] {
            if let server = location.server {
                let cluster = try PostgreSQLCluster(server)
                defer { cluster.close() }
                let migrator = try CatalogMigrations.migrator()
                // Refuses a newer or changed schema, as a file's status does.
                return try cluster.read { db in
                    try migrator.validate(db)
                    return try migrator.status(db)
                }
            }
            var configuration = Configuration()
            configuration.busyTimeout = location.busyTimeout
            return try CatalogStore.migrationStatus(path: location.path, configuration: configuration)
        }

        /// Removes `backup` when the migration failed before applying anything (the database locked by
        /// another process, say): a failed command leaves no file behind, and the database is still the
        /// backup's. A backup of a database that a failed migration left partly migrated stays.
        private func removeIfNothingWasMigrated(_ backup: TakenBackup) {
            guard let location = try? store.location() else { return }
            let applied: Int
            do {
                applied = try statuses(location).filter { $0.set == CatalogMigrations.identity && $0.state == .applied }.map(\.version).max() ?? 0
            } catch CatalogError.preBaselineDatabase(let version, _) {
                applied = version
            } catch {
                return
            }
            if applied == backup.version { try? FileManager.default.removeItem(atPath: backup.path) }
        }

        /// Backs the database up beside itself when it has pending migrations and data; returns where.
        private func backUpBeforeMigrating() throws -> TakenBackup? {
            let location = try store.location()
            guard FileManager.default.fileExists(atPath: location.path) else { return nil }
            // Refuses what every command refuses (damage, a newer or changed schema) as `--status` does,
            // leaving no file: the backup's read-only connection would leave a -wal and -shm beside it.
            do {
                _ = try statuses(location)
            } catch CatalogError.preBaselineDatabase(_, adoptable: true) {}
            let source = try location.openForBackup()
            let (pending, hasData) = try source.writeWithoutTransaction { db -> (Int?, Bool) in
                let migrator = try CatalogMigrations.migrator()
                do {
                    try migrator.validate(db)
                } catch let error as MigrationError {
                    // A development version's file at 12 is adopted: backed up first, like a migration.
                    guard let version = try CatalogMigrations.preBaselineVersion(db) else { throw error }
                    return (version, try CatalogMigrations.hasEntities(db))
                }
                // A step only recorded on a file (a server's, `Migration.onlyOn`) changes nothing to back up.
                let isPending = try migrator.hasPendingChanges(db)
                let applied = try migrator.appliedMigrations(db).last { $0.set == CatalogMigrations.identity }?.version ?? 0
                return (isPending ? applied : nil, try CatalogMigrations.hasEntities(db))
            }
            guard let version = pending, hasData else { return nil }
            let stamp = Self.timestamp(Date()).replacing(":", with: "")
            let destination = "\(location.path).before-migration-\(version)-\(stamp).sqlite"
            try source.writeWithoutTransaction { db in try db.backup(to: destination) }
            try source.close()
            return TakenBackup(path: destination, version: version)
        }

        /// A time as the status shows when a migration was applied, and a backup's name when it was
        /// taken (without the colons): ISO 8601 in UTC, in whole seconds (`…T10:44:07Z`), as
        /// Foundation's `ISO8601DateFormatter()` wrote it.
        static func timestamp(_ date: Date) -> String {
            Date.ISO8601FormatStyle().format(date)
        }

        private func printStatus(_ statuses: [MigrationStatus]) throws {
            if store.json {
                Terminal.print(try renderJSON(statuses.map {
                    StatusJSON(set: $0.set, version: $0.version, name: $0.name, state: $0.state.rawValue,
                               appliedAt: $0.appliedAt.map(Self.timestamp))
                }))
                return
            }
            var table = TextTable(rightAligned: [1])
            table.append(["SET", "VERSION", "NAME", "STATE", "APPLIED AT"])
            for status in statuses {
                table.append([status.set, String(status.version), status.name, status.state.rawValue,
                              status.appliedAt.map(Self.timestamp) ?? ""])
            }
            Terminal.print(table.render())
        }
    }
}
