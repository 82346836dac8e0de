import Entities
import PostgreSQLStore
import SQLiteStore
import Synchronization

/// The catalog database: products and phones in one SQLite file, or on a PostgreSQL server
/// (``init(writer:migrationSets:)`` with a `PostgreSQLCluster`), migrated to the current schema on open.
///
/// ```swift
/// let store = try CatalogStore(path: "/tmp/catalog.sqlite")
/// let iPhone = try store.insert(Product(type: .device, name: "iPhone", yearIntroduced: 2007, introPrice: 599))
/// let products = try store.fetchAll(Product.self)
/// ```
///
/// Every write is one transaction: it happens whole or not at all.
///
/// A program that keeps its own tables in the same file passes its migrations as another set; they are
/// applied after the catalog's and judged on their own (versions, checksums, "newer"):
///
/// ```swift
/// let notes = MigrationSet(identity: "com.example.notes", migrations: [
///     Migration(version: 1, name: "create_note", sql: "CREATE TABLE note(id INTEGER PRIMARY KEY, text TEXT NOT NULL)"),
/// ])
/// let store = try CatalogStore(path: "/tmp/catalog.sqlite", migrationSets: [notes])
/// ```
///
/// Every call works alike on both engines, through ``writer``; what only a file has (its path, its
/// checkpoints, ``check()``) is SQLite's, through ``file``.
public final class CatalogStore: Sendable {
    /// The store on either engine: for a file, a `DatabasePool` (reads run beside the writer and each
    /// other), or a `DatabaseQueue` in memory or when opened without concurrent reads; on a server, a
    /// `PostgreSQLCluster` (writes on the primary, reads on a replica).
    public let writer: any StoreWriter

    /// The SQLite store of a catalog on a file (or in memory): ``writer``, typed for what only a file
    /// has (its path, checkpoints, backups, integrity checks); nil for a catalog on a server.
    ///
    /// ```swift
    /// if let file = store.file { print(file.path) }
    /// ```
    public var file: (any DatabaseWriter)? { writer as? any DatabaseWriter }

    /// The catalog's migration set, then the additional ones this store was opened with.
    public let migrator: Migrator

    /// Opens the catalog at `path`, creating and migrating it as needed.
    ///
    /// A read-only store is not migrated; it must already be at the current schema.
    ///
    /// - Parameters:
    ///   - path: the database file; created when missing.
    ///   - configuration: the connection's configuration; its `prepareDatabase` runs
    ///     before the store's checks.
    ///   - migrationSets: other owners' migrations kept in the same file, applied after the catalog's,
    ///     in this order.
    ///   - concurrentReads: whether reads of a file run on reader connections of their own, beside the
    ///     writer and each other (a `DatabasePool`). When false, one connection (a `DatabaseQueue`)
    ///     checks, migrates, reads and writes in turn: for a process that reads once or twice and ends,
    ///     as the `catalog` commands that list, show, search and suggest do, since every connection
    ///     reads and parses the whole schema before its first statement (W7) and a pool's first read
    ///     opens a second one.
    /// - Throws: `DatabaseError` when the file cannot be opened or is not a database, `MigrationError`
    ///   when another program made it, one of its migration sets is newer than this code or its
    ///   migrations were changed (the file is not written to then), or two sets share an identity;
    ///   ``CatalogError/preBaselineDatabase(version:adoptable:)`` when a development version made it
    ///   before the baseline schema and it is not adopted (see ``CatalogMigrations``).
    public init(
        path: String, configuration: Configuration = Configuration(), migrationSets: [MigrationSet] = [],
        concurrentReads: Bool = true
    ) throws {
        let migrator = try CatalogMigrations.migrator(with: migrationSets)
        let original = configuration
        var configuration = configuration
        // Refuse another program's database, or a newer one, before the connection writes to it; the
        // first connection's check also says whether there is anything to migrate, so that opening a
        // migrated file reads its migrations once on that connection, not again to migrate.
        let check = OpeningCheck()
        let prepare = configuration.prepareDatabase
        configuration.prepareDatabase = { db in
            try prepare?(db)
            let needsMigration = try migrator.needsMigration(db)
            check.needsMigration.withLock { $0 = $0 ?? needsMigration }
        }
        self.migrator = migrator
        let open = { () throws -> any DatabaseWriter in
            path == ":memory:" || !concurrentReads
                ? try DatabaseQueue(path: path, configuration: configuration)
                : try DatabasePool(path: path, configuration: configuration)
        }
        do {
            writer = try open()
        } catch MigrationError.checksumMismatch(let set, _, _, _, _) where set == CatalogMigrations.identity {
            // A file made before the baseline records other catalog migrations: adopted, or refused
            // in its own words; any other file is refused again by the migrator.
            try CatalogMigrations.adoptPreBaseline(path: path, configuration: original)
            writer = try open()
        }
        if check.needsMigration.withLock({ $0 }) ?? true { try migrate() }
    }

