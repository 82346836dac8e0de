import Foundation
import SQLiteStore
import TestSupport
import Testing

/// Transactions, savepoints and concurrent use.
/// SQLite-only: SQLite's transaction kinds and locks.
struct TransactionTests {
    struct Failure: Error {}

    let directory: TemporaryDirectory
    let queue: DatabaseQueue

    init() throws {
        directory = try TemporaryDirectory()
        queue = try DatabaseQueue(path: directory.path())
        try queue.write { db in try db.execute(sql: "CREATE TABLE t(id INTEGER PRIMARY KEY, v TEXT)") }
    }

    private func count() throws -> Int {
        try queue.read { db in try db.scalar(Int.self, sql: "SELECT count(*) FROM t") ?? 0 }
    }

    @Test func writeCommits() throws {
        try queue.write { db in try db.execute(sql: "INSERT INTO t(v) VALUES ('a')") }
        #expect(try count() == 1)
    }

    @Test func aThrownErrorRollsBackTheWholeWrite() throws {
        #expect(throws: Failure.self) {
            try queue.write { db in
                try db.execute(sql: "INSERT INTO t(v) VALUES ('a')")
                try db.execute(sql: "INSERT INTO t(v) VALUES ('b')")
                throw Failure()
            }
        }
        #expect(try count() == 0)
        // The connection is usable afterwards, outside any transaction.
        try queue.writeWithoutTransaction { db in #expect(!db.isInsideTransaction) }
        try queue.write { db in try db.execute(sql: "INSERT INTO t(v) VALUES ('c')") }
        #expect(try count() == 1)
    }

    @Test func aFailedStatementRollsBackEarlierOnes() throws {
        #expect(throws: DatabaseError.self) {
            try queue.write { db in
                try db.execute(sql: "INSERT INTO t(id, v) VALUES (1, 'a')")
                try db.execute(sql: "INSERT INTO t(id, v) VALUES (1, 'duplicate')")
            }
        }
        #expect(try count() == 0)
    }

    @Test func savepointsUndoOnlyTheirOwnWork() throws {
        try queue.write { db in
            try db.execute(sql: "INSERT INTO t(v) VALUES ('kept')")
            do {
                try db.inSavepoint {
                    try db.execute(sql: "INSERT INTO t(v) VALUES ('undone')")
                    throw Failure()
                }
                Issue.record("the savepoint did not throw")
            } catch is Failure {
            }
            try db.inSavepoint {
                try db.inSavepoint { try db.execute(sql: "INSERT INTO t(v) VALUES ('nested')") }
            }
        }
        let values = try queue.read { db in try db.fetchAll(sql: "SELECT v FROM t ORDER BY id") { try $0.decode(String.self, at: 0) } }
        #expect(values == ["kept", "nested"])
    }

    @Test func nestedTransactionsBecomeSavepoints() throws {
        try queue.write { db in
            try db.execute(sql: "INSERT INTO t(v) VALUES ('outer')")
            _ = try? db.inTransaction(.immediate) {
                try db.execute(sql: "INSERT INTO t(v) VALUES ('inner')")
                throw Failure()
            }
        }
        #expect(try count() == 1)
    }

    @Test func concurrentTasksShareOneQueue() async throws {
        let queue = self.queue
        try await withThrowingTaskGroup(of: Void.self) { group in
            for task in 0..<8 {
                group.addTask {
                    for row in 0..<50 {
                        try queue.write { db in
                            try db.execute(sql: "INSERT INTO t(v) VALUES (?)", arguments: ["\(task)-\(row)"])
                        }
                        _ = try queue.read { db in try db.scalar(Int.self, sql: "SELECT count(*) FROM t") }
                    }
                }
            }
            try await group.waitForAll()
        }
        #expect(try count() == 400)
    }

    @Test func concurrentQueuesOnOneFileWaitForTheLock() async throws {
        let path = directory.path()
        try await withThrowingTaskGroup(of: Void.self) { group in
            for task in 0..<4 {
                group.addTask {
                    let queue = try DatabaseQueue(path: path)
                    for row in 0..<25 {
                        try queue.write { db in
                            try db.execute(sql: "INSERT INTO t(v) VALUES (?)", arguments: ["\(task)-\(row)"])
                        }
                    }
                }
            }
            try await group.waitForAll()
        }
        #expect(try count() == 100)
    }

    @Test func busyTimeoutExpiresWithSQLITE_BUSY() throws {
        var configuration = Configuration()
        configuration.busyTimeout = .milliseconds(50)
        let other = try DatabaseQueue(path: directory.path(), configuration: configuration)
        let error = try queue.write { _ in
            try #require(throws: DatabaseError.self) {
                try other.write { db in try db.execute(sql: "INSERT INTO t(v) VALUES ('blocked')") }
            }
        }
        #expect(error.primaryResultCode == .SQLITE_BUSY)
        #expect(try count() == 0)
    }
}
