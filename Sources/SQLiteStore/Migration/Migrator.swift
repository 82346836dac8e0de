import Foundation

/// Applies versioned SQL migrations in order, each in its own transaction, and records them.
///
/// ```swift
/// let migrator = try Migrator(migrations: [
///     Migration(version: 1, name: "create_t", sql: "CREATE TABLE t(id INTEGER PRIMARY KEY, name TEXT)"),
/// ])
/// try queue.writeWithoutTransaction { db in try migrator.migrate(db) }
/// ```
///
/// Applied migrations are recorded in `schema_migrations(version, name, checksum, applied_at)`. Before
/// applying anything, the migrator refuses a database whose recorded migrations it does not know
/// (``MigrationError/databaseIsNewer(databaseVersion:knownVersion:)``) or whose recorded checksum no
/// longer matches the migration's SQL (``MigrationError/checksumMismatch(version:name:recorded:current:)``).
/// A migration that fails is rolled back whole, and the ones before it stay applied.
///
/// Several processes may migrate one file at once: each migration runs in an IMMEDIATE transaction
/// that first checks whether another process applied it meanwhile. A database with nothing pending is
/// checked in one read transaction and takes no write lock, so opening it never waits for a writer.
public struct Migrator: Sendable {
    /// The migrations, in version order.
    public let migrations: [Migration]

    /// The name of the table that records applied migrations.
    public static let tableName = "schema_migrations"

    /// Creates a migrator.
    ///
    /// - Throws: ``MigrationError/duplicateVersion(_:)`` when two migrations share a version.
    public init(migrations: [Migration]) throws {
        let sorted = migrations.sorted { $0.version < $1.version }
        for (previous, next) in zip(sorted, sorted.dropFirst()) where previous.version == next.version {
            throw MigrationError.duplicateVersion(next.version)
        }
        self.migrations = sorted
    }

    /// The highest version this migrator knows, or 0 without migrations.
    public var latestVersion: Int { migrations.last?.version ?? 0 }

    /// Applies the pending migrations up to `version` (all of them by default).
    ///
    /// Call it outside any transaction: ``DatabaseQueue/writeWithoutTransaction(_:)``.
    ///
    /// - Returns: the migrations applied by this call, in order.
    /// - Throws: ``MigrationError`` (nothing is applied when the checks fail; a failing migration is
    ///   rolled back), or ``DatabaseError`` when the database cannot be read or written.
    @discardableResult
    public func migrate(_ db: Database, upTo version: Int? = nil) throws -> [Migration] {
        precondition(!db.isInsideTransaction, "Migrator.migrate must run outside a transaction")
        // One read first, which never waits for a writer: with nothing pending, no write lock is taken.
        let wanted = migrations.filter { $0.version <= (version ?? Int.max) }
        let recorded = try db.inTransaction(.deferred) { () throws -> [AppliedMigration] in
            try validate(db)
            return try appliedMigrations(db)
        }
        let recordedVersions = Set(recorded.map(\.version))
        guard wanted.contains(where: { !recordedVersions.contains($0.version) }) else { return [] }
        try db.execute(sql: """
            CREATE TABLE IF NOT EXISTS \(Self.tableName) (
                version INTEGER PRIMARY KEY,
                name TEXT NOT NULL,
                checksum TEXT NOT NULL,
                applied_at REAL NOT NULL
            )
            """)
        try validate(try appliedMigrations(db))
        var applied: [Migration] = []
        for migration in wanted {
            let didApply = try db.inTransaction(.immediate) { () throws -> Bool in
                // Checked again under the write lock: another process may have applied it meanwhile.
                let recorded = try appliedMigrations(db)
                try validate(recorded)
                if recorded.contains(where: { $0.version == migration.version }) { return false }
                do {
                    try db.execute(sql: migration.sql)
                } catch let error as DatabaseError {
                    throw MigrationError.migrationFailed(version: migration.version, name: migration.name, error: error)
                }
                try db.execute(
                    sql: "INSERT INTO \(Self.tableName)(version, name, checksum, applied_at) VALUES (?, ?, ?, ?)",
                    arguments: [migration.version, migration.name, migration.checksum, Date()])
                return true
            }
            if didApply { applied.append(migration) }
        }
        return applied
    }

