#if canImport(Glibc)
import Glibc
#endif

/// Rows inserted into one table in bulk: the rows first, with the insert triggers of the structures
/// derived from them dropped, then each structure built in one sorted pass over the new rows and the
/// triggers created again, all in one transaction (``Database/bulkInsert(into:maintaining:triggeredRows:withoutSavepoint:_:)``).
///
/// A structure kept row by row costs a few index lookups per row and per structure (a search index: one
/// per scalar of each text); built in bulk, it is one sorted append. Updates and deletes keep their
/// triggers throughout: ``willChange(rowID:)`` first builds the structures when the row is one of those
/// inserted in bulk, whose derived rows do not exist yet. Inserting a row with a rowid at or below the
/// ones already indexed does the same (``willInsert(rowID:)``).
///
/// Into a table that was empty when the bulk insert began, the first suspension also drops the table's
/// plain indexes (made by `CREATE INDEX`, not `UNIQUE`), and ``resume()`` creates them again from their
/// SQL after the rows: one sort each instead of an insertion per row in random order (W1b).
/// A statement of the load that would use them scans the table meanwhile; unique indexes and
/// constraints stay, as they decide conflicts. Its `CHECK` constraints are skipped while the rows
/// queued in key order go in, and verified after them by one query over the rows inserted since the
/// last verification (`checkConstraints(of:)`): a `CHECK` of an `IN` list opens and closes a table
/// of the list for every row inserted (Ingest, Benchmarks/README.md). The connection's page cache is raised to ``pageCacheBytes`` (into a table
/// that had rows, ``appendingCacheBytes``) while rows are inserted, and lowered to ``buildingCacheBytes`` while the structures are built. Rows given to
/// ``insertInKeyOrder(_:keyAt:sql:)`` wait in memory while the triggers are suspended, and go into
/// the table together in the order of their key.
///
/// The ``ChangeLog`` (an insert entry per row, in rowid order) and `SectionCounts` of the table are
/// always maintained, when installed; other structures are named by the caller. Dropping and creating
/// triggers changes `PRAGMA schema_version`, so every live controller of the file refetches after the
/// commit (``DatabaseChanges/Gap/schemaChanged``), besides reading the log's exact entries.
///
/// Not `Sendable`: it belongs to its connection's transaction.
public final class BulkInsert {
    /// The rows inserted with the triggers before a bulk insert suspends them, by default: 100. Below
    /// it, indexing row by row costs less than the suspension's schema change, which makes every live
    /// controller of the file refetch (the 9 built-in products and 42 phones keep the triggers). Above
    /// it, the triggers cost more as the table grows: each row's statement opens a statement journal,
    /// at which FTS5 writes its pending terms as a segment of their own and merges segments (W1b,
    /// Benchmarks/README.md). Rows given to
    /// ``insertInKeyOrder(_:keyAt:sql:)`` wait in its queue meanwhile, so that a larger load puts none
    /// of them through the triggers.
    public static let defaultTriggeredRows = 100

    /// The page cache of the connection while a bulk insert inserts its rows, at least: 16 MiB. Into a
    /// table that was empty, its plain indexes wait until after the rows, and the rows queued in key
    /// order (``keyOrderedBytes``) go into its unique index in one pass per batch, so the cache holds
    /// little more than the pages of the batch's rows. With SQLite's default of 2 MB, those pages are
    /// written to the `-wal` and read back as each batch fills them in key order. It leaves room for
    /// the queue within the 64 MB that `catalog seed --count` and `catalog import` are held to.
    /// SQLite takes pages as it needs them: a small load uses little. Into a table that had rows, the
    /// cache is ``appendingCacheBytes``.
    public static let pageCacheBytes = 16 << 20

    /// The page cache of the connection while a bulk insert inserts its rows into a table that had
    /// rows, at least: 32 MiB. The rows go in key order, but their entries still go to random places
    /// of an index on another key (the prices: 4,600 pages of 4 KiB at a million products) and of the
    /// table (rowids in the order rows came); with 16 MiB those pages are written to the `-wal`
    /// and read back again and again (Ingest's 100,000 into 1,000,000 by page cache,
    /// Benchmarks/README.md). No plain index waits for after the rows there, so the builds stay
    /// small and the import's peak within 64 MB.
    public static let appendingCacheBytes = 32 << 20

