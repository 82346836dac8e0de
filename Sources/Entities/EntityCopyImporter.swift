import PostgreSQLSearch
import SQLiteStore

/// Stores imported records of one entity on any engine's connection (a `PostgreSQLCluster`'s, say),
/// with the engine's bulk load: new rows are gathered and added with one
/// `SQLConnection.copy(into:columns:rows:)` (PostgreSQL's `COPY`), the way ``EntityImporter`` does on
/// SQLite, with the same results: ids, updates and skips as one `INSERT` or `UPDATE` a record gives.
///
/// A record with an id keeps it (the rows gathered so far are added first, then the row with that
/// id is replaced, or the record is added with it). A record without one is added unless its unique
/// key is taken by a stored or gathered record; then it updates that record or is skipped, as
/// `conflicts` says. The gathered rows are held in memory until ``insertPending()``; the rows of a
/// bulk load into an empty table are not gathered but stream into it as they come.
///
/// Not `Sendable`: it belongs to its connection's transaction.
public final class EntityCopyImporter<Entity: DeclaredEntity, Connection: SQLConnection>: EntityImporting {
    /// What a record whose unique key is taken does.
    public let conflicts: ImportConflicts
    /// What was stored so far (gathered rows count as inserted).
    public private(set) var report = ImportReport()
    private let db: Connection
    /// The unique key: its column, and its place among the stored values.
    private let key: (column: String, attribute: String, index: Int)?
    /// Whether the table may hold a row with a gathered record's key: not while it was empty at the
    /// start and only gathered rows were added.
    private var mayHoldKeys: Bool
    /// New rows, in the order of the records, and the place of each key among them.
    private var gathered: [[DatabaseValue]] = []
    private var gatheredKeys: [DatabaseValue: Int] = [:]
    /// Whether a record was added with its own id since the engine's numbering last caught up with
    /// the stored ids (`SQLDialect.keyCatchUp(table:column:)`).
    private var keptIDs = false
    /// The bulk load new rows stream into while it runs (see ``insertPending()``).
    private var bulkLoad: BulkLoad?

    /// A bulk load running on a thread of its own, the rows it was sent, and the records held back
    /// to be stored by their key after it.
    private final class BulkLoad {
        let pipe: RowPipe<[DatabaseValue]>
        /// The hashes of the keys of the rows sent.
        var keys = KeyHashes()
        /// The records whose key's hash a row sent has: stored after the load, in order.
        var heldBack: [[DatabaseValue]] = []

        init(_ pipe: RowPipe<[DatabaseValue]>) { self.pipe = pipe }
    }

    /// An importer into the entity's table on `db`, in the caller's transaction.
    public init(_ db: Connection, conflicts: ImportConflicts) throws {
        self.db = db
        self.conflicts = conflicts
        let declaration = Entity.declaration
        key = declaration.attributes.first { $0.columnDefinition.isUnique }.flatMap { attribute in
            declaration.storedColumns.firstIndex(of: attribute.column).map { (attribute.column, attribute.name, $0) }
        }
        mayHoldKeys = try !Entity.isEmpty(db)
    }

    /// Stores one record (checked already).
    ///
    /// - Throws: ``DuplicateKey`` for a record that keeps its id and has another row's key; the
    ///   engine's error.
    public func add(_ record: Entity) throws {
        let values = Entity.declaration.storedValues(of: record)
        if let id = record.id {
            try addGathered()
            mayHoldKeys = true
            try put(values, id: id)
            return
        }
        if bulkLoad == nil, gathered.isEmpty, try mayLoadInBulk() { try startBulkLoad() }
        if let bulkLoad {
            if let key, !bulkLoad.keys.insert(values[key.index]) {
                bulkLoad.heldBack.append(values)
                return
            }
            try bulkLoad.pipe.send(values)
            report.inserted += 1
        } else {
            try addNew(values)
        }
    }

    /// Stores the values of a record without an id: gathered, unless its key is taken.
    private func addNew(_ values: [DatabaseValue]) throws {
        guard let key else {
            gathered.append(values)
            report.inserted += 1
            return
        }
        let value = values[key.index]
        if let place = gatheredKeys[value] {
            guard conflicts == .update else { report.skipped += 1; return }
            gathered[place] = values
            report.updated += 1
        } else if mayHoldKeys, let id = try storedID(key: value, key.column) {
            guard conflicts == .update else { report.skipped += 1; return }
            try replace(values, id: id)
        } else {
            gatheredKeys[value] = gathered.count
            gathered.append(values)
            report.inserted += 1
        }
    }