    /// Checks, without writing, that the migrator may work on this database: it is empty or records
    /// its migrations, it is not newer than the code, and no applied migration changed.
    ///
    /// ``migrate(_:upTo:)`` calls it first; call it from ``Configuration/prepareDatabase`` to refuse a
    /// file before the connection writes anything to it.
    ///
    /// - Throws: ``MigrationError/unrecognizedDatabase(tables:)``,
    ///   ``MigrationError/databaseIsNewer(databaseVersion:knownVersion:)``,
    ///   ``MigrationError/checksumMismatch(version:name:recorded:current:)``, or ``DatabaseError``.
    public func validate(_ db: Database) throws {
        let tables = try db.fetchAll(
            sql: "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\' ORDER BY name"
        ) { try $0.decode(String.self, at: 0) }
        if !tables.isEmpty && !tables.contains(Self.tableName) {
            throw MigrationError.unrecognizedDatabase(tables: tables)
        }
        try validate(try appliedMigrations(db))
    }

    /// The migrations recorded in the database, in version order; empty when it has none.
    public func appliedMigrations(_ db: Database) throws -> [AppliedMigration] {
        let exists = try db.scalar(
            Int.self, sql: "SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = ?",
            arguments: [Self.tableName]) ?? 0
        guard exists > 0 else { return [] }
        return try db.fetchAll(sql: "SELECT version, name, checksum, applied_at FROM \(Self.tableName) ORDER BY version") {
            AppliedMigration(
                version: try $0.decode(Int.self, at: 0), name: try $0.decode(String.self, at: 1),
                checksum: try $0.decode(String.self, at: 2), appliedAt: try $0.decode(Date.self, at: 3))
        }
    }

    /// Each known migration with whether it is applied, plus any recorded migration this code does not know.
    ///
    /// - Throws: ``DatabaseError`` when the database cannot be read.
    public func status(_ db: Database) throws -> [MigrationStatus] {
        let recorded = Dictionary(try appliedMigrations(db).map { ($0.version, $0) }, uniquingKeysWith: { $1 })
        var statuses = migrations.map { migration -> MigrationStatus in
            guard let applied = recorded[migration.version] else {
                return MigrationStatus(version: migration.version, name: migration.name, state: .pending, appliedAt: nil)
            }
            let state: MigrationStatus.State = applied.checksum == migration.checksum ? .applied : .modified
            return MigrationStatus(version: migration.version, name: migration.name, state: state, appliedAt: applied.appliedAt)
        }
        let known = Set(migrations.map(\.version))
        for applied in recorded.values.sorted(by: { $0.version < $1.version }) where !known.contains(applied.version) {
            statuses.append(MigrationStatus(version: applied.version, name: applied.name, state: .unknown, appliedAt: applied.appliedAt))
        }
        return statuses
    }

    private func validate(_ recorded: [AppliedMigration]) throws {
        let known = Dictionary(uniqueKeysWithValues: migrations.map { ($0.version, $0) })
        for applied in recorded {
            guard let migration = known[applied.version] else {
                throw MigrationError.databaseIsNewer(
                    databaseVersion: recorded.map(\.version).max() ?? applied.version, knownVersion: latestVersion)
            }
            if migration.checksum != applied.checksum {
                throw MigrationError.checksumMismatch(
                    version: applied.version, name: applied.name, recorded: applied.checksum, current: migration.checksum)
            }
        }
    }
}

/// A migration as recorded in the database.
public struct AppliedMigration: Sendable, Hashable {
    /// The migration's version.
    public let version: Int
    /// The migration's name when it was applied.
    public let name: String
    /// The checksum of its SQL when it was applied.
    public let checksum: String
    /// When it was applied.
    public let appliedAt: Date
}

/// A migration's state in one database, for `catalog migrate --status`.
public struct MigrationStatus: Sendable, Hashable {
    /// Whether and how a migration is applied.
    public enum State: String, Sendable {
        /// Applied, with the same SQL as now.
        case applied
        /// Not applied yet.
        case pending
        /// Applied, but its SQL changed since.
        case modified
        /// Recorded in the database but unknown to this code (a newer program applied it).
        case unknown
    }
    /// The migration's version.
    public let version: Int
    /// The migration's name.
    public let name: String
    /// Its state.
    public let state: State
    /// When it was applied, if it was.
    public let appliedAt: Date?
}
