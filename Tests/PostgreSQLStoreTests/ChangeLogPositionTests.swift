import PostgreSQLStore
import StoreCore
import Synchronization
import TestSupport
import Testing

/// The PostgreSQL change log read from snapshot positions: writers that commit out of sequence order
/// lose no change and double none (where `seq > last` loses one), and a commit wakes a listener.
/// PostgreSQL-only: SQLite's writers commit one at a time, in sequence order.
@Suite struct ChangeLogPositionTests {
    let schema: TestSchema

    init() throws {
        schema = try TestSchema()
        let db = try schema.connect()
        try db.execute(sql: PostgreSQLChangeLog.installationSQL)
        try db.execute(sql: "CREATE TABLE note(id bigint PRIMARY KEY, text text)")
        try db.execute(sql: PostgreSQLChangeLog.trackingSQL(forTable: "note"))
    }

    @Test func twoWritersCommittingOutOfSequenceOrderLoseNoChange() throws {
        let first = try schema.connect()
        let second = try schema.connect()
        let reader = try schema.connect()
        var position = try PostgreSQLChangeLog.currentPosition(reader)
        var lastSequence: Int64 = 0

        try first.execute(sql: "BEGIN")
        try first.execute(sql: "INSERT INTO note VALUES (1, 'first')")  // takes seq 1
        try second.inTransaction { try second.execute(sql: "INSERT INTO note VALUES (2, 'second')") }  // seq 2, committed first

        var read = try PostgreSQLChangeLog.changes(after: position, reader)
        #expect(read.changes.map(\.rowID) == [2])
        position = read.position
        lastSequence = try #require(read.changes.map(\.sequence).max())

        try first.execute(sql: "COMMIT")

        // The reading that follows sequence numbers misses row 1: its seq 1 is below the last one read.
        let bySequence = try reader.fetchAll(sql: "SELECT row_id FROM store_changes WHERE seq > $1", arguments: [.integer(lastSequence)])
        #expect(bySequence.isEmpty)
        // The snapshot position reads it, once.
        read = try PostgreSQLChangeLog.changes(after: position, reader)
        #expect(read.changes.map(\.rowID) == [1])
        #expect(read.changes.map(\.kind) == [.insert])
        read = try PostgreSQLChangeLog.changes(after: read.position, reader)
        #expect(read.changes.isEmpty)
    }

    @Test func updatesAndDeletesAreLoggedByKey() throws {
        let db = try schema.connect()
        let start = try PostgreSQLChangeLog.currentPosition(db)
        try db.execute(sql: "INSERT INTO note VALUES (1, 'a'), (2, 'b')")
        try db.execute(sql: "UPDATE note SET text = 'c' WHERE id = 1")
        try db.execute(sql: "UPDATE note SET id = 3 WHERE id = 2")
        try db.execute(sql: "DELETE FROM note WHERE id = 1")
        let changes = try PostgreSQLChangeLog.changes(after: start, db).changes
        #expect(changes.map { "\($0.kind) \($0.rowID)" } == ["insert 1", "insert 2", "update 1", "delete 2", "insert 3", "delete 1"])
        #expect(changes.allSatisfy { $0.table == "note" })
    }

    /// The read of the changes after a position stays a small statement however long the log: below
    /// the cost at which PostgreSQL compiles a statement (JIT), which a join with the never-analyzed
    /// horizon table passed at 20,000 entries.
    @Test func readingTheChangesOfALongLogIsPlannedAsASmallStatement() throws {
        let db = try schema.connect()
        try db.execute(sql: "INSERT INTO note SELECT id, 'n' FROM generate_series(1, 20000) AS id")
        let position = try PostgreSQLChangeLog.currentPosition(db)
        let plan = try db.scalar(
            sql: "EXPLAIN (FORMAT JSON) " + SQLDialect.postgreSQL.numberingPlaceholders(PostgreSQLChangeLogSchema.changesSQL),
            arguments: [.text(position.snapshot)])
        guard case .text(let json) = plan, let cost = json.firstMatch(of: /"Total Cost": ([0-9.]+)/).flatMap({ Double($0.1) }) else {
            Issue.record("no plan: \(String(describing: plan))")
            return
        }
        guard case .text(let limit) = try db.scalar(sql: "SELECT current_setting('jit_above_cost')") else {
            Issue.record("no jit_above_cost")
            return
        }
        #expect(cost < Double(limit)!, "planned cost \(cost)")
    }

