import Foundation
import SQLiteStore
import Synchronization
import TestSupport
import Testing

/// Cancelling the task of an `async` access interrupts its statement, throws `CancellationError`,
/// rolls a write back, and leaves the connection usable: for a pool and for a queue.
/// SQLite-only: `sqlite3_interrupt` (PostgreSQL's `PQcancel`: PostgreSQLConnectionTests, SearchOnBothEnginesTests).
@Suite(.timeLimit(.minutes(10)))  // generous: a loaded machine can starve the cooperative pool for minutes
struct CancellationTests {
    enum Kind: CaseIterable, CustomStringConvertible {
        case pool, queue
        var description: String { self == .pool ? "pool" : "queue" }
    }

    let directory: TemporaryDirectory

    init() throws {
        directory = try TemporaryDirectory()
    }

    func open(_ kind: Kind) throws -> any DatabaseWriter {
        let writer: any DatabaseWriter = switch kind {
        case .pool: try DatabasePool(path: directory.path())
        case .queue: try DatabaseQueue(path: directory.path())
        }
        try writer.write { db in try db.execute(sql: "CREATE TABLE t(id INTEGER PRIMARY KEY, v TEXT)") }
        return writer
    }

    /// A query that never ends on its own: counting the rows of an endless recursive CTE.
    static let endlessQuery = "WITH RECURSIVE n(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM n) SELECT count(*) FROM n"

    /// Starts `body` in a task, waits until it reports that it is running, cancels the task, signals
    /// `cancelled`, and returns what the task threw.
    func cancelWhileRunning(
        cancelled: DispatchSemaphore = DispatchSemaphore(value: 0),
        _ body: @escaping @Sendable (_ started: @escaping @Sendable () -> Void) async throws -> Void
    ) async -> (any Error)? {
        let (started, startedInput) = AsyncStream.makeStream(of: Void.self)
        let task = Task { try await body { startedInput.yield() } }
        for await _ in started { break }
        task.cancel()
        cancelled.signal()
        do {
            try await task.value
            return nil
        } catch {
            return error
        }
    }

    @Test(arguments: Kind.allCases) func aCancelledReadStopsItsQueryAndTheConnectionStaysUsable(kind: Kind) async throws {
        let writer = try open(kind)
        let error = await cancelWhileRunning { started in
            _ = try await writer.read { db in
                started()
                return try db.scalar(Int.self, sql: Self.endlessQuery)
            }
        }
        #expect(error is CancellationError)
        #expect(try await writer.read { db in try db.scalar(Int.self, sql: "SELECT count(*) FROM t") } == 0)
        #expect(try await writer.writeWithoutTransaction { db in db.isInsideTransaction } == false)
    }

    @Test(arguments: Kind.allCases) func aCancelledWriteLeavesNothing(kind: Kind) async throws {
        let writer = try open(kind)
        let error = await cancelWhileRunning { started in
            try await writer.write { db in
                try db.execute(sql: "INSERT INTO t(v) VALUES ('a'), ('b')")
                started()
                _ = try db.scalar(Int.self, sql: Self.endlessQuery)
            }
        }
        #expect(error is CancellationError)
        #expect(try await writer.read { db in try db.scalar(Int.self, sql: "SELECT count(*) FROM t") } == 0)
        // The writer is usable and outside any transaction.
        try await writer.write { db in try db.execute(sql: "INSERT INTO t(v) VALUES ('c')") }
        #expect(try await writer.read { db in try db.scalar(Int.self, sql: "SELECT count(*) FROM t") } == 1)
    }

    @Test(arguments: Kind.allCases) func aWriteCancelledBetweenStatementsRollsBack(kind: Kind) async throws {
        // No statement is running when the task is cancelled: the write still must not commit.
        let writer = try open(kind)
        let cancelled = DispatchSemaphore(value: 0)
        let error = await cancelWhileRunning(cancelled: cancelled) { started in
            try await writer.write { db in
                try db.execute(sql: "INSERT INTO t(v) VALUES ('a')")
                started()
                cancelled.wait()
            }
        }
        #expect(error is CancellationError)
        #expect(try await writer.read { db in try db.scalar(Int.self, sql: "SELECT count(*) FROM t") } == 0)
    }

