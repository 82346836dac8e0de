#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import SQLiteStore

extension CatalogStore {
    /// The catalog's schema version in this database: its highest applied catalog migration, 0 for none.
    ///
    /// - Throws: `DatabaseError` when the database cannot be read.
    public func schemaVersion() throws -> Int {
        try writer.read { db in
            try migrator.appliedMigrations(db).last { $0.set == CatalogMigrations.identity }?.version ?? 0
        }
    }

    /// Each migration of this store's sets with its state, then the recorded migrations of other sets.
    ///
    /// - Throws: `DatabaseError` when the database cannot be read.
    public func migrationStatus() throws -> [MigrationStatus] {
        try writer.read { db in try migrator.status(db) }
    }

    /// The migration status of the catalog database at `path`, without opening it as a store: nothing
    /// is migrated, the journal mode is left as it is, and the file is refused as every open refuses it
    /// (another program's database, a newer one, changed migrations).
    ///
    /// ```swift
    /// for status in try CatalogStore.migrationStatus(path: "/tmp/catalog.sqlite") {
    ///     print(status.set, status.version, status.name, status.state)   // catalog 1 baseline applied
    /// }
    /// ```
    ///
    /// The connection is a read-write one closed before returning, so that SQLite empties the `-wal`
    /// file, or removes the `-wal` and `-shm` files it made unless the caller owns the database (a
    /// read-only connection leaves them behind, full, whoever owns the file).
    ///
    /// - Parameters:
    ///   - path: an existing database file.
    ///   - configuration: the connection's configuration (its busy timeout, say); its journal mode is
    ///     not used.
    ///   - migrationSets: other owners' sets, as given to ``init(path:configuration:migrationSets:concurrentReads:)``.
    /// - Throws: `DatabaseError` with `SQLITE_CANTOPEN` when there is no file at `path` (it is not
    ///   created), or when it cannot be read; `MigrationError` when it is refused.
    public static func migrationStatus(
        path: String, configuration: Configuration = Configuration(), migrationSets: [MigrationSet] = []
    ) throws -> [MigrationStatus] {
        guard FileManager.default.fileExists(atPath: path) else {
            throw DatabaseError(resultCode: .SQLITE_CANTOPEN, message: "no database at \(path)")
        }
        let migrator = try CatalogMigrations.migrator(with: migrationSets)
        var configuration = configuration
        configuration.journalMode = nil
        let prepare = configuration.prepareDatabase
        configuration.prepareDatabase = { db in
            try prepare?(db)
            try migrator.validate(db)
        }
        let queue: DatabaseQueue
        do {
            queue = try DatabaseQueue(path: path, configuration: configuration)
        } catch let error as MigrationError {
            // A file made before the baseline is refused in its own words, and never adopted here.
            if case .checksumMismatch(CatalogMigrations.identity, _, _, _, _) = error {
                var readonly = configuration
                readonly.isReadonly = true
                readonly.prepareDatabase = prepare
                try CatalogMigrations.adoptPreBaseline(path: path, configuration: readonly)
            }
            throw error
        }
        let statuses = try queue.read { db in try migrator.status(db) }
        try queue.close()
        return statuses
    }
}