    /// Writers on four connections commit small transactions at random moments while a reader follows
    /// the log: every inserted row is read exactly once.
    @Test func concurrentWritersChangesAreEachReadOnce() async throws {
        let schema = self.schema
        let reader = try schema.connect()
        var position = try PostgreSQLChangeLog.currentPosition(reader)
        let writers = 4
        let transactions = 40
        let writersDone = Atomic<Bool>(false)
        let writing = Task.detached {
            defer { writersDone.store(true, ordering: .sequentiallyConsistent) }
            try await withThrowingTaskGroup(of: Void.self) { group in
                for writer in 0..<writers {
                    group.addTask {
                        let db = try schema.connect()
                        var random = SystemRandomNumberGenerator()
                        for transaction in 0..<transactions {
                            try db.inTransaction {
                                for row in 0..<2 {
                                    let id = Int64((writer * transactions + transaction) * 2 + row)
                                    try db.execute(sql: "INSERT INTO note VALUES ($1, 'x')", arguments: [.integer(id)])
                                    // A pause inside the transaction lets the others commit in between.
                                    if Bool.random(using: &random) { try db.execute(sql: "SELECT pg_sleep(0.001)") }
                                }
                            }
                        }
                    }
                }
                try await group.waitForAll()
            }
        }
        var seen: [Int64] = []
        let expected = writers * transactions * 2
        // Reads while the writers write; after they are done, one more read takes what is left.
        while true {
            let finished = writersDone.load(ordering: .sequentiallyConsistent)
            let read = try PostgreSQLChangeLog.changes(after: position, reader)
            seen += read.changes.map(\.rowID)
            position = read.position
            if finished { break }
            if read.changes.isEmpty { try await Task.sleep(for: .milliseconds(2)) }
        }
        try await writing.value
        #expect(seen.count == expected)
        #expect(Set(seen).count == seen.count, "a change was read twice")
        #expect(Set(seen) == Set((0..<Int64(expected)).map { $0 }))
    }

    @Test func aCommitWakesAListenerOnThePrimary() async throws {
        let cluster = try PostgreSQLCluster(PostgreSQLConfiguration(primary: schema.primary))
        defer { cluster.close() }
        var notifications = cluster.changeNotifications().makeAsyncIterator()
        _ = try await notifications.next()  // listening
        let position = try await cluster.read { db in try PostgreSQLChangeLog.currentPosition(db) }
        try await cluster.write { db in try db.execute(sql: "INSERT INTO note VALUES (7, 'seven')") }
        #expect(try await notifications.next() != nil)
        let changes = try await cluster.read { db in try PostgreSQLChangeLog.changes(after: position, db).changes }
        #expect(changes.map(\.rowID) == [7])
    }

    /// Cancelling a consumer waiting for its next wake-up waits for the listening connection to
    /// close, and the loop ends without the consumer's task, whose lock the cancel holds meanwhile:
    /// the wait ends by the loop's end, not by its bound (which is logged). `watch` and `browse`
    /// took the whole bound to quit on Ctrl-C when the loop finished the stream before it ended.
    @Test func cancellingAWaitingConsumerEndsByTheLoopsEndNotTheWaitsBound() async throws {
        let lines = Mutex<[String]>([])
        var configuration = PostgreSQLConfiguration(primary: schema.primary)
        configuration.log = { line in lines.withLock { $0.append(line) } }
        let cluster = try PostgreSQLCluster(configuration)
        defer { cluster.close() }
        let wakeUps = AsyncStream.makeStream(of: Void.self)
        let consumer = Task {
            for try await _ in cluster.changeNotifications() { wakeUps.continuation.yield() }
        }
        var seen = wakeUps.stream.makeAsyncIterator()
        _ = await seen.next()  // listening
        // Not an assertion: gives the consumer time to wait for its next wake-up, as watch's does.
        try await Task.sleep(for: .milliseconds(200))
        consumer.cancel()
        try await consumer.value
        #expect(lines.withLock { $0 }.isEmpty)
    }
}

/// A position is read from the text of a row's column; a row without one is said so, the same way
/// wherever it is read (`PostgreSQLChangeLog`, a live controller).
struct ChangeLogPositionTextTests {
    @Test func aPositionIsTheColumnsTextAndItsAbsenceIsSaid() throws {
        #expect(try PostgreSQLChangeLogSchema.position(.text("790:790:")) == "790:790:")
        for value: DatabaseValue? in [nil, .null, .integer(790)] {
            #expect {
                try PostgreSQLChangeLogSchema.position(value)
            } throws: { error in
                error is PostgreSQLChangeLogSchema.MissingPosition && "\(error)" == "pg_current_snapshot() gave no snapshot"
            }
        }
    }
}