    /// The page cache of the connection while a bulk insert builds the structures and indexes derived
    /// from its rows, at most: 2 MiB, about SQLite's default. SQLite's sorter keeps as much in memory
    /// as the page cache holds before it spills to a temporary file, so a build with a larger cache
    /// adds to the process's peak (the import memory rows of Benchmarks/README.md). The builds read the rows in
    /// order and write each structure in order, so a small cache costs them little.
    public static let buildingCacheBytes = 2 << 20

    /// The bytes of rows ``insertInKeyOrder(_:keyAt:sql:)`` keeps before inserting them, at most:
    /// 12 MiB, about 140,000 catalog products (about 90 bytes each, with names of about 25), which
    /// take about 16 MiB with their offsets and hashes. 100,000 products added to 1,000,000 are then
    /// inserted in one pass over the indexes ordered by name (W1b, Benchmarks/README.md), and with
    /// the page cache (``pageCacheBytes``) an import of a million products stays within 64 MB.
    public static let keyOrderedBytes = 12 << 20

    /// The table rows are inserted into.
    public let table: String
    private let db: Database
    private let structures: [DerivedStructure]
    private let triggeredRows: Int
    private var insertsSeen = 0
    /// The dropped triggers (name and SQL) while suspended; nil when the triggers are in place.
    private var suspended: [(name: String, sql: String)]?
    /// The structures whose triggers were dropped.
    private var suspendedStructures: [DerivedStructure] = []
    /// While suspended, the highest rowid whose derived rows exist: the rows above it were inserted in bulk.
    private var indexedThrough: Int64 = 0
    /// Whether the first suspension drops the table's plain indexes: the table was empty when the bulk
    /// insert began. False once they were dropped (and while they are).
    private var defersIndexes: Bool
    /// The plain indexes dropped (name and SQL), created again by the next ``resume()``.
    private var deferredIndexes: [(name: String, sql: String)] = []
    /// Whether the rows queued in key order go in with the table's `CHECK` constraints skipped, to
    /// be verified by the next ``resume()``: the table was empty when the bulk insert began.
    private let defersChecks: Bool
    /// The rowids of the rows that went in with the `CHECK` constraints skipped since the last
    /// ``resume()`` (with, between them, rows checked as they went in); nil when there is none.
    private var uncheckedRows: ClosedRange<Int64>?
    /// The connection's `PRAGMA cache_size` values: its own, while rows are inserted (raised to
    /// ``pageCacheBytes``) and while structures are built (lowered to
    /// ``buildingCacheBytes``); nil when its own is at least the raised size.
    private let cacheSizes: (own: Int, inserting: Int, building: Int)?
    /// The rows ``insertInKeyOrder(_:keyAt:sql:)`` queued, not yet in the table.
    private var queued: KeyOrderedRows?
    /// The bytes of queued rows from which the next row inserts the queue first: ``keyOrderedBytes``
    /// (tests lower it).
    var queueBytes = BulkInsert.keyOrderedBytes

    init(
        table: String, structures: [DerivedStructure], triggeredRows: Int, defersIndexes: Bool,
        cacheSizes: (own: Int, inserting: Int, building: Int)?, _ db: Database
    ) {
        self.cacheSizes = cacheSizes
        self.table = table
        self.structures = structures
        self.triggeredRows = triggeredRows
        self.defersIndexes = defersIndexes
        defersChecks = defersIndexes
        self.db = db
    }

    /// Whether the insert triggers are suspended: rows inserted now are only rows until ``resume()``.
    public var isSuspended: Bool { suspended != nil }

