import SQLiteStore
import TestSupport
import Testing

/// A bulk insert against the triggers it suspends: the same rows inserted row by row, with every
/// trigger firing, leave exactly the same derived rows (log entries, section counts, a structure of
/// the caller's) and the same schema.
/// SQLite-only: SQLite's bulk insert (PostgreSQL's COPY: EntitiesTests' CopyImportTests).
struct BulkInsertTests {
    /// A table with the change log, counts by `grp` and by an expression, and a title index of its own
    /// kept by an insert trigger (and a delete trigger that a bulk insert leaves in place).
    private func makeQueue(_ directory: TemporaryDirectory, _ name: String) throws -> DatabaseQueue {
        let queue = try DatabaseQueue(path: directory.path(name))
        try queue.write { db in
            try db.execute(sql: """
                CREATE TABLE items(id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE, grp);
                CREATE TABLE items_letters(letter TEXT NOT NULL, id INTEGER NOT NULL, PRIMARY KEY (letter, id)) WITHOUT ROWID;
                CREATE TRIGGER items_letters_insert AFTER INSERT ON items BEGIN
                    INSERT INTO items_letters(letter, id) VALUES (substr(new.name, 1, 1), new.id);
                END;
                CREATE TRIGGER items_letters_delete AFTER DELETE ON items BEGIN
                    DELETE FROM items_letters WHERE id = old.id;
                END;
                INSERT INTO items(name, grp) VALUES ('apple', 'a'), ('Avocado', NULL), ('banana', 2);
                """)
            try ChangeLog.installTracking(forTable: "items", db)
            for section in ["grp", "upper(substr(name, 1, 1))"] {
                try SectionCounts.installCounting(forTable: "items", section: section, in: db)
            }
        }
        return queue
    }

    private let letters = DerivedStructure(insertTriggers: ["items_letters_insert"]) { rowsAfter in
        "INSERT INTO items_letters(letter, id) SELECT substr(name, 1, 1), id FROM items WHERE id > \(rowsAfter) ORDER BY 1, 2;"
    }

    /// The writes of a load: new rows, a row given an id in a gap, updates and a delete of rows
    /// inserted just before, an update of an old row.
    private func load(_ db: Database, _ bulk: BulkInsert?) throws {
        let insert = try db.cachedStatement(sql: "INSERT INTO items(name, grp) VALUES (?, ?)")
        for index in 0..<300 {
            try bulk?.willInsert()
            let group: [DatabaseValue] = [.null, .text("a"), .text("b"), .integer(7)]
            try insert.execute(arguments: StatementArguments(values: [.text("item \(index)"), group[index % 4]]))
            if index == 100 {
                try bulk?.willChange(rowID: 50)
                try db.execute(sql: "UPDATE items SET grp = 'moved', name = 'zz moved' WHERE id = 50")
                try bulk?.willChange(rowID: 60)
                try db.execute(sql: "DELETE FROM items WHERE id = 60")
            }
            if index == 200 {
                try bulk?.willInsert(rowID: 60)
                try db.execute(sql: "INSERT INTO items(id, name, grp) VALUES (60, 'back at 60', 'c')")
                try bulk?.willChange(rowID: 2)
                try db.execute(sql: "UPDATE items SET grp = 'b' WHERE id = 2")
            }
        }
    }

    /// Everything derived: log entries (without their positions), counts, letters, and the schema.
    private func derived(_ queue: DatabaseQueue) throws -> [String] {
        try queue.read { db in
            try db.fetchAll(sql: "SELECT table_name, row_id, kind FROM store_changes ORDER BY table_name, row_id, seq") {
                "log \(try $0.decode(String.self, at: 0)) \($0.databaseValue(at: 1)) \($0.databaseValue(at: 2))"
            } + db.fetchAll(sql: "SELECT section, key, count FROM store_section_counts ORDER BY section, key") {
                "count \(try $0.decode(String.self, at: 0)) \($0.databaseValue(at: 1)) \($0.databaseValue(at: 2))"
            } + db.fetchAll(sql: "SELECT letter, id FROM items_letters ORDER BY letter, id") {
                "letter \($0.databaseValue(at: 0)) \($0.databaseValue(at: 1))"
            } + db.fetchAll(sql: "SELECT type, name, sql FROM sqlite_master ORDER BY type, name") {
                "schema \($0.databaseValue(at: 0)) \($0.databaseValue(at: 1)) \($0.databaseValue(at: 2))"
            }
        }
    }

