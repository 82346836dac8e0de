@testable import SQLiteStore
import Foundation
import TestSupport
import Testing

/// Rows inserted in the order of their keys (`BulkInsert.insertInKeyOrder(_:keyAt:sql:)`) against
/// the same rows inserted as they come by a plain INSERT, SQLite choosing each rowid: the same rows
/// under the same rowids, the same derived rows, whatever the queue's size.
/// SQLite-only: SQLite's B-tree pages.
struct KeyOrderedInsertTests {
    /// A table keyed by a unique column of any type, with the change log and a title index of its own
    /// kept by an insert trigger, holding three rows.
    private func makeQueue(_ directory: TemporaryDirectory, _ name: String, autoincrement: Bool = false) throws -> DatabaseQueue {
        let queue = try DatabaseQueue(path: directory.path(name))
        try queue.write { db in
            try db.execute(sql: """
                CREATE TABLE items(id INTEGER PRIMARY KEY\(autoincrement ? " AUTOINCREMENT" : ""), key UNIQUE, grp);
                CREATE INDEX items_by_grp ON items(grp, key);
                CREATE TABLE items_keys(key, id INTEGER NOT NULL);
                CREATE TRIGGER items_keys_insert AFTER INSERT ON items BEGIN
                    INSERT INTO items_keys(key, id) VALUES (new.key, new.id);
                END;
                INSERT INTO items(key, grp) VALUES ('apple', 'a'), ('Avocado', NULL), ('banana', 2);
                """)
            try ChangeLog.installTracking(forTable: "items", db)
        }
        return queue
    }

    private let keys = DerivedStructure(insertTriggers: ["items_keys_insert"]) { rowsAfter in
        "INSERT INTO items_keys(key, id) SELECT key, id FROM items WHERE id > \(rowsAfter) ORDER BY id;"
    }

    /// Distinct keys of every storage class, in no order: texts in several scripts, numbers, blobs.
    private static let keyValues: [DatabaseValue] = (0..<400).map { index in
        switch index % 5 {
        case 0: .text("name \((index * 7_919) % 400) é 東京")
        case 1: .integer(Int64((index * 7_919) % 4_001) - 2_000)
        case 2: .real(Double((index * 31) % 997) + 0.5)
        case 3: .text(index % 2 == 0 ? "Zoë \(index)" : "ápple \(400 - index)")
        default: .blob(Data([UInt8(index % 256), UInt8(index / 256), 0, 7]))
        }
    }

    /// Everything in the database: the rows with their rowids, derived rows, log entries, the schema.
    private func contents(_ queue: DatabaseQueue) throws -> [String] {
        try queue.read { db in
            try db.fetchAll(sql: "SELECT id, key, grp FROM items ORDER BY id") {
                "item \($0.databaseValue(at: 0)) \($0.databaseValue(at: 1)) \($0.databaseValue(at: 2))"
            } + db.fetchAll(sql: "SELECT key, id FROM items_keys ORDER BY id") {
                "key \($0.databaseValue(at: 0)) \($0.databaseValue(at: 1))"
            } + db.fetchAll(sql: "SELECT table_name, row_id, kind FROM store_changes ORDER BY table_name, row_id, seq") {
                "log \($0.databaseValue(at: 0)) \($0.databaseValue(at: 1)) \($0.databaseValue(at: 2))"
            } + db.fetchAll(sql: "SELECT type, name, sql FROM sqlite_master ORDER BY type, name") {
                "schema \($0.databaseValue(at: 0)) \($0.databaseValue(at: 1)) \($0.databaseValue(at: 2))"
            } + [try db.scalar(String.self, sql: "PRAGMA integrity_check") ?? ""]
        }
    }