    /// Readies the table for inserting one row: suspends the insert triggers once ``defaultTriggeredRows``
    /// (or the count given to ``Database/bulkInsert(into:maintaining:triggeredRows:withoutSavepoint:_:)``) rows were
    /// inserted with them, and resumes them when `rowID` is at or below rows already indexed.
    ///
    /// - Parameter rowID: the row's rowid when the insert gives one; nil when SQLite picks it (above
    ///   every rowid in the table).
    /// - Throws: ``DatabaseError``.
    public func willInsert(rowID: Int64? = nil) throws {
        try insertQueuedRows()
        insertsSeen += 1
        if isSuspended {
            if let rowID, rowID <= indexedThrough { try resume() }
            return
        }
        guard insertsSeen > triggeredRows else { return }
        let highest = try db.scalar(Int64.self, sql: "SELECT max(rowid) FROM \(SQLText.identifier(table))") ?? 0
        if let rowID, rowID <= highest { return }
        try suspend(indexedThrough: highest)
    }

    /// Readies row `rowID` for an update or a delete, which run their triggers: builds the structures
    /// first when the row was inserted in bulk.
    ///
    /// - Throws: ``DatabaseError``.
    public func willChange(rowID: Int64) throws {
        try insertQueuedRows()
        if isSuspended && rowID > indexedThrough { try resume() }
    }

    /// Builds the structures for the rows inserted since the triggers were suspended, and creates the
    /// triggers again, after inserting the queued rows (``insertQueuedRows()``). Nothing else happens
    /// when the triggers are not suspended. The bulk insert does this at its end.
    ///
    /// - Throws: ``DatabaseError``.
    public func resume() throws {
        try insertQueuedRows()
        queued = nil
        if let rows = uncheckedRows {
            try verifyChecks(rows)
            uncheckedRows = nil
        }
        guard let triggers = suspended else { return }
        if let cacheSizes { try db.execute(sql: "PRAGMA cache_size = \(cacheSizes.building)") }
        defer { if let cacheSizes { try? db.execute(sql: "PRAGMA cache_size = \(cacheSizes.inserting)") } }
        for structure in suspendedStructures {
            Self.giveBackFreedMemory()
            try structure.build(indexedThrough, db)
        }
        for trigger in triggers { try db.execute(sql: trigger.sql) }
        for index in deferredIndexes {
            Self.giveBackFreedMemory()
            try db.execute(sql: index.sql)
        }
        suspended = nil
        suspendedStructures = []
        deferredIndexes = []
    }

    /// Gives the memory freed since (the queue, the pages of a lowered cache, a build's counts) back
    /// to the system, before the next build allocates its own: glibc keeps freed memory, and the
    /// builds' allocations would otherwise land beside it rather than in it, raising the process's
    /// peak (the memory rows of Ingest, Benchmarks/README.md).
    private static func giveBackFreedMemory() {
        #if canImport(Glibc)
        // `malloc_trim` is glibc's own (malloc.h), which the Glibc module does not export.
        typealias MallocTrim = @convention(c) (Int) -> Int32
        guard let trim = dlsym(nil, "malloc_trim") else { return }
        _ = unsafeBitCast(trim, to: MallocTrim.self)(0)
        #endif
    }

