import SQLiteStore
import TestSupport
import Testing

/// The change log after a bulk insert against the log its triggers write, row by row: the same entries
/// at the same positions, the same horizon and the same next position, whether the bulk insert wrote
/// every entry or only the last ones that pruning keeps.
/// SQLite-only: SQLite's bulk insert.
struct ChangeLogBulkInsertTests {
    /// A tracked table with `existing` rows logged, under a log that keeps `retention` entries, and
    /// `extraLogTrigger` on the log itself when given.
    private func makeQueue(
        _ directory: TemporaryDirectory, _ name: String, retention: Int, existing: Int, extraLogTrigger: String?
    ) throws -> DatabaseQueue {
        let queue = try DatabaseQueue(path: directory.path(name))
        try queue.write { db in
            try db.execute(sql: "CREATE TABLE items(id INTEGER PRIMARY KEY, name TEXT NOT NULL)")
            try ChangeLog.install(retaining: retention, db)
            try ChangeLog.installTracking(forTable: "items", db)
            if let extraLogTrigger { try db.execute(sql: extraLogTrigger) }
            for index in 0..<existing {
                try db.execute(sql: "INSERT INTO items(name) VALUES (?)", arguments: ["old \(index)"])
            }
        }
        return queue
    }

    /// The log, its horizon and its next position, and what the extra trigger counted.
    private func log(_ queue: DatabaseQueue) throws -> [String] {
        try queue.read { db in
            try db.fetchAll(sql: "SELECT seq, table_name, row_id, kind FROM store_changes ORDER BY seq") {
                "entry \($0.databaseValue(at: 0)) \($0.databaseValue(at: 1)) \($0.databaseValue(at: 2)) \($0.databaseValue(at: 3))"
            } + db.fetchAll(sql: "SELECT pruned_through FROM store_changes_horizon") { "horizon \($0.databaseValue(at: 0))" }
                + db.fetchAll(sql: "SELECT seq FROM sqlite_sequence WHERE name = 'store_changes'") { "next after \($0.databaseValue(at: 0))" }
                + db.fetchAll(sql: "SELECT name FROM sqlite_master WHERE name = 'log_inserts'") { _ in
                    "logged \(try db.scalar(Int.self, sql: "SELECT count(*) FROM log_inserts") ?? -1)"
                }
        }
    }

    /// Loads `count` rows, through the bulk insert when given (which suspends the triggers after
    /// `triggeredRows` of them), or row by row through the triggers.
    private func load(_ count: Int, into queue: DatabaseQueue, bulk: Bool, triggeredRows: Int) throws {
        try queue.write { db in
            func insert(_ bulk: BulkInsert?) throws {
                for index in 0..<count {
                    try bulk?.willInsert()
                    try db.execute(sql: "INSERT INTO items(name) VALUES (?)", arguments: ["new \(index)"])
                }
            }
            if bulk {
                try db.bulkInsert(into: "items", triggeredRows: triggeredRows) { try insert($0) }
            } else {
                try insert(nil)
            }
        }
    }

    /// Around the count from which the bulk insert writes only the last entries (retention + 256 new
    /// rows after the triggers were suspended), from positions at and between pruning points.
    @Test(arguments: [0, 7, 256, 300], [1, 275, 276, 277, 290, 1_000, 3_000])
    func aBulkInsertLeavesTheLogAsTheTriggersDo(existing: Int, count: Int) throws {
        for triggeredRows in [0, 50] {
            let directory = try TemporaryDirectory()
            let reference = try makeQueue(directory, "reference.sqlite", retention: 20, existing: existing, extraLogTrigger: nil)
            try load(count, into: reference, bulk: false, triggeredRows: triggeredRows)
            let bulk = try makeQueue(directory, "bulk.sqlite", retention: 20, existing: existing, extraLogTrigger: nil)
            try load(count, into: bulk, bulk: true, triggeredRows: triggeredRows)
            #expect(try log(bulk) == log(reference), "\(existing) rows, \(count) more, \(triggeredRows) triggered")
        }
    }

    /// A log with a trigger of its own besides pruning gets every entry: that trigger sees each.
    @Test func aLogWithAnotherTriggerGetsEveryEntry() throws {
        let counting = """
            CREATE TABLE log_inserts(seq INTEGER NOT NULL);
            CREATE TRIGGER log_inserts_count AFTER INSERT ON store_changes BEGIN INSERT INTO log_inserts VALUES (new.seq); END;
            """
        let directory = try TemporaryDirectory()
        let reference = try makeQueue(directory, "reference.sqlite", retention: 20, existing: 3, extraLogTrigger: counting)
        try load(1_000, into: reference, bulk: false, triggeredRows: 0)
        let bulk = try makeQueue(directory, "bulk.sqlite", retention: 20, existing: 3, extraLogTrigger: counting)
        try load(1_000, into: bulk, bulk: true, triggeredRows: 0)
        let expected = try log(reference)
        #expect(expected.contains("logged 1003"))
        #expect(try log(bulk) == expected)
    }
}