    /// The load: the keys with a group each; now and then a read of a queued key, an update of a row
    /// inserted just before (which may be queued), a row given its own id.
    private func load(_ db: Database, _ bulk: BulkInsert?) throws -> [Int64] {
        var rowIDs: [Int64] = []
        for (index, key) in Self.keyValues.enumerated() {
            let group: DatabaseValue = index % 3 == 0 ? .null : .text("g\(index % 4)")
            if let bulk {
                rowIDs.append(try bulk.insertInKeyOrder([key, group], keyAt: 0, sql: "INSERT INTO items(id, key, grp) VALUES (?, ?, ?)"))
                #expect(!bulk.isSuspended || bulk.isQueued(key: key) || bulk.queueBytes < 100)
            } else {
                try db.execute(sql: "INSERT INTO items(key, grp) VALUES (?, ?)", arguments: [key, group])
                rowIDs.append(db.lastInsertedRowID)
            }
            if index % 97 == 50 {
                let id = rowIDs[index - 1]
                try bulk?.willChange(rowID: id)
                try db.execute(sql: "UPDATE items SET grp = 'changed' WHERE id = ?", arguments: [id])
            }
            if index == 200 {
                try bulk?.willInsert(rowID: 10_000)
                try db.execute(sql: "INSERT INTO items(id, key, grp) VALUES (10000, 'own id', 'x')")
            }
        }
        return rowIDs
    }

    @Test(arguments: [(0, BulkInsert.keyOrderedBytes), (40, BulkInsert.keyOrderedBytes), (0, 64), (1_000, BulkInsert.keyOrderedBytes)])
    func rowsInsertedInKeyOrderAreTheRowsInsertedAsTheyCame(triggeredRows: Int, queueBytes: Int) throws {
        let directory = try TemporaryDirectory()
        let reference = try makeQueue(directory, "reference.sqlite")
        let expectedIDs = try reference.write { db in try load(db, nil) }
        let ordered = try makeQueue(directory, "ordered.sqlite")
        let rowIDs = try ordered.write { db in
            try db.bulkInsert(into: "items", maintaining: [keys], triggeredRows: triggeredRows) { bulk in
                bulk.queueBytes = queueBytes
                return try load(db, bulk)
            }
        }
        #expect(rowIDs == expectedIDs)
        let expected = try contents(reference)
        #expect(expected.contains { $0.hasPrefix("item 10000 ") })
        #expect(try contents(ordered) == expected)
    }

    /// Rows given to `insertInKeyOrder` wait in the queue until the triggers are suspended: a load of
    /// more than `triggeredRows` rows puts none of them through the triggers, one of at most that many
    /// puts all of them, in the order they came (the change log's order).
    @Test(arguments: [(30, 40), (40, 40), (41, 40), (1, 0)])
    func theFirstRowsGoThroughTheTriggersOnlyWhenTheLoadEndsWithinThem(rows: Int, triggeredRows: Int) throws {
        let directory = try TemporaryDirectory()
        let queue = try makeQueue(directory, "items.sqlite")
        try queue.write { db in
            try db.execute(sql: """
                CREATE TABLE items_how(id INTEGER PRIMARY KEY, how TEXT NOT NULL);
                CREATE TRIGGER items_how_insert AFTER INSERT ON items BEGIN
                    INSERT INTO items_how(id, how) VALUES (new.id, 'trigger');
                END;
                """)
            let how = DerivedStructure(insertTriggers: ["items_how_insert"]) { rowsAfter in
                "INSERT INTO items_how(id, how) SELECT id, 'build' FROM items WHERE id > \(rowsAfter);"
            }
            try db.bulkInsert(into: "items", maintaining: [keys, how], triggeredRows: triggeredRows) { bulk in
                for key in Self.keyValues.prefix(rows) {
                    try bulk.insertInKeyOrder([key, .null], keyAt: 0, sql: "INSERT INTO items(id, key, grp) VALUES (?, ?, ?)")
                }
            }
        }
        try queue.read { db in
            let hows = try db.fetchAll(sql: "SELECT how FROM items_how ORDER BY id") { try $0.decode(String.self, at: 0) }
            #expect(hows == Array(repeating: rows > triggeredRows ? "build" : "trigger", count: rows))
            let logged = try db.fetchAll(sql: "SELECT row_id FROM store_changes WHERE table_name = 'items' ORDER BY seq") {
                try $0.decode(Int64.self, at: 0)
            }
            #expect(logged == Array(4...Int64(3 + rows)))
        }
    }