    /// Queues a row under the rowid SQLite would give it (one above every rowid of the table and of
    /// the rows queued before it). Queued rows are inserted together when the queue holds
    /// ``keyOrderedBytes``, before any other write the bulk insert is told of (``willInsert(rowID:)``,
    /// ``willChange(rowID:)``), at ``resume()``, or by ``insertQueuedRows()``: in the order of their
    /// keys once the triggers are suspended, and in the order they came, through the triggers, before.
    /// The row after the first ``defaultTriggeredRows`` (or the count given to
    /// ``Database/bulkInsert(into:maintaining:triggeredRows:withoutSavepoint:_:)``) suspends the triggers, so the rows
    /// queued before it go in with the others: only a load that ends within that count puts its rows
    /// through the triggers (W1b).
    ///
    /// Rows that come in random order of a unique key (names read from a file) each go to a random
    /// place of that key's index, and of every index that starts with a column ordered like it; once
    /// those indexes outgrow the page cache, each insert reads pages back and writes others out.
    /// Inserted in key order, the rows go through each such index once (W1b).
    ///
    /// ```swift
    /// let insert = "INSERT INTO films(id, title, title_folded) VALUES (?, ?, ?)"
    /// for title in titles where !bulk.isQueued(key: .text(title)) {  // and not in the table yet
    ///     try bulk.insertInKeyOrder([.text(title), .text(TextFolding.fold(title))], keyAt: 0, sql: insert)
    /// }
    /// ```
    ///
    /// A queued row is not in the table until it is inserted: the caller makes sure that it breaks no
    /// constraint there (its key is neither stored nor ``isQueued(key:)``), and calls
    /// ``insertQueuedRows()`` before reading rows it may be among. A queued row that breaks a
    /// constraint fails when the queue is inserted.
    ///
    /// - Parameters:
    ///   - values: the row's values, bound to the parameters of `sql` after the first.
    ///   - keyIndex: the index of the key in `values`: the column of the table's largest index, or of
    ///     most of them (a unique name that other indexes start with, folded or after a type).
    ///   - sql: an `INSERT` into the table whose first parameter is the rowid.
    /// - Returns: the row's rowid.
    /// - Throws: ``DatabaseError``.
    @discardableResult
    public func insertInKeyOrder(_ values: [DatabaseValue], keyAt keyIndex: Int, sql: String) throws -> Int64 {
        try queue(values, keyAt: keyIndex, sql: sql, storedKeySQL: nil, whenStored: nil)
    }

    /// Queues a row as ``insertInKeyOrder(_:keyAt:sql:)`` does, for a caller that has not looked its
    /// key up in the table: when the queue is inserted, its keys are looked up first by
    /// `storedKeySQL`, in the order of the keys; a row whose key the table holds is not inserted but
    /// given to `whenStored` with the rowid of the row that holds it (in the order the rows came,
    /// after the others went in), and the others get their rowids then, one above the previous
    /// inserted row's in the order they came. The lookups read the key's index once, in order, as
    /// the inserts that follow do, rather than at a random place for each row as it comes: into a
    /// table that had rows, where every key needs a lookup (Ingest's 100,000 into 1,000,000,
    /// Benchmarks/README.md).
    ///
    /// ```swift
    /// for title in titles where !bulk.isQueued(key: .text(title)) {
    ///     try bulk.insertInKeyOrder(
    ///         [.text(title), .text(TextFolding.fold(title))], keyAt: 0, sql: insert,
    ///         unlessStoredBy: "SELECT id FROM films WHERE title = ?") { values, id in skipped += 1 }
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - values: the row's values, bound to the parameters of `sql` after the first.
    ///   - keyIndex: the index of the key in `values`, as for ``insertInKeyOrder(_:keyAt:sql:)``.
    ///   - sql: an `INSERT` into the table whose first parameter is the rowid.
    ///   - storedKeySQL: a query whose one parameter is a key and whose first column is the rowid of
    ///     the table's row that holds it.
    ///   - whenStored: what a row whose key the table holds does instead (update that row, count it
    ///     skipped), given its values and that row's rowid; the first one given to a queue serves it.
    /// - Throws: ``DatabaseError``, or what `whenStored` throws.
    public func insertInKeyOrder(
        _ values: [DatabaseValue], keyAt keyIndex: Int, sql: String, unlessStoredBy storedKeySQL: String,
        whenStored: @escaping (_ values: [DatabaseValue], _ rowID: Int64) throws -> Void
    ) throws {
        _ = try queue(values, keyAt: keyIndex, sql: sql, storedKeySQL: storedKeySQL, whenStored: whenStored)
    }

