import SQLiteStore

/// A record whose unique key another row holds, where it cannot be skipped or update that row: a
/// record that keeps its id (an import keeping ids) and has the key of a row with another id.
public struct DuplicateKey: Error, Sendable, Equatable, CustomStringConvertible {
    /// The table.
    public let table: String
    /// The attribute that is the key (`name`).
    public let attribute: String
    /// The key's value, as text.
    public let value: String

    public var description: String { "another \(table) row has the \(attribute) \(value)" }
}

/// Stores imported records of one entity through a bulk insert into its table
/// (`Database.bulkInsert(into:maintaining:triggeredRows:withoutSavepoint:_:)`), in the caller's
/// transaction, one at a time: the storing side of every import and seed.
///
/// A record with an id keeps it: the row with that id is replaced, or the record is added with it. A
/// record without one is added unless its unique key (the first attribute declared `unique: true`)
/// is taken by a stored or queued record; then it updates that record or is skipped, as `conflicts`
/// says. New rows are queued and inserted in the order of their key, so that the key's index (and
/// indexes that start with the key) take them in one pass; into a table that had rows, their keys
/// are looked up in the table in that order too, just before (`BulkInsert`'s
/// `insertInKeyOrder(_:keyAt:sql:unlessStoredBy:whenStored:)`).
///
/// Not `Sendable`: it belongs to its connection's transaction.
public final class EntityImporter<Entity: DeclaredEntity>: EntityImporting {
    /// What a record whose unique key is taken does.
    public let conflicts: ImportConflicts
    /// What was stored so far.
    public private(set) var report = ImportReport()
    private let db: Database
    private let bulk: BulkInsert
    /// The unique key: its attribute, and its place among the stored values.
    private let key: (attribute: EntityAttribute<Entity>, index: Int)?
    /// The statements of every record, made once rather than for each: the insert with an id, the
    /// query whether a stored row has a key, and the query of that row's id.
    private let insertWithIDSQL: String
    private let keyTakenSQL: String?
    private let keyRowIDSQL: String?
    /// The keys stored by this importer, when the table was empty as it began: a key it does not
    /// hold needs no lookup.
    private let insertedKeys: InsertedKeys?
    /// The references to another table's ids (``EntityDeclaration/storedReferences``).
    private let references: [StoredReference]
    /// While the entity has references: each record queued since ``insertPending()`` last ran, where
    /// it is in its source and the ids of its parents. A queued row goes in after records read since
    /// it, so its refusal is named by its own record (``locatingRefusal(_:)``), not by the record being
    /// stored when the queue went in.
    private var queued: [(place: EntitySource.Place?, parentIDs: [DatabaseValue])] = []

    /// An importer storing through `bulk`, a bulk insert into the entity's table on `db`.
    public init(_ db: Database, bulk: BulkInsert, conflicts: ImportConflicts) {
        self.db = db
        self.bulk = bulk
        self.conflicts = conflicts
        let declaration = Entity.declaration
        key = declaration.attributes.first { $0.columnDefinition.isUnique }.flatMap { attribute in
            declaration.storedColumns.firstIndex(of: attribute.column).map { (attribute, $0) }
        }
        insertWithIDSQL = declaration.insertSQL(withID: true)
        keyTakenSQL = key.map { "SELECT EXISTS (SELECT 1 FROM \(Entity.tableName) WHERE \(SQLText.identifier($0.attribute.column)) = ?)" }
        keyRowIDSQL = key.map { "SELECT id FROM \(Entity.tableName) WHERE \(SQLText.identifier($0.attribute.column)) = ?" }
        let isEmpty = try? db.scalar(Bool.self, sql: "SELECT NOT EXISTS (SELECT 1 FROM \(Entity.tableName))")
        insertedKeys = key != nil && isEmpty == true ? InsertedKeys() : nil
        references = declaration.storedReferences
    }

    /// Stores one record (checked already), read from `source`, which names it if the table refuses
    /// it after records read since.
    ///
    /// - Throws: ``DuplicateKey`` for a record that keeps its id and has another row's key;
    ///   ``EntityFileError`` naming a record stored earlier whose parent is not stored;
    ///   `DatabaseError`.
    public func add(_ record: Entity, from source: EntitySource? = nil) throws {
        let values = Entity.declaration.storedValues(of: record)
        try locatingRefusal {
            if let id = record.id {
                try put(values, id: id)
            } else if try insertNew(values, from: source) {
                report.inserted += 1
            } else if conflicts == .update, let key, let id = try storedID(key: values[key.index]) {
                try bulk.willChange(rowID: id)
                try replace(values, id: id)
            } else {
                report.skipped += 1
            }
        }
    }

    /// Inserts the records queued in the order of their key now: before records of another entity
    /// that refer to them are stored.
    ///
    /// - Throws: ``EntityFileError`` naming a queued record whose parent is not stored;
    ///   `DatabaseError`.
    public func insertPending() throws {
        try locatingRefusal { try bulk.insertQueuedRows() }
        queued.removeAll()
    }

