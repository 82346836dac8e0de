import Foundation
import SQLiteStore

/// The catalog database: products and phones in one SQLite file, migrated to the current schema on open.
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
/// let notes = try MigrationSet(identity: "com.example.notes", migrations: [
///     Migration(version: 1, name: "create_note", sql: "CREATE TABLE note(id INTEGER PRIMARY KEY, text TEXT NOT NULL)"),
/// ])
/// let store = try CatalogStore(path: "/tmp/catalog.sqlite", migrationSets: [notes])
/// ```
public final class CatalogStore: Sendable {
    /// The database: a ``DatabasePool`` for a file (reads run beside the writer and each other), a
    /// ``DatabaseQueue`` in memory.
    public let database: any DatabaseWriter

    /// The catalog's migration set, then the additional ones this store was opened with.
    public let migrator: Migrator

    /// Opens the catalog at `path`, creating and migrating it as needed.
    ///
    /// A read-only store is not migrated; it must already be at the current schema.
    ///
    /// - Parameter migrationSets: other owners' migrations kept in the same file, applied after the
    ///   catalog's, in this order.
    /// - Throws: ``DatabaseError`` when the file cannot be opened or is not a database, ``MigrationError``
    ///   when another program made it, one of its migration sets is newer than this code or its
    ///   migrations were changed (the file is not written to then), or two sets share an identity.
    public init(path: String, configuration: Configuration = Configuration(), migrationSets: [MigrationSet] = []) throws {
        let migrator = try CatalogMigrations.migrator(with: migrationSets)
        var configuration = configuration
        // Refuse another program's database, or a newer one, before the connection writes to it.
        let prepare = configuration.prepareDatabase
        configuration.prepareDatabase = { db in
            try prepare?(db)
            try migrator.validate(db)
        }
        self.migrator = migrator
        database = path == ":memory:"
            ? try DatabaseQueue(path: path, configuration: configuration)
            : try DatabasePool(path: path, configuration: configuration)
        try migrate()
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
        try database.writeWithoutTransaction { db in
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
    ///   ``CatalogError/duplicateName(entity:name:)``, or ``DatabaseError``.
    @discardableResult
    public func insert<Record: CatalogRecord>(_ record: Record) throws -> Record {
        var saved = try record.validated()
        saved.id = try database.write { db in try Self.insert(saved, db) }
        return saved
    }

    /// Replaces the stored fields of a saved record.
    ///
    /// - Throws: ``CatalogError/notFound(entity:id:)`` when no record has its id.
    public func update<Record: CatalogRecord>(_ record: Record) throws {
        guard let id = record.id else { throw CatalogError.invalidValue(field: "id", value: "nil", reason: "the record was never saved") }
        let valid = try record.validated()
        try database.write { db in try Self.update(valid, id: id, db) }
    }

    static func update<Record: CatalogRecord>(_ valid: Record, id: Int64, _ db: Database) throws {
        let assignments = Record.columnNames.map { "\($0) = ?" }.joined(separator: ", ")
        try mapConstraintErrors(valid) {
            try db.execute(
                sql: "UPDATE \(Record.tableName) SET \(assignments) WHERE id = ?",
                arguments: StatementArguments(values: valid.persistedValues + [.integer(id)]))
        }
        guard db.changesCount == 1 else { throw CatalogError.notFound(entity: Record.entity, id: id) }
    }

    /// Deletes the record with this id and returns it.
    ///
    /// - Throws: ``CatalogError/notFound(entity:id:)`` when there is none.
    @discardableResult
    public func delete<Record: CatalogRecord>(_ type: Record.Type, id: Int64) throws -> Record {
        try database.write { db in try Self.delete(Record.self, id: id, db) }
    }

    static func delete<Record: CatalogRecord>(_ type: Record.Type, id: Int64, _ db: Database) throws -> Record {
        guard let record = try fetchOne(Record.self, id: id, db) else {
            throw CatalogError.notFound(entity: Record.entity, id: id)
        }
        try db.execute(sql: "DELETE FROM \(Record.tableName) WHERE id = ?", arguments: [id])
        return record
    }

    static func insert<Record: CatalogRecord>(_ record: Record, _ db: Database, ignoringDuplicates: Bool = false) throws -> Int64? {
        let statement = try db.cachedStatement(sql: insertSQL(Record.self, ignoringDuplicates: ignoringDuplicates))
        return try insert(record, with: statement, db)
    }

    /// Runs `statement`, compiled from ``insertSQL(_:ignoringDuplicates:)`` for `Record`, for one record:
    /// how a bulk insert saves each record without building and looking up its SQL again.
    ///
    /// - Returns: the new row's id, or nil when a duplicate name was skipped.
    static func insert<Record: CatalogRecord>(_ record: Record, with statement: Statement, _ db: Database) throws -> Int64? {
        try mapConstraintErrors(record) {
            try statement.execute(arguments: StatementArguments(values: record.persistedValues))
        }
        return db.changesCount == 1 ? db.lastInsertedRowID : nil
    }

    /// `INSERT INTO <table>(<columns>) VALUES (?, …)`, bound with ``CatalogRecord/persistedValues``; with
    /// `ON CONFLICT(name) DO NOTHING` when duplicate names are skipped.
    static func insertSQL<Record: CatalogRecord>(_ type: Record.Type, ignoringDuplicates: Bool) -> String {
        let placeholders = Array(repeating: "?", count: Record.columnNames.count).joined(separator: ", ")
        let conflict = ignoringDuplicates ? " ON CONFLICT(name) DO NOTHING" : ""
        return "INSERT INTO \(Record.tableName)(\(Record.columnNames.joined(separator: ", "))) VALUES (\(placeholders))\(conflict)"
    }

    private static func mapConstraintErrors<Record: CatalogRecord>(_ record: Record, _ body: () throws -> Void) throws {
        do {
            try body()
        } catch let error as DatabaseError where error.resultCode == .SQLITE_CONSTRAINT_UNIQUE {
            throw CatalogError.duplicateName(entity: Record.entity, name: record.name)
        }
    }

    // MARK: - Reading

    /// The record with this id, if any.
    public func fetchOne<Record: CatalogRecord>(_ type: Record.Type, id: Int64) throws -> Record? {
        try database.read { db in try Self.fetchOne(Record.self, id: id, db) }
    }

    static func fetchOne<Record: CatalogRecord>(_ type: Record.Type, id: Int64, _ db: Database) throws -> Record? {
        try db.fetchOne(sql: "SELECT \(Record.selection) FROM \(Record.tableName) WHERE id = ?", arguments: [id]) {
            try Record(row: $0)
        }
    }

    /// Every record of a type, by id.
    public func fetchAll<Record: CatalogRecord>(_ type: Record.Type) throws -> [Record] {
        try database.read { db in try Self.fetchAll(Record.self, db) }
    }

    static func fetchAll<Record: CatalogRecord>(_ type: Record.Type, _ db: Database) throws -> [Record] {
        try db.fetchAll(sql: "SELECT \(Record.selection) FROM \(Record.tableName) ORDER BY id") { try Record(row: $0) }
    }

    /// The number of records of a type.
    public func count<Record: CatalogRecord>(_ type: Record.Type) throws -> Int {
        try database.read { db in try Self.count(Record.self, db) }
    }

    static func count<Record: CatalogRecord>(_ type: Record.Type, _ db: Database) throws -> Int {
        try db.scalar(Int.self, sql: "SELECT count(*) FROM \(Record.tableName)") ?? 0
    }
}