    /// Queues a row for ``insertQueuedRows()``: both kinds of ``insertInKeyOrder(_:keyAt:sql:)``.
    private func queue(
        _ values: [DatabaseValue], keyAt keyIndex: Int, sql: String, storedKeySQL: String?,
        whenStored: ((_ values: [DatabaseValue], _ rowID: Int64) throws -> Void)?
    ) throws -> Int64 {
        insertsSeen += 1
        if !isSuspended && insertsSeen > triggeredRows {
            try suspend(indexedThrough: try db.scalar(Int64.self, sql: "SELECT max(rowid) FROM \(SQLText.identifier(table))") ?? 0)
        }
        if let queued, queued.sql != sql || queued.keyIndex != keyIndex || queued.valueCount != values.count
            || queued.storedKeySQL != storedKeySQL {
            try insertQueuedRows()
        }
        let queue = queued ?? KeyOrderedRows(
            sql: sql, valueCount: values.count, keyIndex: keyIndex, storedKeySQL: storedKeySQL, whenStored: whenStored)
        queued = queue
        if queue.byteCount >= queueBytes { try insertQueuedRows() }
        if queue.count == 0 { queue.start(at: try nextRowID()) }
        if !queue.append(values) {
            // Another queued key has the same hash: the queue goes in first.
            try insertQueuedRows()
            queue.start(at: try nextRowID())
            _ = queue.append(values)
        }
        return queue.nextRowID - 1
    }

    /// Whether a row queued by ``insertInKeyOrder(_:keyAt:sql:)`` has this key (the same type and bytes).
    public func isQueued(key: DatabaseValue) -> Bool {
        queued?.contains(key: key) ?? false
    }

    /// Inserts the rows queued by ``insertInKeyOrder(_:keyAt:sql:)``, in the order of their keys.
    ///
    /// - Throws: ``DatabaseError``.
    public func insertQueuedRows() throws {
        guard let queued, queued.count > 0 else { return }
        // The queue is empty before `whenStored` runs: it may write to the table (an update), which
        // inserts the queue first.
        for row in try insertAll(queued) { try queued.whenStored?(row.values, row.rowID) }
    }

    /// Inserts the queue's rows; into an empty table that `defersChecks`, with the table's `CHECK`
    /// constraints skipped (verified after the load by `verifyChecks(_:)`).
    private func insertAll(_ queued: KeyOrderedRows) throws -> [(values: [DatabaseValue], rowID: Int64)] {
        guard isSuspended && defersChecks else { return try queued.insertAll(db, inKeyOrder: isSuspended) }
        // The pragma changes the code SQLite makes: the insert is prepared again, without the checks.
        try db.execute(sql: "PRAGMA ignore_check_constraints = ON")
        defer { try? db.execute(sql: "PRAGMA ignore_check_constraints = OFF") }
        let rows = queued.firstRowID...(queued.nextRowID - 1)
        uncheckedRows = uncheckedRows.map { min($0.lowerBound, rows.lowerBound)...max($0.upperBound, rows.upperBound) } ?? rows
        return try queued.insertAll(db, inKeyOrder: true)
    }

    /// Verifies the table's `CHECK` constraints on the rows whose rowids are in `rows`, after they
    /// went in with the constraints skipped: one query for the first row that breaks any, then one
    /// per constraint on that row, to name the first it breaks, as SQLite's insert would have.
    ///
    /// - Throws: ``DatabaseError`` `SQLITE_CONSTRAINT_CHECK` naming the constraint (as SQLite does)
    ///   and the row's rowid.
    private func verifyChecks(_ rows: ClosedRange<Int64>) throws {
        let createTable = try db.scalar(
            String.self, sql: "SELECT sql FROM sqlite_master WHERE type = 'table' AND name = ?", arguments: [table]) ?? ""
        let checks = Self.checkConstraints(of: createTable)
        guard !checks.isEmpty else { return }
        let name = SQLText.identifier(table)
        // A newline before each closing parenthesis ends a `--` comment the expression ends with.
        let holds = checks.map { "(\($0.expression)\n)" }.joined(separator: " AND ")
        guard let rowID = try db.scalar(
            Int64.self, sql: "SELECT rowid FROM \(name) WHERE rowid BETWEEN ? AND ? AND NOT (\(holds)) LIMIT 1",
            arguments: [rows.lowerBound, rows.upperBound])
        else { return }
        let broken = try checks.first { check in
            try db.scalar(Bool.self, sql: "SELECT NOT (\(check.expression)\n) FROM \(name) WHERE rowid = ?", arguments: [rowID]) == true
        }
        throw DatabaseError(
            resultCode: .SQLITE_CONSTRAINT_CHECK,
            message: "CHECK constraint failed: \((broken ?? checks[0]).name) (the row of \(table) with rowid \(rowID))")
    }