    /// Runs `body`; when the table refuses a row for its parent, throws the refusal of the first
    /// queued record whose parent is not stored, named by its place in its source, as the insert of
    /// that record alone would be refused. Other failures (and one of no queued record: the record
    /// being stored's own) are thrown as they are.
    private func locatingRefusal(_ body: () throws -> Void) throws {
        do {
            try body()
        } catch let error as DatabaseError where error.resultCode == .SQLITE_CONSTRAINT_FOREIGNKEY && !queued.isEmpty {
            guard let missing = try firstMissingParent(of: queued.map { $0.parentIDs }, references: references, db),
                  let place = queued[missing.row].place
            else { throw error }
            throw EntityFileError(missingParentOf: missing.reference, id: missing.id, at: place)
        }
    }

    /// Queues a record under a new id in the order of its key; false when its key is taken, by a
    /// stored or a queued record. Into a table that had rows, a stored record's key is found when
    /// the queue goes in (``queuedKeyWasStored(_:id:)``).
    private func insertNew(_ values: [DatabaseValue], from source: EntitySource?) throws -> Bool {
        guard let key else {
            try bulk.willInsert()
            try statement(Entity.declaration.insertSQL()).execute(arguments: StatementArguments(values: values))
            return true
        }
        let value = values[key.index]
        if bulk.isQueued(key: value) { return false }
        if let insertedKeys, insertedKeys.mayHold(value) {
            let taken = try keyTakenSQL.map(statement)?
                .fetchOne(arguments: StatementArguments(values: [value])) { try $0.decode(Bool.self, at: 0) } ?? false
            if taken { return false }
        }
        if !references.isEmpty { queued.append((source?.place, references.map { values[$0.index] })) }
        if let insertedKeys {
            _ = try bulk.insertInKeyOrder(values, keyAt: key.index, sql: insertWithIDSQL)
            insertedKeys.insert(value)
        } else if let keyRowIDSQL {
            try bulk.insertInKeyOrder(values, keyAt: key.index, sql: insertWithIDSQL, unlessStoredBy: keyRowIDSQL, whenStored: whenKeyStored)
        }
        return true
    }

    /// ``queuedKeyWasStored(_:id:)``, made once rather than for each record.
    private lazy var whenKeyStored: ([DatabaseValue], Int64) throws -> Void = { [unowned self] values, id in
        try self.queuedKeyWasStored(values, id: id)
    }

    /// A queued record whose key the table held when the queue went in: counted as inserted when it
    /// was queued, it updates the row with that key or is skipped, as ``add(_:from:)`` does with a
    /// key found as the record comes.
    private func queuedKeyWasStored(_ values: [DatabaseValue], id: Int64) throws {
        report.inserted -= 1
        if conflicts == .update {
            try bulk.willChange(rowID: id)
            try replace(values, id: id)
        } else {
            report.skipped += 1
        }
    }

    /// Stores a record under its own id: replaces the row with that id, or adds it.
    private func put(_ values: [DatabaseValue], id: Int64) throws {
        try bulk.insertQueuedRows()  // the row with that id may be queued
        let exists = try statement("SELECT EXISTS (SELECT 1 FROM \(Entity.tableName) WHERE id = ?)")
            .fetchOne(arguments: [id]) { try $0.decode(Bool.self, at: 0) } ?? false
        if let key { insertedKeys?.insert(values[key.index]) }
        do {
            if exists {
                try bulk.willChange(rowID: id)
                try replace(values, id: id)
            } else {
                try bulk.willInsert(rowID: id)
                try statement(insertWithIDSQL)
                    .execute(arguments: StatementArguments(values: [.integer(id)] + values))
                report.inserted += 1
            }
        } catch let error as DatabaseError where error.resultCode == .SQLITE_CONSTRAINT_UNIQUE {
            guard let key else { throw error }
            throw DuplicateKey(table: Entity.tableName, attribute: key.attribute.name, value: AttributeSections.text(values[key.index]))
        }
    }

    /// The id of the row with this key, stored or queued (which is stored first).
    private func storedID(key value: DatabaseValue) throws -> Int64? {
        try bulk.insertQueuedRows()
        return try keyRowIDSQL.map(statement)?
            .fetchOne(arguments: StatementArguments(values: [value])) { try $0.decode(Int64.self, at: 0) }
    }

    /// Replaces the stored attributes of the row with this id.
    private func replace(_ values: [DatabaseValue], id: Int64) throws {
        try statement(Entity.declaration.updateSQL()).execute(arguments: StatementArguments(values: values + [.integer(id)]))
        report.updated += 1
    }

    private func statement(_ sql: String) throws -> Statement { try db.cachedStatement(sql: sql) }
}
