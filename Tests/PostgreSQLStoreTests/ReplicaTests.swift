import PostgreSQLStore
import StoreCore
import Synchronization
import TestSupport
import Testing

/// Reads through streaming replicas: each sees the caller's own last write; a replica that lags or
/// stops is skipped with a logged line and the read is answered by the primary, never stale.
/// PostgreSQL-only: SQLite has no replicas.
@Suite struct ReplicaTests {
    /// A cluster with a `note` table whose limits are far above any replay delay of a loaded
    /// machine, so that every read waits for the replica rather than skipping it.
    static func patientCluster(primary: String, replicas: [String]) async throws -> PostgreSQLCluster {
        var configuration = PostgreSQLConfiguration(primary: primary, replicas: replicas)
        configuration.replicaWaitLimit = .seconds(60)
        configuration.replicaLagLimit = .seconds(60)
        let cluster = try PostgreSQLCluster(configuration)
        try await cluster.writeWithoutTransaction { db in try db.execute(sql: "CREATE TABLE note(id bigint PRIMARY KEY)") }
        return cluster
    }

    @Test func aReadThroughTheReplicaSeesTheCallersOwnWrite() async throws {
        let schema = try TestSchema()
        try #require(!schema.replicas.isEmpty, "the test servers have no replica")
        let cluster = try await Self.patientCluster(primary: schema.primary, replicas: schema.replicas)
        defer { cluster.close() }
        for id in 1...50 {
            try await cluster.write { db in try db.execute(sql: "INSERT INTO note VALUES ($1)", arguments: [.integer(Int64(id))]) }
            let (count, onReplica) = try await cluster.read { db in
                (try db.scalar(sql: "SELECT count(*) FROM note"), try db.scalar(sql: "SELECT pg_is_in_recovery()"))
            }
            #expect(count == .integer(Int64(id)))
            #expect(onReplica == .integer(1), "read \(id) was not served by the replica")
        }
    }

    /// Every connection the cluster reads or writes with asks the server to check each second that
    /// its client is still there, so that a killed process's running statement ends with its locks.
    @Test func everyConnectionChecksItsClientEachSecond() async throws {
        let schema = try TestSchema()
        try #require(!schema.replicas.isEmpty, "the test servers have no replica")
        let cluster = try await Self.patientCluster(primary: schema.primary, replicas: schema.replicas)
        defer { cluster.close() }
        let show = "SELECT current_setting('client_connection_check_interval'), pg_is_in_recovery()"
        let onPrimary = try await cluster.write { db in try db.fetchAll(sql: show).first }
        let onReplica = try await cluster.read { db in try db.fetchAll(sql: show).first }
        #expect(onPrimary == [.text("1s"), .integer(0)])
        #expect(onReplica == [.text("1s"), .integer(1)])
        let primaryOnly = try PostgreSQLCluster(PostgreSQLConfiguration(primary: schema.primary))
        defer { primaryOnly.close() }
        #expect(try await primaryOnly.read { db in try db.fetchAll(sql: show).first } == [.text("1s"), .integer(0)])
    }