    /// The rowid SQLite gives a row inserted without one: one above the table's highest, or above the
    /// highest it ever had when it is `AUTOINCREMENT`.
    private func nextRowID() throws -> Int64 {
        let highest = try db.scalar(Int64.self, sql: "SELECT max(rowid) FROM \(SQLText.identifier(table))") ?? 0
        let hasSequence = try db.scalar(Bool.self, sql: "SELECT EXISTS (SELECT 1 FROM sqlite_master WHERE name = 'sqlite_sequence')") ?? false
        let sequence = hasSequence
            ? try db.scalar(Int64.self, sql: "SELECT seq FROM sqlite_sequence WHERE name = ?", arguments: [table]) ?? 0 : 0
        guard max(highest, sequence) < Int64.max else {
            throw DatabaseError(resultCode: .SQLITE_FULL, message: "no rowid left above \(Int64.max) in \(table)")
        }
        return max(highest, sequence) + 1
    }

    /// Drops the insert triggers of the structures that have them all in the database, and the plain
    /// indexes of the table when it was empty before the bulk insert (once).
    private func suspend(indexedThrough highest: Int64) throws {
        if defersIndexes {
            defersIndexes = false
            deferredIndexes = try plainIndexes()
            for index in deferredIndexes { try db.execute(sql: "DROP INDEX \(SQLText.identifier(index.name))") }
        }
        let existing = try db.fetchAll(
            sql: "SELECT name, sql FROM sqlite_master WHERE type = 'trigger' AND tbl_name = ?", arguments: [table]
        ) { row in (name: try row.decode(String.self, at: 0), sql: try row.decode(String.self, at: 1)) }
        let byName = Dictionary(existing.map { ($0.name, $0.sql) }, uniquingKeysWith: { first, _ in first })
        suspendedStructures = structures.filter { structure in structure.insertTriggers.allSatisfy { byName[$0] != nil } }
        let triggers = suspendedStructures.flatMap(\.insertTriggers).map { (name: $0, sql: byName[$0]!) }
        for trigger in triggers { try db.execute(sql: "DROP TRIGGER \(SQLText.identifier(trigger.name))") }
        suspended = triggers
        indexedThrough = highest
    }

    /// The table's indexes made by `CREATE INDEX` that enforce nothing (not `UNIQUE`), with their SQL:
    /// the ones a bulk insert into an empty table builds after the rows, each in one sort.
    private func plainIndexes() throws -> [(name: String, sql: String)] {
        let plain = try db.fetchAll(sql: "SELECT name FROM pragma_index_list(?) WHERE origin = 'c' AND NOT \"unique\"", arguments: [table]) {
            try $0.decode(String.self, at: 0)
        }
        return try plain.sorted().map { name in
            (name: name, sql: try db.scalar(String.self, sql: "SELECT sql FROM sqlite_master WHERE type = 'index' AND name = ?", arguments: [name]) ?? "")
        }.filter { !$0.sql.isEmpty }
    }
}

@available(*, unavailable, message: "a bulk insert belongs to its connection's transaction")
extension BulkInsert: Sendable {}