    /// Opens the catalog in `writer`, a store of either engine (a `PostgreSQLCluster`, say), and
    /// applies its pending migrations: the baseline creates the tables in the engine's dialect.
    ///
    /// ```swift
    /// let store = try CatalogStore(writer: PostgreSQLCluster(PostgreSQLConfiguration(
    ///     primary: "postgresql://catalog@127.0.0.1:54320/postgres")))
    /// ```
    ///
    /// - Throws: `MigrationError` as ``init(path:configuration:migrationSets:concurrentReads:)``
    ///   does; the engine's error when the store cannot be read or written.
    public init(writer: any StoreWriter, migrationSets: [MigrationSet] = []) throws {
        migrator = try CatalogMigrations.migrator(with: migrationSets)
        self.writer = writer
        try migrate()
    }

    /// What the first connection's check found: whether the file has migrations to apply (nil
    /// before any connection opened).
    private final class OpeningCheck: Sendable {
        let needsMigration = Mutex<Bool?>(nil)
    }

    /// A new, migrated, in-memory catalog.
    public static func inMemory() throws -> CatalogStore {
        try CatalogStore(path: ":memory:")
    }

    /// Applies pending migrations (a read-only store is only checked).
    ///
    /// - Returns: the records of the migrations applied now.
    @discardableResult
    public func migrate() throws -> [AppliedMigration] {
        guard let database = writer as? any DatabaseWriter else {
            return try writer.writeWithoutTransaction { db in try migrator.migrate(db) }
        }
        return try database.writeWithoutTransaction { db in
            if database.configuration.isReadonly {
                let pending = try migrator.status(db).filter { $0.state == .pending || $0.state == .modified }
                if let first = pending.first {
                    throw DatabaseError(
                        resultCode: .SQLITE_READONLY,
                        message: "the database is read-only and its \(first.set) migration \(first.version) (\(first.name)) is \(first.state.rawValue)")
                }
                return []
            }
            return try migrator.migrate(db)
        }
    }

    // MARK: - Writing

    /// Saves a new record and returns it with its id.
    ///
    /// - Throws: ``CatalogError/invalidValue(field:value:reason:)``,
    ///   ``CatalogError/duplicateName(entity:name:)``, or `DatabaseError`.
    @discardableResult
    public func insert<Entity: CatalogEntity>(_ record: Entity) throws -> Entity {
        try writer.write { db in try Self.insert(record, db) }
    }

    /// Replaces the stored fields of a saved record.
    ///
    /// - Throws: ``CatalogError/notFound(entity:id:)`` when no record has its id.
    public func update<Entity: CatalogEntity>(_ record: Entity) throws {
        guard record.id != nil else { throw CatalogError.invalidValue(field: "id", value: "nil", reason: "the record was never saved") }
        try writer.write { db in try Self.update(record, db) }
    }

