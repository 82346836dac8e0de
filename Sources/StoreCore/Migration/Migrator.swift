#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Applies the migrations of one or more ``MigrationSet``s in order, each in its own transaction, and
/// records them.
///
/// ```swift
/// let migrator = try Migrator(sets: [
///     MigrationSet(identity: "com.example.notes", migrations: [
///         Migration(version: 1, name: "create_note", sql: "CREATE TABLE note(id INTEGER PRIMARY KEY, text TEXT)"),
///     ]),
/// ])
/// try queue.writeWithoutTransaction { db in try migrator.migrate(db) }      // SQLite
/// try cluster.writeWithoutTransaction { db in try migrator.migrate(db) }    // PostgreSQL
/// ```
///
/// It runs on any ``SQLConnection``: the same sets, checks and records on both engines.
///
/// Applied migrations are recorded in `schema_migrations(migration_set, version, name, checksum,
/// applied_at)`, one row per set and version. Before applying anything, the migrator refuses a database
/// that has tables but no such record (``MigrationError/unrecognizedDatabase(tables:)``), one that holds
/// migrations of one of its sets that the set does not know
/// (``MigrationError/databaseIsNewer(set:databaseVersion:knownVersion:)``), or one whose recorded
/// checksum no longer matches the migration
/// (``MigrationError/checksumMismatch(set:version:name:recorded:current:)``). Each set is judged on its
/// own: records of a set the migrator was not given belong to another program and are left alone.
/// Sets are applied in the order given, each in version order; a migration that fails is rolled back
/// whole, and the ones before it stay applied.
///
/// Databases whose `schema_migrations` predates sets (`version, name, checksum, applied_at`, as
/// written before migration sets existed) are read as they are, their records belonging to the first
/// set, and upgraded in place, in one transaction, the first time the migrator writes.
///
/// Several processes may migrate one database at once: each migration runs in a writing transaction
/// (SQLite's IMMEDIATE; on PostgreSQL one that first takes a transaction-level advisory lock, so
/// migrators take turns) that first checks whether another process applied it meanwhile. A database with nothing pending is
/// checked in one read transaction and takes no write lock, so opening it never waits for a writer.
public struct Migrator: Sendable {
    /// The sets, in the order they are applied.
    public let sets: [MigrationSet]

    /// The name of the table that records applied migrations.
    public static let tableName = "schema_migrations"

    /// The identity of the set made by ``init(migrations:)``.
    public static let defaultSetIdentity = "main"

    /// Creates a migrator for several sets, applied in this order.
    ///
    /// - Throws: ``MigrationError/duplicateSet(_:)`` when two sets share an identity.
    public init(sets: [MigrationSet]) throws {
        var identities: Set<String> = []
        for set in sets where !identities.insert(set.identity).inserted {
            throw MigrationError.duplicateSet(set.identity)
        }
        self.sets = sets
    }

    /// Creates a migrator for one set named ``defaultSetIdentity``.
    ///
    /// - Precondition: no two migrations share a version (``MigrationSet/init(identity:migrations:)``).
    public init(migrations: [Migration]) {
        sets = [MigrationSet(identity: Self.defaultSetIdentity, migrations: migrations)]
    }

    /// Applies the pending migrations of every set, set by set, each set up to its version in
    /// `versions` (all of a set not named there).
    ///
    /// Call it outside any transaction: in a writer's `writeWithoutTransaction(_:)`.
    ///
    /// - Returns: the records this call wrote, in the order they were applied.
    /// - Throws: ``MigrationError`` (nothing is applied when the checks fail; a failing migration is
    ///   rolled back), or the engine's error when the database cannot be read or written.
    @discardableResult
    public func migrate(upTo versions: [String: Int] = [:], _ db: any SQLConnection) throws -> [AppliedMigration] {
        precondition(!db.isInsideTransaction, "Migrator.migrate must run outside a transaction")
        let wanted = sets.flatMap { set in
            set.migrations.filter { $0.version <= (versions[set.identity] ?? Int.max) }.map { (set: set.identity, migration: $0) }
        }
        // One read first, which never waits for a writer: with nothing pending, no write lock is taken.
        guard try db.inTransaction(writing: false, { try needsMigration(upTo: versions, db) }) else { return [] }
        try inMigrationTransaction(db) { try prepareRecordTable(db) }
        var applied: [AppliedMigration] = []
        for (set, migration) in wanted {
            let record = try inMigrationTransaction(db) { () throws -> AppliedMigration? in
                // Checked again under the write lock: another process may have applied it meanwhile.
                let recorded = try appliedMigrations(db)
                try validate(recorded)
                if recorded.contains(where: { $0.set == set && $0.version == migration.version }) { return nil }
                do {
                    try migration.apply(db)
                } catch {
                    throw MigrationError.migrationFailed(set: set, version: migration.version, name: migration.name, error: error)
                }
                let record = AppliedMigration(
                    set: set, version: migration.version, name: migration.name, checksum: migration.checksum, appliedAt: Date())
                try db.execute(
                    sql: "INSERT INTO \(Self.tableName)(migration_set, version, name, checksum, applied_at) VALUES (?, ?, ?, ?, ?)",
                    values: [
                        .text(record.set), .integer(Int64(record.version)), .text(record.name), .text(record.checksum),
                        .real(record.appliedAt.timeIntervalSince1970),
                    ])
                return record
            }
            if let record { applied.append(record) }
        }
        return applied
    }