extension Database {
    /// Inserts rows into `table` in bulk, in one transaction (a savepoint inside one already): `body`
    /// inserts them, calling ``BulkInsert/willInsert(rowID:)`` before each insert and
    /// ``BulkInsert/willChange(rowID:)`` before each update or delete of the table; then the derived
    /// structures are built for the new rows and their triggers created again.
    ///
    /// ```swift
    /// try db.bulkInsert(into: "films", maintaining: [films.bulkInsertStructure]) { bulk in
    ///     let insert = try db.cachedStatement(sql: "INSERT INTO films(title, title_folded) VALUES (?, ?)")
    ///     for title in titles {
    ///         try bulk.willInsert()
    ///         try insert.execute(arguments: [title, TextFolding.fold(title)])
    ///     }
    /// }
    /// ```
    ///
    /// The table's ``ChangeLog`` tracking and `SectionCounts` are maintained without being named.
    /// When `body` throws, everything it did is rolled back, the dropped triggers and indexes with it.
    /// The page cache is raised to ``BulkInsert/pageCacheBytes`` (into a table that had rows,
    /// ``BulkInsert/appendingCacheBytes``) while `body` inserts rows, then set back.
    ///
    /// - Parameters:
    ///   - table: the table rows are inserted into.
    ///   - structures: the other structures derived from its rows (a search index).
    ///   - triggeredRows: the rows inserted with the triggers before they are suspended
    ///     (``BulkInsert/defaultTriggeredRows``); 0 suspends them at the first insert.
    ///   - withoutSavepoint: inside a transaction, run in it without a savepoint of its own (default
    ///     false). A savepoint makes SQLite copy every page the load changes to a temporary file, to
    ///     roll back to: 35,000 pages when 100,000 catalog products were added to 1,000,000 (`seed`,
    ///     with the bulk inserts of both its tables nested in its transaction). Without one, when
    ///     `body` throws, the caller must roll back the whole transaction, which restores the dropped
    ///     triggers and indexes (as a `DatabaseWriter`'s `write` does). Outside a transaction it changes
    ///     nothing: the bulk insert is its own transaction.
    ///   - body: inserts the rows.
    /// - Returns: what `body` returns.
    /// - Throws: what `body` throws, or ``DatabaseError``.
    public func bulkInsert<T>(
        into table: String, maintaining structures: [DerivedStructure] = [],
        triggeredRows: Int = BulkInsert.defaultTriggeredRows, withoutSavepoint: Bool = false,
        _ body: (BulkInsert) throws -> T
    ) throws -> T {
        if withoutSavepoint && isInsideTransaction {
            return try bulkInsertInTransaction(into: table, maintaining: structures, triggeredRows: triggeredRows, body)
        }
        return try inTransaction(.immediate) {
            try bulkInsertInTransaction(into: table, maintaining: structures, triggeredRows: triggeredRows, body)
        }
    }

    /// ``bulkInsert(into:maintaining:triggeredRows:withoutSavepoint:_:)`` in the current transaction.
    private func bulkInsertInTransaction<T>(
        into table: String, maintaining structures: [DerivedStructure], triggeredRows: Int, _ body: (BulkInsert) throws -> T
    ) throws -> T {
        let maintained = try structures + [ChangeLog.insertStructure(forTable: table)]
            + SectionCounts.insertStructures(forTable: table, self)
        let isEmpty = try scalar(Bool.self, sql: "SELECT NOT EXISTS (SELECT 1 FROM \(SQLText.identifier(table)))") ?? true
        let cacheSizes = try bulkInsertCacheSizes(raisedTo: isEmpty ? BulkInsert.pageCacheBytes : BulkInsert.appendingCacheBytes)
        let bulk = BulkInsert(
            table: table, structures: maintained, triggeredRows: triggeredRows, defersIndexes: isEmpty,
            cacheSizes: cacheSizes, self)
        if let cacheSizes { try execute(sql: "PRAGMA cache_size = \(cacheSizes.inserting)") }
        defer { if let cacheSizes { try? execute(sql: "PRAGMA cache_size = \(cacheSizes.own)") } }
        let result = try body(bulk)
        try bulk.resume()
        return result
    }

    /// The connection's `PRAGMA cache_size` values: its own, for a bulk insert's rows (raised to at
    /// least `bytes`) and for its builds (at most ``BulkInsert/buildingCacheBytes``); nil when its own already holds
    /// `bytes`. A positive cache_size counts pages, a negative one KiB.
    private func bulkInsertCacheSizes(raisedTo bytes: Int) throws -> (own: Int, inserting: Int, building: Int)? {
        let own = try scalar(Int.self, sql: "PRAGMA cache_size") ?? 0
        let pageSize = try scalar(Int.self, sql: "PRAGMA page_size") ?? 4096
        let ownBytes = own >= 0 ? own * pageSize : -own * 1024
        guard ownBytes < bytes else { return nil }
        return (
            own: own, inserting: Self.cacheSizeValue(bytes: bytes),
            building: Self.cacheSizeValue(bytes: min(ownBytes, BulkInsert.buildingCacheBytes)))
    }
}