    /// A cluster of its own, whose replica this test pauses, then stops.
    @Test func aLaggingOrStoppedReplicaIsSkippedWithALoggedLine() async throws {
        let servers = try PostgreSQLServers.start(replicas: 1)
        defer { servers.stop() }
        let lines = Mutex<[String]>([])
        var configuration = PostgreSQLConfiguration(primary: servers.primary, replicas: servers.replicas)
        configuration.replicaWaitLimit = .milliseconds(200)
        configuration.replicaRetryInterval = .milliseconds(100)
        configuration.log = { line in lines.withLock { $0.append(line) } }
        let cluster = try PostgreSQLCluster(configuration)
        defer { cluster.close() }
        try await cluster.writeWithoutTransaction { db in try db.execute(sql: "CREATE TABLE note(id bigint PRIMARY KEY)") }
        let count = { @Sendable in try await cluster.read { db in try db.scalar(sql: "SELECT count(*) FROM note") } }

        // Lagging: the replica's replay is paused, so it never reaches the write.
        let replica = try PostgreSQLConnection(url: servers.replicas[0])
        try replica.execute(sql: "SELECT pg_wal_replay_pause()")
        try await cluster.write { db in try db.execute(sql: "INSERT INTO note VALUES (1)") }
        #expect(try await count() == .integer(1))
        #expect(lines.withLock { $0 }.contains(
            "replica 1 is lagging: it did not replay the primary's position this reader must see within 0.2 seconds; read on another server"))
        try replica.execute(sql: "SELECT pg_wal_replay_resume()")
        replica.close()

        // Stopped mid-run: reads go on, answered by the primary, and the replica is reported down.
        try await cluster.write { db in try db.execute(sql: "INSERT INTO note VALUES (2)") }
        #expect(try await count() == .integer(2))
        try servers.stopServer("replica1")
        for id in 3...5 {
            try await cluster.write { db in try db.execute(sql: "INSERT INTO note VALUES ($1)", arguments: [.integer(Int64(id))]) }
            #expect(try await count() == .integer(Int64(id)))
        }
        #expect(lines.withLock { $0 }.contains { $0.hasPrefix("replica 1 is down") })

        // Back up: after the retry interval, reads return to it.
        try servers.startServer("replica1")
        var onReplica: DatabaseValue? = .integer(0)
        for _ in 0..<200 where onReplica != .integer(1) {
            try await Task.sleep(for: .milliseconds(50))
            onReplica = try await cluster.read { db in try db.scalar(sql: "SELECT pg_is_in_recovery()") }
        }
        #expect(onReplica == .integer(1))
        #expect(try await count() == .integer(5))
    }

    /// A cluster of its own, whose replica's replay this test pauses while another process's cluster
    /// commits: a caller that has not written is not answered from the replica once its replay lags
    /// past `replicaLagLimit`, but from the primary, with a logged line; resumed, the replica serves
    /// reads again.
    @Test func aReplicaLaggingPastTheBoundIsSkippedForACallerThatHasNotWritten() async throws {
        let servers = try PostgreSQLServers.start(replicas: 1)
        defer { servers.stop() }
        let writer = try PostgreSQLCluster(PostgreSQLConfiguration(primary: servers.primary))
        defer { writer.close() }
        try await writer.writeWithoutTransaction { db in try db.execute(sql: "CREATE TABLE note(id bigint PRIMARY KEY)") }
        let lines = Mutex<[String]>([])
        var configuration = PostgreSQLConfiguration(primary: servers.primary, replicas: servers.replicas)
        configuration.replicaLagLimit = .milliseconds(100)
        configuration.log = { line in lines.withLock { $0.append(line) } }
        let reader = try PostgreSQLCluster(configuration)
        defer { reader.close() }
        let read = { @Sendable in
            try await reader.read { db in
                (try db.scalar(sql: "SELECT count(*) FROM note"), try db.scalar(sql: "SELECT pg_is_in_recovery()"))
            }
        }
        /// Reads until the replica answers, having replayed `count` rows.
        func readOnReplica(count: Int64) async throws {
            var answer: (DatabaseValue?, DatabaseValue?) = (nil, nil)
            for _ in 0..<200 {
                do { answer = try await read() } catch let error as PostgreSQLError where error.sqlState == "42P01" {}  // not replayed yet
                if answer.0 == .integer(count), answer.1 == .integer(1) { break }
                try await Task.sleep(for: .milliseconds(50))
            }
            #expect(answer.0 == .integer(count))
            #expect(answer.1 == .integer(1), "the replica did not serve the read")
        }
        try await readOnReplica(count: 0)

        let replica = try PostgreSQLConnection(url: servers.replicas[0])
        defer { replica.close() }
        try replica.execute(sql: "SELECT pg_wal_replay_pause()")
        try await writer.write { db in try db.execute(sql: "INSERT INTO note VALUES (1)") }
        try await Task.sleep(for: .milliseconds(300))  // the replica receives the commit, and lags past the bound
        let (count, onReplica) = try await read()
        #expect(count == .integer(1))
        #expect(onReplica == .integer(0), "the lagging replica served the read")
        #expect(lines.withLock { $0 }.contains { $0.hasPrefix("replica 1 is lagging: its replay is more than") })

        try replica.execute(sql: "SELECT pg_wal_replay_resume()")
        try await readOnReplica(count: 1)
    }

    /// A cluster of its own, whose replica's replay this test pauses before another process commits to
    /// a tracked table: the change notification's wake-up means the cluster's next read sees that
    /// commit (a replica that has not replayed it is waited for, then skipped), though the replica
    /// lags less than `replicaLagLimit` and the reader wrote nothing.
    @Test func aReadAfterAChangeNotificationSeesTheCommitNotified() async throws {
        let servers = try PostgreSQLServers.start(replicas: 1)
        defer { servers.stop() }
        let writer = try PostgreSQLConnection(url: servers.primary)
        defer { writer.close() }
        try writer.execute(
            sql: "CREATE TABLE note(id bigint PRIMARY KEY);" + PostgreSQLChangeLog.installationSQL + ";"
                + PostgreSQLChangeLog.trackingSQL(forTable: "note"))
        var configuration = PostgreSQLConfiguration(primary: servers.primary, replicas: servers.replicas)
        configuration.replicaWaitLimit = .milliseconds(200)
        configuration.replicaLagLimit = .seconds(30)
        let reader = try PostgreSQLCluster(configuration)
        defer { reader.close() }
        let read = { @Sendable in
            try await reader.read { db in
                (try db.scalar(sql: "SELECT count(*) FROM note"), try db.scalar(sql: "SELECT pg_is_in_recovery()"))
            }
        }
        var answer: (DatabaseValue?, DatabaseValue?) = (nil, nil)
        for _ in 0..<200 where answer.1 != .integer(1) {
            do { answer = try await read() } catch let error as PostgreSQLError where error.sqlState == "42P01" {}  // not replayed yet
            try await Task.sleep(for: .milliseconds(20))
        }
        try #require(answer.1 == .integer(1), "the replica did not serve reads")

        var wakeUps = reader.changeNotifications().makeAsyncIterator()
        _ = try await wakeUps.next()  // listening
        let replica = try PostgreSQLConnection(url: servers.replicas[0])
        defer { replica.close() }
        try replica.execute(sql: "SELECT pg_wal_replay_pause()")
        try writer.execute(sql: "INSERT INTO note VALUES (1)")
        _ = try await wakeUps.next()
        let (count, _) = try await read()
        #expect(count == .integer(1), "a read after the wake-up missed the commit notified")
        try replica.execute(sql: "SELECT pg_wal_replay_resume()")
    }

    /// A cluster of its own, whose replica's replay this test pauses: a read cancelled while it waits
    /// for the replica to replay the caller's write throws `CancellationError` and never runs its
    /// statement, as one cancelled while its statement runs does (the wait's polls are statements
    /// of their own, and a cancel between two of them stops none).
    @Test func aReadCancelledWhileWaitingForTheReplicaNeverRuns() async throws {
        let servers = try PostgreSQLServers.start(replicas: 1)
        defer { servers.stop() }
        let cluster = try await Self.patientCluster(primary: servers.primary, replicas: servers.replicas)
        defer { cluster.close() }
        let replica = try PostgreSQLConnection(url: servers.replicas[0])
        defer { replica.close() }
        try replica.execute(sql: "SELECT pg_wal_replay_pause()")
        try await cluster.write { db in try db.execute(sql: "INSERT INTO note VALUES (1)") }
        let ran = Atomic<Bool>(false)
        let read = Task {
            try await cluster.read { db in
                ran.store(true, ordering: .sequentiallyConsistent)
                return try db.scalar(sql: "SELECT count(*) FROM note, pg_sleep(5)")
            }
        }
        try await Task.sleep(for: .milliseconds(300))
        read.cancel()
        try await Task.sleep(for: .milliseconds(300))
        try replica.execute(sql: "SELECT pg_wal_replay_resume()")
        await #expect(throws: CancellationError.self) { try await read.value }
        let didRun = ran.load(ordering: .sequentiallyConsistent)
        #expect(!didRun, "the cancelled read ran its statement")
        // The cluster reads on, from the replica once it has replayed the write.
        #expect(try await cluster.read { db in try db.scalar(sql: "SELECT count(*) FROM note") } == .integer(1))
    }
}