    /// Checks the database as ``validate(_:)`` does, and tells whether ``migrate(upTo:_:)`` has work:
    /// a migration of every set, up to its version in `versions` (all of a set not named there), that
    /// is not recorded, or records of the layout before sets. It reads `schema_migrations` once.
    ///
    /// ```swift
    /// configuration.prepareDatabase = { db in
    ///     if try migrator.needsMigration(db) { print("migrations pending") }
    /// }
    /// ```
    ///
    /// - Throws: what ``validate(_:)`` throws.
    public func needsMigration(upTo versions: [String: Int] = [:], _ db: any SQLConnection) throws -> Bool {
        let layout = try recordLayout(db)
        let applied = try appliedMigrations(db, layout: layout)
        // A database with `schema_migrations` is no other program's: its tables need not be read.
        if layout == .none { try validate(tables: try db.tableNames(), applied) } else { try validate(applied) }
        if layout == .withoutSets { return true }
        return !pendingMigrations(upTo: versions, applied: applied).isEmpty
    }

    /// The migrations of every set, up to its version in `versions` (all of a set not named there),
    /// that `applied` does not record.
    private func pendingMigrations(upTo versions: [String: Int] = [:], applied: [AppliedMigration]) -> [Migration] {
        let recorded = Set(applied.map { RecordKey(set: $0.set, version: $0.version) })
        return sets.flatMap { set in
            set.migrations.filter { migration in
                migration.version <= (versions[set.identity] ?? Int.max)
                    && !recorded.contains(RecordKey(set: set.identity, version: migration.version))
            }
        }
    }

    /// Checks, without writing, that the migrator may work on this database: it is empty or records
    /// its migrations, none of its sets is newer than the code, and no applied migration changed.
    ///
    /// ``migrate(upTo:_:)`` calls it first; call it from SQLiteStore's `Configuration.prepareDatabase` to refuse a
    /// file before the connection writes anything to it.
    ///
    /// - Throws: ``MigrationError/unrecognizedDatabase(tables:)``,
    ///   ``MigrationError/databaseIsNewer(set:databaseVersion:knownVersion:)``,
    ///   ``MigrationError/checksumMismatch(set:version:name:recorded:current:)``, or the engine's error.
    public func validate(_ db: any SQLConnection) throws {
        try validate(tables: try db.tableNames(), try appliedMigrations(db))
    }

    /// The checks of ``validate(_:)`` on the database's tables and its recorded migrations.
    private func validate(tables: [String], _ applied: [AppliedMigration]) throws {
        if !tables.isEmpty && !tables.contains(Self.tableName) {
            throw MigrationError.unrecognizedDatabase(tables: tables)
        }
        try validate(applied)
    }

    /// The migrations recorded in the database, of every set (this migrator's or not), by set and
    /// version; empty when it has none.
    public func appliedMigrations(_ db: any SQLConnection) throws -> [AppliedMigration] {
        try appliedMigrations(db, layout: try recordLayout(db))
    }

    /// ``appliedMigrations(_:)`` from a `schema_migrations` of this shape.
    private func appliedMigrations(_ db: any SQLConnection, layout: RecordLayout) throws -> [AppliedMigration] {
        switch layout {
        case .none:
            return []
        case .withoutSets:
            let owner = sets.first?.identity ?? Self.defaultSetIdentity
            return try db.fetchRows(sql: "SELECT version, name, checksum, applied_at FROM \(Self.tableName) ORDER BY version", values: [])
                .map { try AppliedMigration(set: owner, record: $0) }
        case .withSets:
            return try db.fetchRows(
                sql: "SELECT version, name, checksum, applied_at, migration_set FROM \(Self.tableName) ORDER BY migration_set, version",
                values: []
            ).map { row in
                guard case .text(let set) = row[4] else { throw MigrationError.unreadableRecord(row) }
                return try AppliedMigration(set: set, record: row)
            }
        }
    }

    /// Whether a migration ``migrate(upTo:_:)`` would apply runs on `db`'s engine (``Migration/onlyOn``),
    /// and so changes more than `schema_migrations`: what a backup before migrating is for.
    ///
    /// - Throws: the engine's error when the database cannot be read.
    public func hasPendingChanges(_ db: any SQLConnection) throws -> Bool {
        pendingMigrations(applied: try appliedMigrations(db)).contains { $0.runs(on: db) }
    }

