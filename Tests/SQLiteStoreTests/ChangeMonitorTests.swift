import Foundation
import SQLiteStore
import TestSupport
import Testing

/// SQLite-only: the monitor of a database file (PostgreSQL's notifications: ChangeLogPositionTests).
struct ChangeMonitorTests {
    @Test(arguments: [true, false])
    func deliversASameProcessCommitWithItsRows(usesFileEvents: Bool) async throws {
        let store = try TrackedDatabase()
        try store.write("INSERT INTO items(id, name) VALUES (1, 'a'), (2, 'b')")
        var options = ChangeMonitor.Options()
        options.usesFileEvents = usesFileEvents
        let monitor = try ChangeMonitor(path: store.path, options: options)
        #expect(monitor.statistics.usesFileEvents == usesFileEvents)
        let start = try store.sequence()
        let changes = monitor.changes(after: start)
        try await store.queue.write { db in
            try db.execute(sql: "INSERT INTO items(id, name) VALUES (3, 'c')")
            try db.execute(sql: "UPDATE items SET name = 'z' WHERE id = 1")
            try db.execute(sql: "DELETE FROM items WHERE id = 2")
        }
        let received = await collect(changes) { merged($0)?.toSequence == start + 3 }
        let all = try #require(merged(received))
        #expect(all.isComplete)
        #expect(all.fromSequence == start && all.toSequence == start + 3)
        #expect(summary(all.changes) == ["insert items 3", "update items 1", "delete items 2"])
        monitor.stop()
    }

    @Test func aCommitHookWakesTheMonitorWithoutFileEvents() async throws {
        let store = try TrackedDatabase()
        var options = ChangeMonitor.Options()
        options.usesFileEvents = false
        options.pollInterval = .seconds(60)  // only the hook can wake it within the test
        let monitor = try ChangeMonitor(path: store.path, options: options)
        try monitor.observeCommits(of: store.queue)
        let changes = monitor.changes()
        try store.write("INSERT INTO items(id, name) VALUES (1, 'a')")
        let received = await collect(changes, timeout: .seconds(20)) { !$0.isEmpty }
        #expect(summary(received.flatMap(\.changes)) == ["insert items 1"])
    }

    @Test func aRollbackDeliversNothing() async throws {
        let store = try TrackedDatabase()
        let monitor = try ChangeMonitor(path: store.path)
        try monitor.observeCommits(of: store.queue)
        let start = try store.sequence()
        let changes = monitor.changes(after: start)
        struct Failure: Error {}
        _ = try? await store.queue.write { db in
            try db.execute(sql: "INSERT INTO items(id, name) VALUES (1, 'rolled back')")
            throw Failure()
        }
        try store.write("INSERT INTO items(id, name) VALUES (2, 'committed')")
        let received = await collect(changes) { merged($0)?.toSequence == start + 1 }
        #expect(summary(received.flatMap(\.changes)) == ["insert items 2"])
    }

