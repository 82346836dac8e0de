import PostgreSQLSearch
import SQLiteStore

/// Stores imported records of one entity on any engine's connection (a `PostgreSQLCluster`'s, say),
/// with the engine's bulk load: new rows are gathered and added with one
/// `SQLConnection.copy(into:columns:nextRow:)` (PostgreSQL's `COPY`), the way ``EntityImporter`` does on
/// SQLite, with the same rows, updates and skips as one `INSERT` or `UPDATE` a record gives, and ids
/// in the order of the records but for the few a bulk load holds back (``insertPending()``).
///
/// A record with an id keeps it (the rows gathered so far are added first, then the row with that
/// id is replaced, or the record is added with it). A record without one is added unless its unique
/// key is taken by a stored or gathered record; then it updates that record or is skipped, as
/// `conflicts` says. The gathered rows are held in memory until ``insertPending()``; the rows of a
/// bulk load into an empty table are not gathered but stream into it as they come: an importer
/// dropped before ``insertPending()`` abandons that load (``abandon()``), so that no thread is left
/// waiting for rows.
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
    /// The references to another table's ids (a foreign key): the attribute, its place among the
    /// stored values, and the parent's table.
    private let references: [StoredReference]
    /// Where each gathered row's record is in its source, while the entity has references: a row
    /// whose parent is missing fails the whole `COPY` without saying which (``locatingRefusal(_:)``).
    private var gatheredPlaces: [EntitySource.Place?] = []
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
        // A row of this table that another gathered row refers to is not stored before the `COPY`.
        references = declaration.storedReferences
        mayHoldKeys = try !Entity.isEmpty(db)
    }

    deinit { abandon() }

    /// Stores one record (checked already), read from `source` (nil: given directly).
    ///
    /// - Throws: ``DuplicateKey`` for a record that keeps its id and has another row's key; the
    ///   engine's error; ``EntityFileError`` naming the record of `source` whose reference names no
    ///   stored row, when the rows gathered so far are added.
    public func add(_ record: Entity, from source: EntitySource? = nil) throws {
        let values = Entity.declaration.storedValues(of: record)
        if let id = record.id {
            try addGathered()
            mayHoldKeys = true
            try put(values, id: id)
            return
        }
        if references.isEmpty, bulkLoad == nil, gathered.isEmpty, try mayLoadInBulk() { try startBulkLoad() }
        if let bulkLoad {
            if let key, !bulkLoad.keys.insert(values[key.index]) {
                bulkLoad.heldBack.append(values)
                return
            }
            try bulkLoad.pipe.send(values)
            report.inserted += 1
        } else {
            try addNew(values, place: references.isEmpty ? nil : source?.place)
        }
    }

    /// Stores the values of a record without an id, read at `place` in its source: gathered, unless
    /// its key is taken.
    private func addNew(_ values: [DatabaseValue], place: EntitySource.Place?) throws {
        guard let key else {
            gather(values, place)
            return
        }
        let value = values[key.index]
        if let row = gatheredKeys[value] {
            guard conflicts == .update else { report.skipped += 1; return }
            gathered[row] = values
            if !references.isEmpty { gatheredPlaces[row] = place }
            report.updated += 1
        } else if mayHoldKeys, let id = try storedID(key: value, key.column) {
            guard conflicts == .update else { report.skipped += 1; return }
            try replace(values, id: id)
        } else {
            gatheredKeys[value] = gathered.count
            gather(values, place)
        }
    }

    /// Holds a new row back, to be added with the others.
    private func gather(_ values: [DatabaseValue], _ place: EntitySource.Place?) {
        gathered.append(values)
        if !references.isEmpty { gatheredPlaces.append(place) }
        report.inserted += 1
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
    /// (`PostgreSQLChangeLogSchema.loggingEveryRowSQL`), and so are the section counts' triggers, the
    /// rows counted after it in one statement per counted section (`SectionCounts.bulkLoadSQL`); a
    /// searchable entity's search structures are filled by
    /// `PostgreSQLTextSearch.load(_:columns:_:meanwhile:)`, which counts its substrings while the
    /// indexes are built. A record whose key's hash a streamed row has is held back and stored by its
    /// key after the load: an update or skip of that row, or, when only the hash is the same (some 116
    /// of a million keys, `KeyHashes`), a new row whose id comes after the streamed rows' ids. The same
    /// rows and entries as one `INSERT` or `UPDATE` a record gives (W1b on PostgreSQL); other
    /// sessions' reads and writes of the table wait until the transaction ends (dropping an index
    /// locks the table). The rows of an entity
    /// with references to another table are gathered and loaded at the end, in bulk as well (a record
    /// whose reference is refused is named by its place in its source); elsewhere the rows are
    /// gathered and added by one `SQLConnection.copy(into:columns:nextRow:)`.
    public func insertPending() throws {
        try addGathered()
        try catchUpIDs()
    }

    /// Aborts a bulk load that is running (its `COPY` ended with an error, no index built) and waits
    /// for its thread to end, the caller's transaction left to its rollback: after the import failed.
    /// Any number of times; an importer abandons when it is dropped.
    public func abandon() {
        bulkLoad?.pipe.abandon()
        bulkLoad = nil
    }

    /// Adds the gathered rows (after the bulk load, if one runs), numbered after the ids kept so far.
    private func addGathered() throws {
        try finishBulkLoad()
        guard !gathered.isEmpty else { return }
        try catchUpIDs()
        let bulk = try mayLoadInBulk()
        try locatingRefusal {
            if bulk {
                try suspendLogging()
                var rows = gathered.makeIterator()
                try Self.load({ rows.next() }, db)
                try logEveryRow()
            } else {
                try db.copy(into: Entity.tableName, columns: Entity.declaration.storedColumns, rows: gathered)
            }
        }
        gathered.removeAll()
        gatheredKeys.removeAll()
        gatheredPlaces.removeAll()
    }

    /// Runs `load`, which adds the gathered rows. PostgreSQL checks their references at the end of
    /// the `COPY` and refuses it whole, naming a key but no row: when it fails, the load is rolled
    /// back to a savepoint and the first gathered row whose parent is not stored is found, and
    /// thrown as an ``EntityFileError`` naming its record's place in its source, as SQLite's insert
    /// of that record would be refused. Any other failure is thrown as it is.
    private func locatingRefusal(_ load: () throws -> Void) throws {
        guard db.dialect == .postgreSQL, gatheredPlaces.contains(where: { $0 != nil }) else { return try load() }
        let inTransaction = db.isInsideTransaction
        if inTransaction { try db.execute(sql: "SAVEPOINT gathered_rows", values: []) }
        do {
            try load()
        } catch {
            if inTransaction { try db.execute(sql: "ROLLBACK TO SAVEPOINT gathered_rows", values: []) }
            let parentIDs = gathered.map { row in references.map { row[$0.index] } }
            guard let missing = try firstMissingParent(of: parentIDs, references: references, db),
                  let place = gatheredPlaces[missing.row]
            else { throw error }
            throw EntityFileError(missingParentOf: missing.reference, id: missing.id, at: place)
        }
        if inTransaction { try db.execute(sql: "RELEASE SAVEPOINT gathered_rows", values: []) }
    }

    /// Whether new records may be added by a bulk load, as ``insertPending()`` says.
    private func mayLoadInBulk() throws -> Bool {
        try db.dialect == .postgreSQL && db.isInsideTransaction && !mayHoldKeys && Entity.isEmpty(db)
            && db.fetchRows(sql: PostgreSQLChangeLogSchema.ownsTableSQL, values: [.text(Entity.tableName)]).first?.first == .integer(1)
    }

    /// Starts the bulk load of ``insertPending()``: the rows sent to it until ``finishBulkLoad()``.
    private func startBulkLoad() throws {
        try suspendLogging()
        let db = db
        bulkLoad = BulkLoad(RowPipe { rows in
            var rows = rows
            try Self.load({ try rows.next() }, db)
        })
    }

    /// Ends the bulk load, if one runs: waits for it, stores the records held back, and logs every row.
    private func finishBulkLoad() throws {
        guard let bulkLoad else { return }
        self.bulkLoad = nil
        mayHoldKeys = true
        bulkLoad.keys = KeyHashes()  // freed while the load ends: no more rows are sent
        try bulkLoad.pipe.finish()
        for values in bulkLoad.heldBack { try addNew(values, place: nil) }
        try addGathered()
        try logEveryRow()
    }

    /// Loads the rows `nextRow` gives into the empty table, as ``insertPending()`` says: a throw of
    /// `nextRow` aborts the `COPY` and is thrown, before any index is built.
    private static func load(_ nextRow: () throws -> [DatabaseValue]?, _ db: Connection) throws {
        let columns = Entity.declaration.storedColumns
        try PostgreSQLBulkLoad.withIndexesBuiltAfter(table: Entity.tableName, db) { buildIndexes in
            if let search = (Entity.self as? any SearchableEntity.Type)?.searchDescription {
                // The indexes built while the search counts its substrings.
                try PostgreSQLTextSearch(search).load(nextRow, columns: columns, db, meanwhile: buildIndexes)
            } else {
                try db.copy(into: Entity.tableName, columns: columns, nextRow: nextRow)
            }
        }
    }

    /// Disables the change log's trigger and the section counts' triggers during a bulk load
    /// (``logEveryRow()`` logs and counts its rows).
    private func suspendLogging() throws {
        let counting = try SectionCounts.bulkLoadSQL(forTable: Entity.tableName, db).before
        if !counting.isEmpty { try db.execute(sql: counting, values: []) }
        guard Entity.declaration.tracksChanges else { return }
        try db.execute(sql: "ALTER TABLE \(Entity.tableName) DISABLE TRIGGER \(PostgreSQLChangeLogSchema.triggerName(forTable: Entity.tableName))", values: [])
    }

    /// Counts every row's section and logs every row as inserted, one statement each, and enables
    /// the triggers again.
    private func logEveryRow() throws {
        let counting = try SectionCounts.bulkLoadSQL(forTable: Entity.tableName, db).after
        if !counting.isEmpty { try db.execute(sql: counting, values: []) }
        guard Entity.declaration.tracksChanges else { return }
        try db.execute(
            sql: PostgreSQLChangeLogSchema.loggingEveryRowSQL(ofTable: Entity.tableName)
                + "ALTER TABLE \(Entity.tableName) ENABLE TRIGGER \(PostgreSQLChangeLogSchema.triggerName(forTable: Entity.tableName));",
            values: [])
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
        guard case .integer(let id) = try db.fetchRows(sql: "SELECT id FROM \(Entity.tableName) WHERE \(SQLText.identifier(column)) = ?", values: [value]).first?.first
        else { return nil }
        return id
    }

    /// Replaces the stored attributes of the row with this id.
    private func replace(_ values: [DatabaseValue], id: Int64) throws {
        try db.execute(sql: Entity.declaration.updateSQL(), values: values + [.integer(id)])
        report.updated += 1
    }
}