    /// Each known migration with whether it is applied, set by set, then every recorded migration this
    /// migrator does not know (of its sets: a newer program's; of other sets: another program's).
    ///
    /// - Throws: the engine's error when the database cannot be read.
    public func status(_ db: any SQLConnection) throws -> [MigrationStatus] {
        let recorded = try appliedMigrations(db)
        let byKey = Dictionary(recorded.map { (RecordKey(set: $0.set, version: $0.version), $0) }, uniquingKeysWith: { $1 })
        var known: Set<RecordKey> = []
        var statuses: [MigrationStatus] = []
        for set in sets {
            for migration in set.migrations {
                let key = RecordKey(set: set.identity, version: migration.version)
                known.insert(key)
                let applied = byKey[key]
                let state: MigrationStatus.State =
                    if let applied { applied.checksum == migration.checksum ? .applied : .modified } else { .pending }
                statuses.append(MigrationStatus(
                    set: set.identity, version: migration.version, name: migration.name, state: state, appliedAt: applied?.appliedAt))
            }
        }
        for applied in recorded where !known.contains(RecordKey(set: applied.set, version: applied.version)) {
            statuses.append(MigrationStatus(
                set: applied.set, version: applied.version, name: applied.name, state: .unknown, appliedAt: applied.appliedAt))
        }
        return statuses
    }

    private func validate(_ recorded: [AppliedMigration]) throws {
        for set in sets {
            let records = recorded.filter { $0.set == set.identity }
            for applied in records {
                // Searched, not looked up in a dictionary by version: a set has a few migrations, and
                // the dictionary's storage type, instantiated from its mangled name, looked up
                // `Int: Hashable` at run time, a scan of every conformance record of the static binary
                // in every process that opens a database (W7).
                guard let migration = set.migrations.first(where: { $0.version == applied.version }) else {
                    throw MigrationError.databaseIsNewer(
                        set: set.identity, databaseVersion: records.map(\.version).max() ?? applied.version,
                        knownVersion: set.latestVersion)
                }
                if migration.checksum != applied.checksum {
                    throw MigrationError.checksumMismatch(
                        set: set.identity, version: applied.version, name: applied.name, recorded: applied.checksum,
                        current: migration.checksum)
                }
            }
        }
    }

    /// A set and a version: what identifies a migration in `schema_migrations`.
    private struct RecordKey: Hashable {
        let set: String
        let version: Int
    }

    /// The shape of `schema_migrations` in a database.
    private enum RecordLayout {
        /// No such table.
        case none
        /// `version, name, checksum, applied_at`, as written before migration sets.
        case withoutSets
        /// With `migration_set`.
        case withSets
    }

    private func recordLayout(_ db: any SQLConnection) throws -> RecordLayout {
        let columns = try db.columnNames(ofTable: Self.tableName)
        if columns.isEmpty { return .none }
        return columns.contains("migration_set") ? .withSets : .withoutSets
    }

    /// Creates `schema_migrations`, or upgrades one without sets in place, its records going to the first
    /// set. Runs inside the caller's writing transaction, so another process's upgrade is seen.
    private func prepareRecordTable(_ db: any SQLConnection) throws {
        let layout = try recordLayout(db)
        if layout == .withSets { return }
        let dialect = db.dialect
        let createSQL = { (name: String) in
            """
            CREATE TABLE \(name) (
                migration_set \(dialect.columnType(.text)) NOT NULL,
                version \(dialect.columnType(.integer)) NOT NULL,
                name \(dialect.columnType(.text)) NOT NULL,
                checksum \(dialect.columnType(.text)) NOT NULL,
                applied_at \(dialect.columnType(.real)) NOT NULL,
                PRIMARY KEY (migration_set, version)
            )
            """
        }
        guard layout == .withoutSets else {
            try db.execute(sql: createSQL(Self.tableName), values: [])
            return
        }
        let upgraded = Self.tableName + "_with_sets"
        try db.execute(sql: createSQL(upgraded), values: [])
        try db.execute(
            sql: "INSERT INTO \(upgraded)(migration_set, version, name, checksum, applied_at) SELECT ?, version, name, checksum, applied_at FROM \(Self.tableName)",
            values: [.text(sets.first?.identity ?? Self.defaultSetIdentity)])
        try db.execute(sql: "DROP TABLE \(Self.tableName)", values: [])
        try db.execute(sql: "ALTER TABLE \(upgraded) RENAME TO \(Self.tableName)", values: [])
    }

    /// `body` in a writing transaction that migrators of other processes take turns for: SQLite's
    /// IMMEDIATE transaction is one already; PostgreSQL's first takes an advisory lock.
    private func inMigrationTransaction<T>(_ db: any SQLConnection, _ body: () throws -> T) throws -> T {
        try db.inTransaction(writing: true) {
            if let lock = db.dialect.transactionLock(named: Self.tableName) { try db.execute(sql: lock, values: []) }
            return try body()
        }
    }
}

extension AppliedMigration {
    /// A record read as `version, name, checksum, applied_at` (seconds since 1970).
    fileprivate init(set: String, record row: [DatabaseValue]) throws {
        guard case .integer(let version) = row[0], case .text(let name) = row[1], case .text(let checksum) = row[2] else {
            throw MigrationError.unreadableRecord(row)
        }
        let seconds: Double
        switch row[3] {
        case .real(let real): seconds = real
        case .integer(let integer): seconds = Double(integer)
        default: throw MigrationError.unreadableRecord(row)
        }
        self.init(set: set, version: Int(version), name: name, checksum: checksum, appliedAt: Date(timeIntervalSince1970: seconds))
    }
}