    @Test func commitsBetweenTwoReadsArriveTogetherAndComplete() async throws {
        let store = try TrackedDatabase()
        let monitor = try ChangeMonitor(path: store.path)
        let start = try store.sequence()
        let changes = monitor.changes(after: start)
        for id in 1...5 {
            try store.write("INSERT INTO items(id, name) VALUES (?, 'x')", [id])
        }
        // Nobody consumes while the monitor reads the five commits: they wait merged in the mailbox.
        let deadline = ContinuousClock.now + .seconds(5)
        while monitor.statistics.deliveries == 0 && ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(5)) }
        try await Task.sleep(for: .milliseconds(150))
        let received = await collect(changes) { merged($0)?.toSequence == start + 5 }
        #expect(received.count == 1)
        let all = try #require(received.first)
        #expect(all.isComplete && all.fromSequence == start && all.toSequence == start + 5)
        #expect(all.changes.map(\.rowID) == [1, 2, 3, 4, 5])
    }

    @Test func aSubscriberStartingInThePastGetsTheLogFromItsPosition() async throws {
        let store = try TrackedDatabase()
        try store.write("INSERT INTO items(id, name) VALUES (1, 'a')")
        try store.write("INSERT INTO items(id, name) VALUES (2, 'b')")
        let monitor = try ChangeMonitor(path: store.path)
        let received = await collect(monitor.changes(after: 1)) { !$0.isEmpty }
        #expect(received.count == 1)
        #expect(received.first?.fromSequence == 1)
        #expect(summary(received.flatMap(\.changes)) == ["insert items 2"])
    }

    /// Seen through file events, without polling (how fast is the benchmark's business, not a test's).
    @Test func anotherProcessWritingIsSeenThroughFileEvents() async throws {
        let store = try TrackedDatabase()
        let monitor = try ChangeMonitor(path: store.path)
        let writer = try WriterProcess(path: store.path)
        defer { writer.finish() }
        let start = try store.sequence()
        let changes = monitor.changes(after: start)
        #expect(try writer.run("INSERT INTO items(id, name) VALUES (10, 'from elsewhere')") == "ok")
        let received = await collect(changes, timeout: .seconds(30)) { merged($0)?.toSequence == start + 1 }
        #expect(summary(received.flatMap(\.changes)) == ["insert items 10"])
        #expect(monitor.statistics.usesFileEvents)
    }

    @Test func anotherProcessWritingIsSeenOnTheTimerWithoutFileEvents() async throws {
        let store = try TrackedDatabase()
        var options = ChangeMonitor.Options()
        options.usesFileEvents = false
        options.pollInterval = .milliseconds(20)
        let monitor = try ChangeMonitor(path: store.path, options: options)
        let writer = try WriterProcess(path: store.path)
        defer { writer.finish() }
        let changes = monitor.changes()
        #expect(try writer.run("INSERT INTO items(id, name) VALUES (11, 'polled')") == "ok")
        let received = await collect(changes, timeout: .seconds(20)) { !$0.isEmpty }
        #expect(summary(received.flatMap(\.changes)) == ["insert items 11"])
    }

    @Test func aProcessKilledMidTransactionLosesNothingAndLogsNothing() async throws {
        let store = try TrackedDatabase()
        try store.write("INSERT INTO items(id, name) VALUES (1, 'before')")
        let monitor = try ChangeMonitor(path: store.path)
        let start = try store.sequence()
        let changes = monitor.changes(after: start)

        let writer = try WriterProcess(path: store.path)
        #expect(try writer.run("INSERT INTO items(id, name) VALUES (2, 'committed elsewhere')") == "ok")
        // A tiny page cache, so that the uncommitted pages spill into the WAL as a big transaction's would.
        #expect(try writer.run("PRAGMA cache_size = 5") == "ok")
        #expect(try writer.run("BEGIN IMMEDIATE") == "ok")
        #expect(try writer.run("INSERT INTO items(id, name) VALUES (3, 'never committed')") == "ok")
        #expect(try writer.run("UPDATE items SET name = 'never renamed' WHERE id = 1") == "ok")
        #expect(try writer.run("""
            WITH RECURSIVE n(v) AS (SELECT 1 UNION ALL SELECT v + 1 FROM n WHERE v < 300) \
            INSERT INTO items(id, name) SELECT 100 + v, hex(randomblob(200)) FROM n
            """) == "ok")
        writer.kill()

        try store.write("INSERT INTO items(id, name) VALUES (4, 'after')")
        let received = await collect(changes) { merged($0)?.toSequence ?? 0 >= start + 2 }
        try await Task.sleep(for: .milliseconds(150))  // anything else would arrive now
        let all = try #require(merged(received))
        #expect(all.isComplete)
        #expect(summary(all.changes) == ["insert items 2", "insert items 4"])
        #expect(all.changes.map(\.sequence) == [start + 1, start + 2])
        let (names, logged) = try await store.queue.read { db in
            (try db.fetchAll(sql: "SELECT name FROM items ORDER BY id") { try $0.decode(String.self, at: 0) },
             try ChangeLog.changes(after: start, db))
        }
        #expect(names == ["before", "committed elsewhere", "after"])
        #expect(logged == DatabaseChanges(fromSequence: start, toSequence: start + 2, changes: all.changes))
    }

    @Test func aSubscriberBehindThePrunedLogGetsAnIncompleteDelivery() async throws {
        let store = try TrackedDatabase()
        let monitor = try ChangeMonitor(path: store.path)
        let start = try store.sequence()
        try store.write("INSERT INTO items(id, name) VALUES (1, 'a'), (2, 'b'), (3, 'c')")
        try await store.queue.writeWithoutTransaction { db in _ = try ChangeLog.prune(keepingLatest: 1, db) }
        let received = await collect(monitor.changes(after: start)) { !$0.isEmpty }
        let first = try #require(received.first)
        #expect(!first.isComplete && first.gap == .fellBehind)
        #expect(first.toSequence == start + 3)
        #expect(monitor.statistics.incompleteDeliveries == 1)
    }

    @Test func aSchemaChangeIsAnIncompleteDelivery() async throws {
        let store = try TrackedDatabase()
        let monitor = try ChangeMonitor(path: store.path)
        let changes = monitor.changes()
        try await store.queue.write { db in
            try db.execute(sql: "ALTER TABLE items ADD COLUMN price REAL")
            try db.execute(sql: "INSERT INTO items(id, name) VALUES (1, 'a')")
        }
        let received = await collect(changes) { !$0.isEmpty }
        #expect(received.first?.gap == .schemaChanged)
        #expect(summary(received.flatMap(\.changes)) == ["insert items 1"])
    }

    @Test func theMonitorNeverBlocksACheckpoint() throws {
        let store = try TrackedDatabase()
        let monitor = try ChangeMonitor(path: store.path)
        _ = monitor.changes()
        for id in 1...20 { try store.write("INSERT INTO items(id, name) VALUES (?, 'x')", [id]) }
        Thread.sleep(forTimeInterval: 0.1)
        let busy = try store.queue.writeWithoutTransaction { db in
            try db.fetchOne(sql: "PRAGMA wal_checkpoint(TRUNCATE)") { try $0.decode(Int.self, at: 0) }
        }
        #expect(busy == 0)
        #expect(monitor.statistics.logReads >= 1)
    }

    @Test func stoppingOrCancellingEndsTheSequences() async throws {
        let store = try TrackedDatabase()
        let monitor = try ChangeMonitor(path: store.path)
        let stopped = monitor.changes()
        let cancelled = monitor.changes()
        let consumer = Task { for await _ in cancelled {} }
        consumer.cancel()
        await consumer.value
        let ender = Task { for await _ in stopped {} }
        monitor.stop()
        await ender.value
        monitor.stop()  // idempotent
        var afterStop = monitor.changes().makeAsyncIterator()
        #expect(await afterStop.next() == nil)
    }

    @Test func aDatabaseWithoutALogIsRefused() throws {
        let store = try TrackedDatabase()
        let other = store.directory.appending(path: "plain.sqlite").path
        let queue = try DatabaseQueue(path: other)
        try queue.write { db in try db.execute(sql: "CREATE TABLE t (id INTEGER PRIMARY KEY)") }
        #expect(throws: DatabaseError.self) { try ChangeMonitor(path: other) }
    }
}