    @Test func anAutoincrementTableGivesRowidsAboveTheHighestItEverHad() throws {
        let directory = try TemporaryDirectory()
        var results: [[String]] = []
        for bulkInsert in [false, true] {
            let queue = try makeQueue(directory, "items-\(bulkInsert).sqlite", autoincrement: true)
            try queue.write { db in
                try db.execute(sql: "INSERT INTO items(id, key) VALUES (50, 'top'); DELETE FROM items WHERE id = 50")
                if bulkInsert {
                    try db.bulkInsert(into: "items", maintaining: [keys], triggeredRows: 0) { bulk in
                        for key in Self.keyValues.prefix(30) {
                            try bulk.insertInKeyOrder([key, .null], keyAt: 0, sql: "INSERT INTO items(id, key, grp) VALUES (?, ?, ?)")
                        }
                    }
                } else {
                    for key in Self.keyValues.prefix(30) { try db.execute(sql: "INSERT INTO items(key) VALUES (?)", arguments: [key]) }
                }
            }
            results.append(try contents(queue))
        }
        #expect(results[0].contains { $0.hasPrefix("item 51 ") })
        #expect(results[1] == results[0])
    }

    @Test func aQueuedRowThatBreaksAConstraintFailsTheBulkInsertAndLeavesNothing() throws {
        let directory = try TemporaryDirectory()
        let queue = try makeQueue(directory, "items.sqlite")
        let before = try contents(queue)
        #expect(throws: DatabaseError.self) {
            try queue.write { db in
                try db.bulkInsert(into: "items", maintaining: [keys], triggeredRows: 0) { bulk in
                    try bulk.insertInKeyOrder([.text("fresh"), .null], keyAt: 0, sql: "INSERT INTO items(id, key, grp) VALUES (?, ?, ?)")
                    // Stored already: the caller did not check.
                    try bulk.insertInKeyOrder([.text("apple"), .null], keyAt: 0, sql: "INSERT INTO items(id, key, grp) VALUES (?, ?, ?)")
                }
            }
        }
        #expect(try contents(queue) == before)
    }

    /// Into an empty table, queued rows go in with the `CHECK` constraints skipped and are verified
    /// after: a row that breaks one fails the bulk insert, wherever it stands in the queue, naming
    /// the constraint and the row, and the checks apply again to every insert after it (the same
    /// cached statement, prepared again).
    @Test(arguments: [0, 7, 199])
    func aQueuedRowThatBreaksACheckFailsABulkInsertIntoAnEmptyTable(breaking: Int) throws {
        let directory = try TemporaryDirectory()
        let queue = try DatabaseQueue(path: directory.path("checked.sqlite"))
        try queue.write { db in
            try db.execute(sql: """
                CREATE TABLE items(id INTEGER PRIMARY KEY, key TEXT NOT NULL UNIQUE, kind TEXT NOT NULL CHECK (kind IN ('a', 'b', 'c')));
                CREATE INDEX items_by_kind ON items(kind, key);
                """)
            try ChangeLog.installTracking(forTable: "items", db)
        }
        let insert = "INSERT INTO items(id, key, kind) VALUES (?, ?, ?)"
        func load(breakingAt broken: Int?) throws {
            try queue.write { db in
                try db.bulkInsert(into: "items", triggeredRows: 0) { bulk in
                    for index in 0..<200 {
                        let kind = index == broken ? "z" : ["a", "b", "c"][index % 3]
                        try bulk.insertInKeyOrder([.text("key \((index * 37) % 200)"), .text(kind)], keyAt: 0, sql: insert)
                    }
                }
            }
        }
        #expect {
            try load(breakingAt: breaking)
        } throws: { error in
            (error as? DatabaseError)?.resultCode == .SQLITE_CONSTRAINT_CHECK
                && (error as? DatabaseError)?.message
                    == "CHECK constraint failed: kind IN ('a', 'b', 'c') (the row of items with rowid \(breaking + 1))"
        }
        #expect(try queue.read { db in try db.scalar(Int.self, sql: "SELECT count(*) FROM items") } == 0)
        try load(breakingAt: nil)
        let (kept, check) = try queue.read { db in
            (
                try db.scalar(Int.self, sql: "SELECT count(*) FROM items WHERE kind IN ('a', 'b', 'c')"),
                try db.scalar(String.self, sql: "PRAGMA integrity_check")
            )
        }
        #expect(kept == 200)
        #expect(check == "ok")
        #expect(throws: DatabaseError.self) {
            try queue.write { db in try db.cachedStatement(sql: insert).execute(arguments: StatementArguments(values: [.null, .text("one more"), .text("z")])) }
        }
    }

    /// The constraint a bulk insert's verification names is the one SQLite names when it inserts
    /// the same row into the same table itself (the first the row breaks, by its `CONSTRAINT` name
    /// or its text), whatever the `CREATE TABLE` holds around it.
    @Test(arguments: [
        "n INTEGER CHECK (n < 100), kind TEXT CHECK (kind IN ('a', 'b'))",
        "n INTEGER, kind TEXT, CONSTRAINT \"kind is\"\"known\" CHECK (kind <> 'z') CHECK (n >= 0)",
        "n INTEGER CONSTRAINT small NOT NULL CHECK (n < 100), kind TEXT /* CHECK (kind = 'x') */ CHECK ( kind <> ')' -- no parenthesis\n )",
        "n INTEGER, kind TEXT, CHECK (n < 100 AND length(kind) = 1), CONSTRAINT [odd name] CHECK(kind NOT IN ('(', 'z'))",
    ])
    func aVerifiedCheckIsNamedAsSQLiteNamesIt(columns: String) throws {
        let directory = try TemporaryDirectory()
        let queue = try DatabaseQueue(path: directory.path("checked.sqlite"))
        let insert = "INSERT INTO items(id, key, n, kind) VALUES (?, ?, ?, ?)"
        for broken: [DatabaseValue] in [[.integer(150), .text("a")], [.integer(5), .text("z")], [.integer(-1), .text(")")]] {
            // SQLite's own message for the row, inserted into the table.
            let expected: String? = try queue.write { db in
                try db.execute(sql: "DROP TABLE IF EXISTS items; CREATE TABLE items(id INTEGER PRIMARY KEY, key TEXT NOT NULL UNIQUE, \(columns))")
                do {
                    try db.execute(sql: insert, arguments: StatementArguments(values: [.null, .text("k")] + broken))
                    try db.execute(sql: "DELETE FROM items")
                    return nil
                } catch let error as DatabaseError {
                    return error.message
                }
            }
            let found: String? = try queue.write { db in
                do {
                    try db.bulkInsert(into: "items", triggeredRows: 0) { bulk in
                        for index in 0..<50 {
                            let values: [DatabaseValue] = index == 30 ? broken : [.integer(Int64(index)), .text("a")]
                            try bulk.insertInKeyOrder([.text("key \((index * 7) % 50)")] + values, keyAt: 0, sql: insert)
                        }
                    }
                    return nil
                } catch let error as DatabaseError {
                    #expect(error.resultCode == .SQLITE_CONSTRAINT_CHECK)
                    return error.message
                }
            }
            #expect(found == expected.map { "\($0) (the row of items with rowid 31)" }, "\(broken)")
        }
    }
}