    /// Changes the record with this id from its stored values, in one write: `change` gets the record
    /// as stored, which no other writer changes until the change is saved, so a change of one field
    /// never undoes another writer's change of another. Returns the record as saved.
    ///
    /// - Throws: ``CatalogError/notFound(entity:id:)`` when no record has this id; what `change`
    ///   throws, or the changed record's validation, with nothing written.
    @discardableResult
    public func update<Entity: CatalogEntity>(_ type: Entity.Type, id: Int64, _ change: (Entity) throws -> Entity) throws -> Entity {
        try writer.write { db in
            guard let stored = try Entity.fetchOneForUpdate(id: id, db) else { throw CatalogError.notFound(entity: Entity.kind, id: id) }
            try Self.update(try change(stored), db)
            return try Entity.fetchOne(id: id, db) ?? stored
        }
    }

    /// Deletes the record with this id and returns it.
    ///
    /// - Throws: ``CatalogError/notFound(entity:id:)`` when there is none.
    @discardableResult
    public func delete<Entity: CatalogEntity>(_ type: Entity.Type, id: Int64) throws -> Entity {
        try writer.write { db in try Self.delete(Entity.self, id: id, db) }
    }

    /// Validates and saves a new record (``DeclaredEntity/insert(_:)``), in the catalog's words on
    /// failure. On SQLite through its cached statements, on another engine through `RETURNING id`.
    static func insert<Entity: CatalogEntity>(_ record: Entity, _ db: any SQLConnection) throws -> Entity {
        var saved = record
        try mappingErrors(of: Entity.self, name: record.name) {
            if let db = db as? Database { try saved.insert(db) } else { try saved.insert(db) }
        }
        return saved
    }

    /// Validates a saved record and replaces its row (``DeclaredEntity/update(_:)``).
    static func update<Entity: CatalogEntity>(_ record: Entity, _ db: any SQLConnection) throws {
        try mappingErrors(of: Entity.self, name: record.name) {
            if let db = db as? Database { try record.update(db) } else { try record.update(db) }
        }
    }

    /// Deletes the row with this id (``DeclaredEntity/delete(id:_:)``) and returns its record.
    static func delete<Entity: CatalogEntity>(_ type: Entity.Type, id: Int64, _ db: any SQLConnection) throws -> Entity {
        try mappingErrors(of: Entity.self, name: nil) { try Entity.delete(id: id, db) }
    }

    /// Runs `body`, saying in the catalog's words what went wrong: a taken name, an unknown id.
    private static func mappingErrors<Entity: CatalogEntity, Result>(
        of type: Entity.Type, name: String?, _ body: () throws -> Result
    ) throws -> Result {
        do {
            return try body()
        } catch let error as DatabaseError where error.resultCode == .SQLITE_CONSTRAINT_UNIQUE && name != nil {
            throw CatalogError.duplicateName(entity: Entity.kind, name: name!)
        } catch let error as PostgreSQLError where error.sqlState == PostgreSQLError.uniqueViolation && name != nil {
            throw CatalogError.duplicateName(entity: Entity.kind, name: name!)
        } catch EntityError.notFound(_, let id) {
            throw CatalogError.notFound(entity: Entity.kind, id: id)
        }
    }

    // MARK: - Reading

    /// The record with this id, if any.
    public func fetchOne<Entity: CatalogEntity>(_ type: Entity.Type, id: Int64) throws -> Entity? {
        try writer.read { db in try Entity.fetchOne(id: id, db) }
    }

    /// Every record of a type, by id.
    public func fetchAll<Entity: CatalogEntity>(_ type: Entity.Type) throws -> [Entity] {
        try writer.read { db in try Entity.fetchAll(db) }
    }

    /// The number of records of a type.
    public func count<Entity: CatalogEntity>(_ type: Entity.Type) throws -> Int {
        try writer.read { db in try Entity.fetchCount(db) }
    }

    /// Whether no record of a type is stored (without counting them).
    public func isEmpty<Entity: CatalogEntity>(_ type: Entity.Type) throws -> Bool {
        try writer.read { db in try Entity.isEmpty(db) }
    }
}
