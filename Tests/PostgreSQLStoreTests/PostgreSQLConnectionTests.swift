import Foundation
import PostgreSQLStore
import StoreCore
import TestSupport
import Testing

/// libpq's connection: binding, reading, errors, transactions, COPY, notifications, cancellation.
/// PostgreSQL-only: these are the engine's own calls, below the engine-neutral seam.
@Suite struct PostgreSQLConnectionTests {
    @Test func valuesRoundTripThroughParametersAndColumns() throws {
        let schema = try TestSchema()
        let db = try schema.connect()
        try db.execute(sql: "CREATE TABLE t(i bigint, r double precision, s text, b bytea, f boolean)")
        let rows: [[DatabaseValue]] = [
            [.integer(Int64.max), .real(1.5), .text("tab\there\nnew 'quote' \\ é"), .blob(Data([0, 1, 255])), .integer(1)],
            [.integer(-1), .real(-0.1), .text(""), .blob(Data()), .integer(0)],
            [.null, .null, .null, .null, .null],
        ]
        for row in rows { try db.execute(sql: "INSERT INTO t VALUES ($1, $2, $3, $4, $5)", arguments: row) }
        #expect(try db.fetchAll(sql: "SELECT i, r, s, b, f FROM t ORDER BY i DESC NULLS LAST") == rows)
        // The same values through COPY.
        try db.execute(sql: "DELETE FROM t")
        #expect(try db.copy(into: "t", columns: ["i", "r", "s", "b", "f"], rows: rows) == 3)
        #expect(try db.fetchAll(sql: "SELECT i, r, s, b, f FROM t ORDER BY i DESC NULLS LAST") == rows)
    }

    /// COPY's text format escapes a text's backslashes, tabs, newlines and carriage returns wherever
    /// they are (first, last, in runs), and writes every integer's digits: the rows read back are
    /// the rows given, as through parameters.
    @Test func copyWritesEveryEscapeAndIntegerAsGiven() throws {
        let schema = try TestSchema()
        let db = try schema.connect()
        try db.execute(sql: "CREATE TABLE t(n bigint PRIMARY KEY, i bigint, s text)")
        let pieces = ["\\", "\t", "\n", "\r", "a", "é", "\\\\", "\t\n", " "]
        var random = SystemRandomNumberGenerator()
        let integers: [Int64] = [Int64.min, Int64.min + 1, -10, -1, 0, 9, 10, 99, 100, Int64.max]
        let rows: [[DatabaseValue]] = (0..<300).map { n in
            let text = (0..<Int.random(in: 0...6, using: &random)).map { _ in pieces.randomElement(using: &random)! }.joined()
            return [.integer(Int64(n)), .integer(integers[n % integers.count]), .text(text)]
        }
        #expect(try db.copy(into: "t", columns: ["n", "i", "s"], rows: rows) == rows.count)
        #expect(try db.fetchAll(sql: "SELECT n, i, s FROM t ORDER BY n") == rows)
    }

    @Test func aCopyWithARefusedRowLoadsNothing() throws {
        let schema = try TestSchema()
        let db = try schema.connect()
        try db.execute(sql: "CREATE TABLE t(id bigint PRIMARY KEY, name text NOT NULL)")
        let rows: [[DatabaseValue]] = (1...1000).map { [.integer($0), $0 == 700 ? .null : .text("n\($0)")] }
        let error = try #require(throws: PostgreSQLError.self) { try db.copy(into: "t", columns: ["id", "name"], rows: rows) }
        #expect(error.sqlState == "23502")  // not_null_violation
        #expect(try db.scalar(sql: "SELECT count(*) FROM t") == .integer(0))
        #expect(try db.copy(into: "t", columns: ["id", "name"], rows: rows.filter { $0[1] != .null }) == 999)
    }

