import Foundation
import SQLiteStore
import Testing

/// SQLite-only: SQLite's change log (PostgreSQL's: ChangeLogPositionTests, ChangeLogPruningTests).
struct ChangeLogTests {
    @Test func logsInsertsUpdatesAndDeletesInCommitOrder() throws {
        let store = try TrackedDatabase()
        let start = try store.sequence()
        try store.queue.write { db in
            try db.execute(sql: "INSERT INTO items(id, name) VALUES (1, 'a'), (2, 'b')")
            try db.execute(sql: "UPDATE items SET name = 'c' WHERE id = 1")
            try db.execute(sql: "DELETE FROM items WHERE id = 2")
        }
        let changes = try store.queue.read { db in try ChangeLog.changes(after: start, db) }
        #expect(changes.isComplete)
        #expect(summary(changes.changes) == ["insert items 1", "insert items 2", "update items 1", "delete items 2"])
        #expect(changes.changes.map(\.sequence) == Array(start + 1...start + 4))
        #expect(changes.toSequence == start + 4)
        #expect(changes.rowIDs(inTable: "items") == [1, 2])
    }

    @Test func anUpdateThatMovesARowidIsADeleteAndAnInsert() throws {
        let store = try TrackedDatabase()
        try store.write("INSERT INTO items(id, name) VALUES (1, 'a')")
        let start = try store.sequence()
        try store.write("UPDATE items SET id = 7 WHERE id = 1")
        let changes = try store.queue.read { db in try ChangeLog.changes(after: start, db) }
        #expect(summary(changes.changes) == ["delete items 1", "insert items 7"])
    }

    @Test func rolledBackWorkLeavesNoEntry() throws {
        let store = try TrackedDatabase()
        let start = try store.sequence()
        struct Failure: Error {}
        #expect(throws: Failure.self) {
            try store.queue.write { db in
                try db.execute(sql: "INSERT INTO items(id, name) VALUES (1, 'a')")
                throw Failure()
            }
        }
        try store.queue.write { db in
            try db.execute(sql: "INSERT INTO items(id, name) VALUES (2, 'b')")
            // A savepoint rolled back inside a committed transaction.
            try? db.inSavepoint {
                try db.execute(sql: "INSERT INTO items(id, name) VALUES (3, 'c')")
                throw Failure()
            }
        }
        let changes = try store.queue.read { db in try ChangeLog.changes(after: start, db) }
        #expect(summary(changes.changes) == ["insert items 2"])
        #expect(changes.changes.first?.sequence == start + 1)
    }

    @Test func writersPruneTheLogAndLateReadersLearnTheyFellBehind() throws {
        let store = try TrackedDatabase(retention: 10)
        try store.queue.write { db in
            for id in 1...600 { try db.execute(sql: "INSERT INTO items(id, name) VALUES (?, 'x')", arguments: [id]) }
        }
        let (count, horizon, late, recent) = try store.queue.read { db in
            (try db.scalar(Int.self, sql: "SELECT count(*) FROM store_changes") ?? 0,
             try ChangeLog.prunedThrough(db),
             try ChangeLog.changes(after: 0, db),
             try ChangeLog.changes(after: 595, db))
        }
        #expect((10...265).contains(count))
        #expect(horizon == 512 - 10)
        #expect(late.gap == .fellBehind && late.changes.isEmpty && late.toSequence == 600)
        #expect(recent.isComplete && recent.changes.map(\.rowID) == [596, 597, 598, 599, 600])
    }

    @Test func explicitPruningMovesTheHorizon() throws {
        let store = try TrackedDatabase()
        try store.write("INSERT INTO items(id, name) VALUES (1, 'a'), (2, 'b'), (3, 'c')")
        let deleted = try store.queue.writeWithoutTransaction { db in try ChangeLog.prune(keepingLatest: 1, db) }
        #expect(deleted == 2)
        let (behind, current) = try store.queue.read { db in
            (try ChangeLog.changes(after: 1, db), try ChangeLog.changes(after: 2, db))
        }
        #expect(behind.gap == .fellBehind)
        #expect(summary(current.changes) == ["insert items 3"])
        // Positions are never reused, even once the log is empty.
        try store.queue.writeWithoutTransaction { db in _ = try ChangeLog.prune(keepingLatest: 0, db) }
        try store.write("INSERT INTO items(id, name) VALUES (4, 'd')")
        #expect(try store.queue.read { db in try ChangeLog.changes(after: 3, db) }.changes.map(\.sequence) == [4])
    }

    @Test func trackingNeedsAnExistingRowidTable() throws {
        let store = try TrackedDatabase()
        try store.queue.write { db in
            try db.execute(sql: "CREATE TABLE pairs (a INTEGER, b INTEGER, PRIMARY KEY (a, b)) WITHOUT ROWID")
            #expect(throws: DatabaseError.self) { try ChangeLog.installTracking(forTable: "pairs", db) }
            #expect(throws: DatabaseError.self) { try ChangeLog.installTracking(forTable: "missing", db) }
        }
    }

    @Test func tableNamesAreQuoted() throws {
        let store = try TrackedDatabase()
        try store.queue.write { db in
            try db.execute(sql: #"CREATE TABLE "it's ""odd""" (id INTEGER PRIMARY KEY)"#)
            try ChangeLog.installTracking(forTable: #"it's "odd""#, db)
            try db.execute(sql: #"INSERT INTO "it's ""odd""" VALUES (5)"#)
        }
        let changes = try store.queue.read { db in try ChangeLog.changes(after: 0, db) }
        #expect(summary(changes.changes) == [#"insert it's "odd" 5"#])
    }
}
