import Dispatch
import Foundation
import SQLiteStore
import Synchronization
import TestSupport
import Testing

/// A pool on a real file: concurrent readers beside one writer, each read in one snapshot.
/// SQLite-only: WAL readers beside one writer (PostgreSQL's replicas: ReplicaTests).
struct DatabasePoolTests {
    let directory: TemporaryDirectory
    let pool: DatabasePool

    init() throws {
        directory = try TemporaryDirectory()
        pool = try DatabasePool(path: directory.path(), maximumReaderCount: 4)
        try pool.write { db in
            try db.execute(sql: "CREATE TABLE account(id INTEGER PRIMARY KEY, balance INTEGER NOT NULL)")
            try db.execute(sql: "INSERT INTO account(id, balance) VALUES (1, 500), (2, 500)")
        }
    }

    /// How long a test waits for something that should happen at once before calling it a deadlock.
    static let deadlockTimeout = DispatchTimeInterval.seconds(10)

    @Test func twoReadsRunAtTheSameTime() throws {
        // Each read waits inside its transaction until the other has started: on one connection, the
        // second would wait for the first forever.
        let entered = DispatchSemaphore(value: 0)
        let bothInside = Gauge()
        let pool = self.pool
        let group = DispatchGroup()
        // An atomic, not a `Mutex`: two threads leave the reads at once, and a `Mutex` contended then
        // waits in code ThreadSanitizer does not see, which it reports as a race on the value.
        let sawOther = Atomic<Int>(0)
        for _ in 0..<2 {
            DispatchQueue.global().async(group: group) {
                let saw = (try? pool.read { db -> Bool in
                    _ = try db.scalar(Int.self, sql: "SELECT count(*) FROM account")
                    bothInside.enter()
                    entered.signal()
                    let deadline = DispatchTime.now() + Self.deadlockTimeout
                    while bothInside.current < 2 && DispatchTime.now() < deadline {
                        usleep(100)
                    }
                    return bothInside.current == 2
                }) ?? false
                if saw { sawOther.add(1, ordering: .relaxed) }
            }
        }
        #expect(group.wait(timeout: .now() + .seconds(30)) == .success)
        #expect(sawOther.load(ordering: .relaxed) == 2)
        #expect(pool.readerCount == 2)
    }

    @Test func aReadDoesNotWaitForTheWriterAndSeesOnlyCommittedData() throws {
        let pool = self.pool
        try pool.write { db in
            try db.execute(sql: "UPDATE account SET balance = 0 WHERE id = 1")
            // The write is open: a read on another thread neither waits for it nor sees it.
            let done = DispatchSemaphore(value: 0)
            let seen = Mutex<Int?>(nil)
            DispatchQueue.global().async {
                let balance = try? pool.read { db in try db.scalar(Int.self, sql: "SELECT balance FROM account WHERE id = 1") }
                seen.withLock { $0 = balance ?? nil }
                done.signal()
            }
            #expect(done.wait(timeout: .now() + Self.deadlockTimeout) == .success)
            #expect(seen.withLock { $0 } == 500)
        }
        #expect(try pool.read { db in try db.scalar(Int.self, sql: "SELECT balance FROM account WHERE id = 1") } == 0)
    }

    @Test func manyReadersSeeConsistentSnapshotsWhileTheWriterCommits() async throws {
        // The writer moves money between two accounts, one row at a time in one transaction; every
        // read, of the two rows in two statements, must see the total unchanged and never a busy error.
        let pool = self.pool
        let transfers = 200
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask {
                for index in 0..<transfers {
                    try await pool.write { db in
                        let amount = index % 7 + 1
                        try db.execute(sql: "UPDATE account SET balance = balance - ? WHERE id = 1", arguments: [amount])
                        try db.execute(sql: "UPDATE account SET balance = balance + ? WHERE id = 2", arguments: [amount])
                    }
                }
            }
            for _ in 0..<8 {
                group.addTask {
                    var lastSecond = 0
                    for _ in 0..<100 {
                        let (first, second) = try await pool.read { db in
                            (try db.scalar(Int.self, sql: "SELECT balance FROM account WHERE id = 1") ?? 0,
                             try db.scalar(Int.self, sql: "SELECT balance FROM account WHERE id = 2") ?? 0)
                        }
                        #expect(first + second == 1000)
                        #expect(second >= lastSecond, "a later read saw an older snapshot")
                        lastSecond = second
                    }
                }
            }
            try await group.waitForAll()
        }
        #expect(pool.readerCount <= pool.maximumReaderCount)
        let total = try await pool.read { db in try db.scalar(Int.self, sql: "SELECT sum(balance) FROM account") }
        #expect(total == 1000)
    }

    @Test func readsBeyondTheMaximumWaitForAFreeReader() async throws {
        let pool = try DatabasePool(path: directory.path(), maximumReaderCount: 2)
        let inside = Gauge()
        try await withThrowingTaskGroup(of: Void.self) { group in
            for _ in 0..<8 {
                group.addTask {
                    try await pool.read { db in
                        inside.enter()
                        _ = try db.scalar(Int.self, sql: "SELECT count(*) FROM account")
                        usleep(2000)
                        inside.leave()
                    }
                }
            }
            try await group.waitForAll()
        }
        #expect(inside.highest <= 2)
        #expect(pool.readerCount == 2)
    }

    @Test func asyncWriteCommitsAndRollsBackOnError() async throws {
        struct Failure: Error {}
        let id = try await pool.write { db in
            try db.execute(sql: "INSERT INTO account(balance) VALUES (7)")
            return db.lastInsertedRowID
        }
        await #expect(throws: Failure.self) {
            try await pool.write { db in
                try db.execute(sql: "INSERT INTO account(balance) VALUES (8)")
                throw Failure()
            }
        }
        let balances = try await pool.read { db in
            try db.fetchAll(sql: "SELECT balance FROM account WHERE id >= ? ORDER BY id", arguments: [id]) { try $0.decode(Int.self, at: 0) }
        }
        #expect(balances == [7])
    }

    @Test func readersAreReadOnly() throws {
        #expect(throws: DatabaseError.self) {
            try pool.read { db in try db.execute(sql: "DELETE FROM account") }
        }
        #expect(try pool.read { db in try db.scalar(Int.self, sql: "SELECT count(*) FROM account") } == 2)
    }

    @Test func theFileIsInWALMode() throws {
        #expect(try pool.read { db in try db.scalar(String.self, sql: "PRAGMA journal_mode") } == "wal")
    }

    @Test func anInMemoryPathIsRefused() {
        #expect(throws: DatabaseError.self) { try DatabasePool(path: ":memory:") }
    }

    @Test func aClosedPoolRefusesAccess() async throws {
        _ = try await pool.read { db in try db.scalar(Int.self, sql: "SELECT 1") }
        try pool.close()
        await #expect(throws: DatabaseError.self) { try await pool.read { db in try db.scalar(Int.self, sql: "SELECT 1") } }
        await #expect(throws: DatabaseError.self) { try await pool.write { db in try db.execute(sql: "SELECT 1") } }
    }
}

/// How many threads are inside a section now, and the most there were at once.
final class Gauge: Sendable {
    private let state = Mutex((current: 0, highest: 0))

    func enter() {
        state.withLock { state in
            state.current += 1
            state.highest = max(state.highest, state.current)
        }
    }

    func leave() { state.withLock { $0.current -= 1 } }

    var current: Int { state.withLock { $0.current } }
    var highest: Int { state.withLock { $0.highest } }
}