    /// Adds the rows held back so far to the table, and lets the ids the engine gives next follow
    /// the ids records kept.
    ///
    /// On PostgreSQL, into a table that was empty, in a transaction (which a failed load rolls back
    /// whole), by its owner (who alone may disable its triggers), new records are added by a bulk
    /// load that runs on a thread of its own as they are read: their rows stream into one `COPY`
    /// (`RowPipe`), with the table's indexes (and the unique constraints no other table's key
    /// references) dropped before and built after it, from every row at once (`PostgreSQLBulkLoad`);
    /// the change log's trigger is disabled during it and the rows logged after it in one statement
    /// (`PostgreSQLChangeLogSchema.loggingEveryRowSQL`); a searchable entity's search structures are
    /// filled by `PostgreSQLTextSearch.load(_:columns:_:)`. A record whose key's hash a streamed row
    /// has is held back and stored by its key after the load (an update or skip of that row). The
    /// same rows and entries as one `INSERT` or `UPDATE` a record gives (W1b on PostgreSQL); other
    /// sessions' reads and writes of the table wait until the transaction ends (dropping an index
    /// locks the table). Elsewhere the rows are gathered and added by one
    /// `SQLConnection.copy(into:columns:rows:)`.
    public func insertPending() throws {
        try addGathered()
        try catchUpIDs()
    }

    /// Waits for a bulk load that is running to end, its result left to the caller's rollback:
    /// after the import failed.
    public func abandon() {
        try? bulkLoad?.pipe.finish()
        bulkLoad = nil
    }

    /// Adds the gathered rows (after the bulk load, if one runs), numbered after the ids kept so far.
    private func addGathered() throws {
        try finishBulkLoad()
        guard !gathered.isEmpty else { return }
        try catchUpIDs()
        try db.copy(into: Entity.tableName, columns: Entity.declaration.storedColumns, rows: gathered)
        gathered.removeAll()
        gatheredKeys.removeAll()
    }

    /// Whether new records may be added by a bulk load, as ``insertPending()`` says.
    private func mayLoadInBulk() throws -> Bool {
        try db.dialect == .postgreSQL && db.isInsideTransaction && !mayHoldKeys && Entity.isEmpty(db)
            && db.fetchRows(sql: PostgreSQLChangeLogSchema.ownsTableSQL, values: [.text(Entity.tableName)]).first?.first == .integer(1)
    }

    /// Starts the bulk load of ``insertPending()``: the rows sent to it until ``finishBulkLoad()``.
    private func startBulkLoad() throws {
        if Entity.declaration.tracksChanges {
            try db.execute(sql: "ALTER TABLE \(Entity.tableName) DISABLE TRIGGER \(PostgreSQLChangeLogSchema.triggerName(forTable: Entity.tableName))", values: [])
        }
        let (db, columns) = (db, Entity.declaration.storedColumns)
        let search = (Entity.self as? any SearchableEntity.Type)?.searchDescription
        bulkLoad = BulkLoad(RowPipe { rows in
            try PostgreSQLBulkLoad.withIndexesBuiltAfter(table: Entity.tableName, db) {
                if let search {
                    try PostgreSQLTextSearch(search).load(rows, columns: columns, db)
                } else {
                    try db.copy(into: Entity.tableName, columns: columns, rows: rows)
                }
            }
        })
    }

    /// Ends the bulk load, if one runs: waits for it, stores the records held back, and logs every row.
    private func finishBulkLoad() throws {
        guard let bulkLoad else { return }
        self.bulkLoad = nil
        mayHoldKeys = true
        try bulkLoad.pipe.finish()
        for values in bulkLoad.heldBack { try addNew(values) }
        try addGathered()
        if Entity.declaration.tracksChanges {
            try db.execute(
                sql: PostgreSQLChangeLogSchema.loggingEveryRowSQL(ofTable: Entity.tableName)
                    + "ALTER TABLE \(Entity.tableName) ENABLE TRIGGER \(PostgreSQLChangeLogSchema.triggerName(forTable: Entity.tableName));",
                values: [])
        }
    }

    private func catchUpIDs() throws {
        guard keptIDs else { return }
        keptIDs = false
        if let sql = db.dialect.keyCatchUp(table: Entity.tableName) { try db.execute(sql: sql, values: []) }
    }

    /// Stores a record under its own id: replaces the row with that id, or adds it.
    private func put(_ values: [DatabaseValue], id: Int64) throws {
        if let key, let holder = try storedID(key: values[key.index], key.column), holder != id {
            throw DuplicateKey(table: Entity.tableName, attribute: key.attribute, value: AttributeSections.text(values[key.index]))
        }
        if try db.fetchRows(sql: "SELECT 1 FROM \(Entity.tableName) WHERE id = ?", values: [.integer(id)]).isEmpty {
            try db.execute(sql: Entity.declaration.insertSQL(withID: true), values: [.integer(id)] + values)
            keptIDs = true
            report.inserted += 1
        } else {
            try replace(values, id: id)
        }
    }

    /// The id of the stored row with this key.
    private func storedID(key value: DatabaseValue, _ column: String) throws -> Int64? {
        guard case .integer(let id) = try db.fetchRows(sql: "SELECT id FROM \(Entity.tableName) WHERE \(column) = ?", values: [value]).first?.first
        else { return nil }
        return id
    }

    /// Replaces the stored attributes of the row with this id.
    private func replace(_ values: [DatabaseValue], id: Int64) throws {
        try db.execute(sql: Entity.declaration.updateSQL(), values: values + [.integer(id)])
        report.updated += 1
    }
}