    @Test func errorsCarrySQLStateAndTheServersMessage() throws {
        let schema = try TestSchema()
        let db = try schema.connect()
        try db.execute(sql: "CREATE TABLE t(id bigint PRIMARY KEY)")
        try db.execute(sql: "INSERT INTO t VALUES ($1)", arguments: [.integer(1)])
        let error = try #require(throws: PostgreSQLError.self) {
            try db.execute(sql: "INSERT INTO t VALUES ($1)", arguments: [.integer(1)])
        }
        #expect(error.sqlState == PostgreSQLError.uniqueViolation)
        #expect(error.message == #"duplicate key value violates unique constraint "t_pkey""#)
        #expect(error.description.hasPrefix("PostgreSQL error 23505: duplicate key value"))
    }

    @Test func anUnreachableServerIsOneClearLine() throws {
        let error = try #require(throws: PostgreSQLError.self) {
            try PostgreSQLConnection(url: "postgresql://postgres@127.0.0.1:1/postgres?connect_timeout=5")
        }
        #expect(error.sqlState == PostgreSQLError.cannotConnect)
        #expect(!error.message.contains("\n"))
        #expect(error.message.hasPrefix("cannot connect to PostgreSQL: connection to server at \"127.0.0.1\", port 1 failed"))
    }

    @Test func aFailedTransactionLeavesNothing() throws {
        let schema = try TestSchema()
        let db = try schema.connect()
        try db.execute(sql: "CREATE TABLE t(id bigint PRIMARY KEY)")
        #expect(throws: PostgreSQLError.self) {
            try db.inTransaction {
                try db.execute(sql: "INSERT INTO t VALUES (1)")
                try db.execute(sql: "INSERT INTO t VALUES (1)")
            }
        }
        // A statement that failed inside the body, its error swallowed: COMMIT rolls back, and says so.
        let error = try #require(throws: PostgreSQLError.self) {
            try db.inTransaction {
                try db.execute(sql: "INSERT INTO t VALUES (2)")
                _ = try? db.execute(sql: "INSERT INTO t VALUES (2)")
            }
        }
        #expect(error.sqlState == "25P02")
        #expect(!db.isInsideTransaction)
        #expect(try db.scalar(sql: "SELECT count(*) FROM t") == .integer(0))
    }

    @Test func notificationsArriveOnCommit() throws {
        let schema = try TestSchema()
        let listener = try schema.connect()
        let sender = try schema.connect()
        try listener.listen("changes")
        try sender.inTransaction {
            try sender.execute(sql: "SELECT pg_notify('changes', $1)", arguments: [.text("one")])
            #expect(try listener.notifications(waitingMilliseconds: 0).isEmpty)
        }
        var received: [PostgreSQLNotification] = []
        while received.isEmpty { received = try listener.notifications(waitingMilliseconds: 10_000) }
        #expect(received.map(\.payload) == ["one"])
        #expect(received.first?.senderProcessID == sender.backendProcessID)
    }

    /// A read-only transaction sends its BEGIN with its first statement and its COMMIT without
    /// waiting for the answer: it is still one READ ONLY, REPEATABLE READ transaction whatever its
    /// first call, and it has ended when `inTransaction` returns.
    @Test func aReadTransactionBeginsWithItsFirstStatementAndEndsOnReturn() throws {
        let schema = try TestSchema()
        let db = try schema.connect()
        let other = try schema.connect()
        try db.execute(sql: "CREATE TABLE t(id bigint PRIMARY KEY)")
        let writes: [() throws -> Void] = [
            { _ = try db.fetchAll(sql: "INSERT INTO t VALUES (1) RETURNING id") },
            { try db.execute(sql: "INSERT INTO t VALUES (1)") },
            { try db.copy(into: "t", columns: ["id"], rows: [[.integer(1)]]) },
        ]
        for write in writes {
            let error = try #require(throws: PostgreSQLError.self) { try db.inTransaction(readOnly: true) { try write() } }
            #expect(error.sqlState == "25006")  // read_only_sql_transaction
            #expect(!db.isInsideTransaction)
        }
        // One snapshot from the first statement on: a commit between two reads is not seen by the second.
        let counts = try db.inTransaction(readOnly: true) {
            let first = try db.scalar(sql: "SELECT count(*) FROM t")
            try other.execute(sql: "INSERT INTO t VALUES (2)")
            return [first, try db.scalar(sql: "SELECT count(*) FROM t")]
        }
        #expect(counts == [.integer(0), .integer(0)])
        #expect(!db.isInsideTransaction)
        // Ended on return: it holds no lock that another connection's ALTER TABLE would wait for.
        _ = try db.inTransaction(readOnly: true) { try db.fetchAll(sql: "SELECT id FROM t") }
        try other.execute(sql: "SET lock_timeout = '5s'")
        try other.execute(sql: "ALTER TABLE t ADD COLUMN c integer")
        // A statement that failed inside the body, its error swallowed: COMMIT says the transaction rolled back.
        let error = try #require(throws: PostgreSQLError.self) {
            try db.inTransaction(readOnly: true) { _ = try? db.fetchAll(sql: "SELECT 1 / 0") }
        }
        #expect(error.sqlState == "25P02")
        #expect(try db.fetchAll(sql: "SELECT id, c FROM t") == [[.integer(2), .null]])
    }

    /// A read whose first statement libpq refuses once its BEGIN was queued in the pipeline (more
    /// than 65,535 parameters) throws libpq's error, and leaves its connection out of the pipeline and
    /// of the transaction BEGIN opened: the next read on it works.
    @Test func aReadWhoseFirstStatementIsRefusedLeavesItsConnectionUsable() async throws {
        let schema = try TestSchema()
        let cluster = try PostgreSQLCluster(PostgreSQLConfiguration(primary: schema.primary))
        let arguments = [DatabaseValue](repeating: .integer(1), count: 65_536)
        let error = try await #require(throws: PostgreSQLError.self) {
            try await cluster.read { db in try db.fetchAll(sql: "SELECT $1", arguments: arguments) }
        }
        #expect(error.message == "number of parameters must be between 0 and 65535")
        for _ in 0..<2 {
            let value = try await Self.value(within: .seconds(60)) { try await cluster.read { db in try db.scalar(sql: "SELECT 1") ?? .null } }
            #expect(value == .integer(1))
            // A connection that hangs cannot be closed: its queue never runs the close.
            guard value != nil else { return }
        }
        cluster.close()
    }

    /// A read-only transaction's COMMIT is not waited for: when it fails (here a deferred trigger on
    /// a temporary table, which a read-only transaction may write), the transaction still returns its
    /// value, what it left to the commit is undone, and the next statement does not get the error.
    @Test func aReadTransactionsFailedCommitIsReportedToNoOne() throws {
        let schema = try TestSchema()
        let db = try schema.connect()
        try db.execute(
            sql: """
                CREATE TEMPORARY TABLE deferred(id integer);
                CREATE FUNCTION refuse() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION 'refused'; END $$;
                CREATE CONSTRAINT TRIGGER refuse AFTER INSERT ON deferred DEFERRABLE INITIALLY DEFERRED
                    FOR EACH ROW EXECUTE FUNCTION refuse()
                """)
        let value = try db.inTransaction(readOnly: true) {
            try db.execute(sql: "INSERT INTO deferred VALUES (1)")
            return try db.scalar(sql: "SELECT count(*) FROM deferred")
        }
        #expect(value == .integer(1))
        #expect(try db.scalar(sql: "SELECT count(*) FROM deferred") == .integer(0))
        #expect(!db.isInsideTransaction)
    }

    /// An access cancelled while its connection waits for the previous access's COMMIT sends none of
    /// its statements: the cancel reached that COMMIT (here slow: a deferred trigger sleeps), not them.
    @Test func anAccessCancelledBeforeItsFirstStatementSendsNone() async throws {
        let schema = try TestSchema()
        let cluster = try PostgreSQLCluster(PostgreSQLConfiguration(primary: schema.primary))
        defer { cluster.close() }
        // On the writer's connection (no replicas: nothing else runs there), a read-only transaction
        // whose COMMIT takes 600 s.
        let writerProcess = try await cluster.writeWithoutTransaction { db in
            try db.execute(
                sql: """
                    CREATE TEMPORARY TABLE deferred(id integer);
                    CREATE FUNCTION sleep_at_commit() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN PERFORM pg_sleep(600); RETURN NULL; END $$;
                    CREATE CONSTRAINT TRIGGER sleep_at_commit AFTER INSERT ON deferred DEFERRABLE INITIALLY DEFERRED
                        FOR EACH ROW EXECUTE FUNCTION sleep_at_commit()
                    """)
            try db.inTransaction(readOnly: true) { try db.execute(sql: "INSERT INTO deferred VALUES (1)") }
            return db.backendProcessID
        }
        // `next` is cancelled only once it has started: one cancelled before it reached the connection
        // would send nothing and leave the COMMIT's answer, 600 s later, to the check below.
        let (started, start) = AsyncStream.makeStream(of: Void.self)
        let next = Task {
            start.yield()
            return try await cluster.writeWithoutTransaction { db in try db.scalar(sql: "SELECT 1") ?? .null }
        }
        for await _ in started { break }
        // Cancelled once the COMMIT sleeps, and `next`, started before, waits for its answer.
        let observer = try schema.connect()
        while try observer.scalar(
            sql: "SELECT count(*) FROM pg_stat_activity WHERE pid = $1 AND query = 'COMMIT' AND wait_event = 'PgSleep'",
            arguments: [.integer(Int64(writerProcess))]) != .integer(1)
        {
            try await Task.sleep(for: .milliseconds(10))
        }
        try await Task.sleep(for: .milliseconds(200))
        next.cancel()
        await #expect(throws: CancellationError.self) { try await next.value }
        #expect(try await cluster.writeWithoutTransaction { db in try db.scalar(sql: "SELECT 1") } == .integer(1))
    }

    /// A read cancelled between two of its statements (`statementsBefore` 1), or in its body before
    /// the first (0), sends none after the cancel: `PQcancel` reaches only a statement running, and
    /// none runs then. The statement it must not send takes an advisory lock, which outlives the
    /// transaction, so the lock not held shows that it never ran. `readingRows`: that statement is a
    /// `fetchAll` (as the first, pipelined with BEGIN) or an `execute` (BEGIN sent before it).
    @Test(arguments: [0, 1], [false, true])
    func aReadCancelledBetweenItsStatementsSendsNoMore(statementsBefore: Int, readingRows: Bool) async throws {
        let schema = try TestSchema()
        let cluster = try PostgreSQLCluster(PostgreSQLConfiguration(primary: schema.primary))
        defer { cluster.close() }
        let readerProcess = try await cluster.read { db in db.backendProcessID }
        let key = DatabaseValue.integer(Int64.random(in: 1...Int64(Int32.max)))
        let (paused, pause) = AsyncStream.makeStream(of: Void.self)
        let resumed = DispatchSemaphore(value: 0)
        let read = Task {
            try await cluster.read { db in
                for _ in 0..<statementsBefore { _ = try db.scalar(sql: "SELECT 1") }
                pause.yield()
                resumed.wait()
                let lock = "SELECT pg_advisory_lock($1)"
                if readingRows { _ = try db.fetchAll(sql: lock, arguments: [key]) } else { try db.execute(sql: lock, arguments: [key]) }
            }
        }
        for await _ in paused { break }
        read.cancel()
        resumed.signal()
        await #expect(throws: CancellationError.self) { try await read.value }
        let observer = try schema.connect()
        let locks = try observer.scalar(
            sql: "SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND classid = 0 AND objid = $1", arguments: [key])
        #expect(locks == .integer(0), "the cancelled read ran its statement")
        // The connection is left idle, outside any transaction and pipeline, and reads on.
        let state = try observer.scalar(sql: "SELECT state FROM pg_stat_activity WHERE pid = $1", arguments: [.integer(Int64(readerProcess))])
        #expect(state == .text("idle"))
        #expect(try await cluster.read { db in try db.scalar(sql: "SELECT 1") } == .integer(1))
    }

    /// What `operation` returns, or nil when it has not returned within `limit` (it is left running).
    static func value<T: Sendable>(within limit: Duration, of operation: @escaping @Sendable () async throws -> T) async throws -> T? {
        let (answers, answer) = AsyncStream.makeStream(of: Result<T, any Error>?.self)
        Task {
            do { answer.yield(.success(try await operation())) } catch { answer.yield(.failure(error)) }
        }
        Task {
            try? await Task.sleep(for: limit)
            answer.yield(nil)
        }
        for await first in answers { return try first?.get() }
        return nil
    }

    /// Whether the statement reads rows (its BEGIN pipelined with it) or not (BEGIN sent before it).
    @Test(arguments: [false, true])
    func aCancelledReadStopsItsStatementOnTheServer(readingRows: Bool) async throws {
        let schema = try TestSchema()
        let cluster = try PostgreSQLCluster(PostgreSQLConfiguration(primary: schema.primary))
        defer { cluster.close() }
        // Each case's own statement, for the observer to find while the other case runs.
        let sleep = "SELECT pg_sleep(\(readingRows ? 601 : 600))"
        let sleeper = Task {
            try await cluster.read { db in
                if readingRows { _ = try db.fetchAll(sql: sleep) } else { try db.execute(sql: sleep) }
            }
        }
        // Cancelled once the statement runs on the server.
        let observer = try schema.connect()
        while try observer.scalar(
            sql: "SELECT count(*) FROM pg_stat_activity WHERE query = $1 AND state = 'active'", arguments: [.text(sleep)]) != .integer(1)
        {
            try await Task.sleep(for: .milliseconds(10))
        }
        sleeper.cancel()
        // Only the server's cancellation ends the read before pg_sleep's 600 s; it throws CancellationError.
        await #expect(throws: CancellationError.self) { try await sleeper.value }
        #expect(try await cluster.read { db in try db.scalar(sql: "SELECT 1") } == .integer(1))
    }
}