    /// A read cancelled between two of its statements runs none after the cancel: the progress
    /// handler sees the cancel only inside a statement, after its first thousand instructions, and a
    /// short one ends sooner. Its second statement calls a function that records the call.
    /// `executes`: that statement is run by `execute` (a script) or by a cached statement.
    @Test(arguments: Kind.allCases, [false, true])
    func aReadCancelledBetweenItsStatementsRunsNoMore(kind: Kind, executes: Bool) async throws {
        let writer = try open(kind)
        let calls = Gauge()
        let cancelled = DispatchSemaphore(value: 0)
        let error = await cancelWhileRunning(cancelled: cancelled) { started in
            _ = try await writer.read { db in
                try db.createFunction("record_call", isDeterministic: false) { () -> Int in
                    calls.enter()
                    return 1
                }
                _ = try db.scalar(Int.self, sql: "SELECT count(*) FROM t")
                started()
                cancelled.wait()
                if executes { try db.execute(sql: "SELECT record_call()") } else { _ = try db.scalar(Int.self, sql: "SELECT record_call()") }
            }
        }
        #expect(error is CancellationError)
        #expect(calls.highest == 0, "the cancelled read ran its statement")
        #expect(try await writer.read { db in try db.scalar(Int.self, sql: "SELECT count(*) FROM t") } == 0)
    }

    @Test(arguments: Kind.allCases) func anAccessOfACancelledTaskNeverRuns(kind: Kind) async throws {
        let writer = try open(kind)
        let ran = Gauge()
        let task = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            try await writer.write { db in
                ran.enter()
                try db.execute(sql: "INSERT INTO t(v) VALUES ('a')")
            }
        }
        await #expect(throws: CancellationError.self) { try await task.value }
        #expect(ran.highest == 0)
        #expect(try await writer.read { db in try db.scalar(Int.self, sql: "SELECT count(*) FROM t") } == 0)
    }

    @Test func aReadWaitingForABusyPoolCanBeCancelled() async throws {
        let pool = try DatabasePool(path: directory.path(), maximumReaderCount: 1)
        let (started, startedInput) = AsyncStream.makeStream(of: Void.self)
        let holder = Task {
            try await pool.read { db in
                startedInput.yield()
                return try db.scalar(Int.self, sql: Self.endlessQuery)
            }
        }
        for await _ in started { break }
        let waiter = Task { try await pool.read { db in try db.scalar(Int.self, sql: "SELECT 1") } }
        waiter.cancel()
        await #expect(throws: CancellationError.self) { try await waiter.value }
        holder.cancel()
        await #expect(throws: CancellationError.self) { try await holder.value }
        #expect(try await pool.read { db in try db.scalar(Int.self, sql: "SELECT 2") } == 2)
    }

    /// A synchronous read (from an async context, overload resolution would pick the async one).
    static func answer(_ reader: any DatabaseReader) throws -> Int? {
        try reader.read { db in try db.scalar(Int.self, sql: "SELECT 41 + 1") }
    }

    @Test func synchronousAccessIsNotCancellable() async throws {
        // The synchronous API belongs to the calling thread: a cancelled task's sync call still runs.
        let writer = try open(.pool)
        let task = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return try Self.answer(writer)
        }
        #expect(try await task.value == 42)
    }
}

/// An instruction limit interrupts a statement that runs past it (nil), lets one within it finish,
/// and leaves the read transaction and the connection as they were.
struct InstructionLimitTests {
    @Test func aStatementPastTheLimitIsInterruptedAndTheReadGoesOn() throws {
        let directory = try TemporaryDirectory()
        let queue = try DatabaseQueue(path: directory.path())
        try queue.write { db in try db.execute(sql: "CREATE TABLE t(id INTEGER PRIMARY KEY); INSERT INTO t VALUES (1), (2)") }
        try queue.read { db in
            let endless = try db.withInstructionLimit(100_000) { try db.scalar(Int.self, sql: CancellationTests.endlessQuery) }
            #expect(endless == nil)
            let counted = try db.withInstructionLimit(100_000) {
                try db.scalar(Int.self, sql: "WITH RECURSIVE n(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM n WHERE x < 100) SELECT count(*) FROM n")
            }
            #expect(counted == 100)
            // The limit is gone, and the transaction still reads.
            #expect(try db.scalar(Int.self, sql: "SELECT count(*) FROM t") == 2)
            #expect(db.isInsideTransaction)
        }
        // Other errors are still thrown.
        #expect(throws: DatabaseError.self) {
            try queue.read { db in _ = try db.withInstructionLimit(100_000) { try db.scalar(Int.self, sql: "SELECT * FROM missing") } }
        }
    }
}