    @Test(arguments: [0, 40, 1_000], [false, true])
    func aBulkInsertDerivesWhatTheTriggersDerive(triggeredRows: Int, withoutSavepoint: Bool) throws {
        let directory = try TemporaryDirectory()
        let reference = try makeQueue(directory, "reference.sqlite")
        try reference.write { db in try load(db, nil) }
        let bulk = try makeQueue(directory, "bulk.sqlite")
        try bulk.write { db in
            try db.bulkInsert(
                into: "items", maintaining: [letters], triggeredRows: triggeredRows, withoutSavepoint: withoutSavepoint
            ) { bulk in try load(db, bulk) }
        }
        let expected = try derived(reference)
        #expect(expected.contains("log items 300 1"))
        #expect(try derived(bulk) == expected)
    }

    /// With or without a savepoint of its own: without one, the transaction of `write` is rolled back.
    @Test(arguments: [false, true])
    func aFailedBulkInsertLeavesTheTableAndItsTriggersAsTheyWere(withoutSavepoint: Bool) throws {
        struct Stop: Error {}
        let directory = try TemporaryDirectory()
        let queue = try makeQueue(directory, "bulk.sqlite")
        let before = try derived(queue)
        #expect(throws: Stop.self) {
            try queue.write { db in
                try db.bulkInsert(into: "items", maintaining: [letters], triggeredRows: 0, withoutSavepoint: withoutSavepoint) { bulk in
                    try load(db, bulk)
                    #expect(bulk.isSuspended)
                    throw Stop()
                }
            }
        }
        #expect(try derived(queue) == before)
        #expect(try queue.read { db in try db.scalar(Int.self, sql: "SELECT count(*) FROM items") } == 3)
    }

    /// Two bulk inserts nested in one transaction without savepoints, as `seed` runs them: both
    /// tables' rows and derived rows are there after the commit, and a failure in the inner one
    /// leaves neither table changed once the transaction is rolled back.
    @Test func nestedBulkInsertsWithoutSavepointsCommitOrRollBackTogether() throws {
        struct Stop: Error {}
        let directory = try TemporaryDirectory()
        let reference = try makeQueue(directory, "reference.sqlite")
        try reference.write { db in
            try load(db, nil)
            try db.execute(sql: "CREATE TABLE notes(id INTEGER PRIMARY KEY, body TEXT NOT NULL)")
            try ChangeLog.installTracking(forTable: "notes", db)
            try db.execute(sql: "INSERT INTO notes(body) VALUES ('one'), ('two')")
        }
        let queue = try makeQueue(directory, "bulk.sqlite")
        try queue.write { db in
            try db.execute(sql: "CREATE TABLE notes(id INTEGER PRIMARY KEY, body TEXT NOT NULL)")
            try ChangeLog.installTracking(forTable: "notes", db)
        }
        let before = try derived(queue)
        func loadBoth(failing: Bool) throws {
            try queue.write { db in
                try db.bulkInsert(into: "items", maintaining: [letters], triggeredRows: 0, withoutSavepoint: true) { items in
                    try db.bulkInsert(into: "notes", triggeredRows: 0, withoutSavepoint: true) { notes in
                        try load(db, items)
                        for body in ["one", "two"] {
                            try notes.willInsert()
                            try db.execute(sql: "INSERT INTO notes(body) VALUES (?)", arguments: [body])
                        }
                        if failing { throw Stop() }
                    }
                }
            }
        }
        #expect(throws: Stop.self) { try loadBoth(failing: true) }
        #expect(try derived(queue) == before)
        try loadBoth(failing: false)
        #expect(try derived(queue) == derived(reference))
    }

    /// The page cache while rows are inserted: ``BulkInsert/pageCacheBytes`` into an empty table,
    /// ``BulkInsert/appendingCacheBytes`` into one with rows (whose other indexes take the rows at
    /// random places); the connection's own afterwards.
    @Test func aBulkInsertRaisesThePageCacheMoreIntoATableWithRows() throws {
        let directory = try TemporaryDirectory()
        let queue = try DatabaseQueue(path: directory.path())
        let cacheKiB = { (db: Database) in try db.scalar(Int.self, sql: "PRAGMA cache_size") ?? 0 }
        let own = try queue.write { db in
            try db.execute(sql: "CREATE TABLE items(id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE)")
            return try cacheKiB(db)
        }
        for table in ["empty", "with rows"] {
            try queue.write { db in
                try db.bulkInsert(into: "items") { bulk in
                    let raised = table == "empty" ? BulkInsert.pageCacheBytes : BulkInsert.appendingCacheBytes
                    #expect(try cacheKiB(db) == -raised / 1024, "\(table)")
                    try bulk.willInsert()
                    try db.execute(sql: "INSERT INTO items(name) VALUES (?)", arguments: ["item \(table)"])
                }
                #expect(try cacheKiB(db) == own)
            }
        }
    }

    /// Into an empty table, the plain indexes are dropped at the suspension and created again after
    /// the rows (the same SQL, a sound index); the unique ones stay. A failed load gives them back.
    @Test func aBulkInsertIntoAnEmptyTableBuildsItsPlainIndexesAfterTheRows() throws {
        struct Stop: Error {}
        let directory = try TemporaryDirectory()
        let queue = try DatabaseQueue(path: directory.path())
        let indexes = "SELECT name, sql FROM sqlite_master WHERE type = 'index' AND tbl_name = 'items' ORDER BY name"
        let schema = { (db: Database) in try db.fetchAll(sql: indexes) { "\($0.databaseValue(at: 0)) \($0.databaseValue(at: 1))" } }
        let before = try queue.write { db in
            try db.execute(sql: """
                CREATE TABLE items(id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE, grp);
                CREATE INDEX items_by_grp ON items(grp, name);
                CREATE INDEX items_by_name_length ON items(length(name)) WHERE grp IS NOT NULL;
                CREATE UNIQUE INDEX items_by_upper_name ON items(upper(name));
                """)
            try ChangeLog.installTracking(forTable: "items", db)
            return try schema(db)
        }
        func load(_ db: Database, _ bulk: BulkInsert, during: ([String]) throws -> Void) throws {
            let insert = try db.cachedStatement(sql: "INSERT INTO items(name, grp) VALUES (?, ?)")
            for index in 0..<500 {
                try bulk.willInsert()
                try insert.execute(arguments: ["item \(index)", index % 3 == 0 ? nil : "g\(index % 7)"])
            }
            try during(try schema(db))
        }
        #expect(throws: Stop.self) {
            try queue.write { db in
                try db.bulkInsert(into: "items", triggeredRows: 0) { bulk in
                    try load(db, bulk) { _ in throw Stop() }
                }
            }
        }
        #expect(try queue.read(schema) == before)
        try queue.write { db in
            try db.bulkInsert(into: "items", triggeredRows: 0) { bulk in
                try load(db, bulk) { during in
                    #expect(during == before.filter { !$0.hasPrefix("\"items_by_grp\"") && !$0.hasPrefix("\"items_by_name_length\"") })
                }
            }
        }
        #expect(try queue.read(schema) == before)
        let (check, inGroup, logged) = try queue.read { db in
            (
                try db.scalar(String.self, sql: "PRAGMA integrity_check"),
                try db.scalar(Int.self, sql: "SELECT count(*) FROM items INDEXED BY items_by_grp WHERE grp = 'g1'"),
                try db.scalar(Int.self, sql: "SELECT count(*) FROM store_changes")
            )
        }
        #expect(check == "ok")
        #expect(inGroup == 48)
        #expect(logged == 500)
        // Into a table that holds rows, the indexes stay.
        try queue.write { db in
            try db.bulkInsert(into: "items", triggeredRows: 0) { bulk in
                try bulk.willInsert()
                try db.execute(sql: "INSERT INTO items(name, grp) VALUES ('one more', 'g1')")
                #expect(bulk.isSuspended)
                #expect(try schema(db) == before)
            }
        }
    }
}
