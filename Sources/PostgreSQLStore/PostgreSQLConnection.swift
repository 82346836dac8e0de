import CPostgreSQL
import StoreCore
import Synchronization

/// One libpq connection to a PostgreSQL server: statements with `$n` parameters bound from
/// `DatabaseValue`s, rows read back as `DatabaseValue`s, transactions, COPY and notifications.
///
/// ```swift
/// let db = try PostgreSQLConnection(url: "postgresql://postgres@127.0.0.1:54320/postgres")
/// try db.execute(sql: "CREATE TABLE note(id bigint PRIMARY KEY, text text NOT NULL)")
/// try db.execute(sql: "INSERT INTO note VALUES ($1, $2)", arguments: [.integer(1), .text("hello")])
/// let texts = try db.fetchAll(sql: "SELECT text FROM note WHERE id = $1", arguments: [.integer(1)])
/// ```
///
/// Every libpq call blocks its thread until the server answers; a ``PostgreSQLCluster`` runs each
/// connection on a serial dispatch queue of its own, off Swift's cooperative pool, and stops a
/// cancelled task's statement on the server with `PQcancel`, the one call made from another thread
/// (and the statements after it, which the connection then does not send).
///
/// A read-only transaction (``inTransaction(readOnly:_:)``) costs no round trip of its own: its
/// `BEGIN` goes to the server in one pipeline with its first statement, and its `COMMIT` is sent
/// without waiting, its answer read before the connection's next use (W4 on PostgreSQL).
///
/// Related PostgreSQL documentation: <https://www.postgresql.org/docs/15/libpq.html>
public final class PostgreSQLConnection {
    /// The libpq handle; nil once closed. Used through ``idleHandle(for:)``, or ``forEachRow(sql:arguments:_:)``.
    private var handle: OpaquePointer?
    /// The `BEGIN` of a read-only transaction whose first statement has not been sent yet: it goes in
    /// one pipeline with that statement.
    private var unsentBegin: String?
    /// Whether the `COMMIT` of a read-only transaction was sent and its answer is not read yet.
    private var commitUnread = false
    /// What stops this connection's statements from another thread.
    let canceller: StatementCanceller
    /// Whether statements are sent even once the canceller was cancelled: while a transaction is
    /// rolled back, or work that must follow a commit runs (``evenIfCancelled(_:)``).
    private var sendsWhenCancelled = false

    /// Connects to the server at `url` (`postgresql://user@host:port/database`, or libpq's
    /// `key=value` form).
    ///
    /// - Throws: ``PostgreSQLError`` with ``PostgreSQLError/cannotConnect`` and libpq's reason, on one
    ///   line; also when libpq itself cannot be loaded (it is loaded by the first connection).
    public convenience init(url: String) throws {
        try Self.checkLibpqLoaded()
        try self.init(connected: PQconnectdb(url))
    }

    /// Throws ``PostgreSQLError/cannotConnect`` when libpq cannot be loaded.
    static func checkLibpqLoaded() throws {
        if let failure = CPostgreSQLLoadFailure() {
            throw PostgreSQLError(
                sqlState: PostgreSQLError.cannotConnect, message: "cannot connect to PostgreSQL: " + String(cString: failure))
        }
    }

    /// Takes over `handle`, a connect's result: throws libpq's reason, on one line, unless connected.
    init(connected handle: OpaquePointer?) throws {
        guard let handle, PQstatus(handle) == CONNECTION_OK else {
            let reason = handle.flatMap { PQerrorMessage($0) }.map { String(cString: $0) } ?? "out of memory"
            PQfinish(handle)
            throw PostgreSQLError(
                sqlState: PostgreSQLError.cannotConnect, message: "cannot connect to PostgreSQL: " + PostgreSQLError.firstLine(reason))
        }
        self.handle = handle
        canceller = StatementCanceller(handle: handle)
        // NOTICE messages (like "relation already exists, skipping") are not errors: not printed.
        PQsetNoticeProcessor(handle, { _, _ in }, nil)
    }

    deinit { close() }

    /// Closes the connection; later statements throw ``PostgreSQLError/connectionFailure``.
    public func close() {
        (unsentBegin, commitUnread) = (nil, false)
        PQfinish(handle)
        handle = nil
    }

    /// Whether the connection is open and usable (not closed, not lost).
    public var isUsable: Bool { handle.map { PQstatus($0) == CONNECTION_OK } ?? false }

    /// Whether a transaction is open (or failed and not yet rolled back).
    public var isInsideTransaction: Bool {
        readSentCommit()
        guard let handle else { return false }
        if unsentBegin != nil { return true }
        let status = PQtransactionStatus(handle)
        return status == PQTRANS_INTRANS || status == PQTRANS_INERROR || status == PQTRANS_ACTIVE
    }

    /// The server's process id for this connection (`pg_backend_pid()`).
    public var backendProcessID: Int32 { handle.map { PQbackendPID($0) } ?? 0 }

    // MARK: - Statements

    /// Runs `sql`: without arguments, any number of statements separated by `;`; with arguments, one
    /// statement whose `$1`, `$2`… are bound to them.
    ///
    /// - Throws: ``PostgreSQLError``.
    public func execute(sql: String, arguments: [DatabaseValue] = []) throws {
        let result = try run(sql: sql, arguments: arguments)
        PQclear(result)
    }

    /// The rows of one statement, each as its columns' values.
    ///
    /// Integers (`smallint`, `integer`, `bigint`) are `.integer`, `real`, `double precision` and
    /// `numeric` are `.real`, `boolean` is `.integer` 1 or 0 (as SQLite stores it), `bytea` is `.blob`,
    /// every other type is its text.
    ///
    /// - Throws: ``PostgreSQLError``.
    public func fetchAll(sql: String, arguments: [DatabaseValue] = []) throws -> [[DatabaseValue]] {
        try fetchAll(sql: sql, arguments: arguments) { $0 }
    }

    /// The rows of one statement, each made into a value by `row`.
    public func fetchAll<T>(sql: String, arguments: [DatabaseValue] = [], _ row: ([DatabaseValue]) throws -> T) throws -> [T] {
        var rows: [T] = []
        try forEachRow(sql: sql, arguments: arguments) { _, values in rows.append(try row(values)) }
        return rows
    }

    /// Runs one statement with `$n` parameters and calls `body` with its column names and each row's
    /// values, in one array reused from row to row, as the server sends them: libpq's single-row
    /// mode holds one row at a time, not the whole result (faster, too, than a cursor fetched in
    /// batches: the commit adding it measured both over 1M rows).
    ///
    /// - Throws: ``PostgreSQLError`` (also when the statement fails after some rows were handed on),
    ///   or what `body` throws, after the rest of the statement was cancelled and discarded.
    func forEachRow(sql: String, arguments: [DatabaseValue], _ body: (_ columnNames: [String], _ row: [DatabaseValue]) throws -> Void) throws {
        readSentCommit()
        guard let handle else {
            throw PostgreSQLError(sqlState: PostgreSQLError.connectionFailure, message: "the connection is closed", sql: sql)
        }
        try checkNotCancelled(sql)
        // A read-only transaction's unsent BEGIN goes first, in one pipeline: one round trip for both.
        let begin = unsentBegin
        unsentBegin = nil
        if let begin {
            guard PQenterPipelineMode(handle) == 1 else { throw PostgreSQLError(result: nil, connection: handle, sql: begin) }
            guard PQsendQueryParams(handle, begin, 0, nil, nil, nil, nil, 0) == 1 else {
                let error = PostgreSQLError(result: nil, connection: handle, sql: begin)
                try? endPipeline(synced: false)
                throw error
            }
        }
        let sent = Self.withParameters(arguments) { types, values, lengths, formats in
            PQsendQueryParams(handle, sql, Int32(arguments.count), types, values, lengths, formats, 0)
        }
        guard sent == 1, begin == nil || PQpipelineSync(handle) == 1 else {
            // libpq refused the statement (more than 65,535 parameters, say) after BEGIN was queued:
            // BEGIN runs, and the caller's rollback ends its transaction.
            let error = PostgreSQLError(result: nil, connection: handle, sql: sql)
            if begin != nil { try? endPipeline(synced: false) }
            throw error
        }
        var failure: (any Error)?
        if let begin {
            // BEGIN's answer; when it failed, the statement is skipped (PGRES_PIPELINE_ABORTED).
            while let result = PQgetResult(handle) {
                failure = failure ?? Self.failure(ofBegin: begin, result, handle)
                PQclear(result)
            }
        }
        PQsetSingleRowMode(handle)
        // The connection takes its next statement only once every result of this one was read.
        var names: [String]?
        var types: [Oid] = []
        var values: [DatabaseValue] = []
        while let result = PQgetResult(handle) {
            defer { PQclear(result) }
            guard failure == nil else { continue }
            switch PQresultStatus(result) {
            case PGRES_SINGLE_TUPLE:
                if names == nil {
                    let columnCount = PQnfields(result)
                    types = (0..<columnCount).map { PQftype(result, $0) }
                    names = (0..<columnCount).map { PQfname(result, $0).map { String(cString: $0) } ?? "" }
                    values.reserveCapacity(Int(columnCount))
                }
                values.removeAll(keepingCapacity: true)
                for column in types.indices {
                    values.append(Self.value(of: result, row: 0, column: Int32(column), type: types[column]))
                }
                do {
                    try body(names!, values)
                } catch {
                    // The rows left are not wanted: the server stops sending them.
                    failure = error
                    canceller.cancel()
                }
            case PGRES_TUPLES_OK, PGRES_COMMAND_OK, PGRES_EMPTY_QUERY:
                break
            default:
                failure = PostgreSQLError(result: result, connection: handle, sql: sql)
            }
        }
        if begin != nil {
            do { try endPipeline() } catch { failure = failure ?? error }
        }
        if let failure { throw failure }
    }

    /// Ends a pipeline: reads its results up to its sync point (sent here unless `synced`) and
    /// leaves pipeline mode.
    ///
    /// - Throws: ``PostgreSQLError/connectionFailure`` when it cannot leave pipeline mode: the
    ///   connection is then closed, never left half in it.
    private func endPipeline(synced: Bool = true) throws {
        guard let handle else { return }
        if synced || PQpipelineSync(handle) == 1 {
            // Each statement's results end with a NULL: the sync point's own result comes after them.
            while PQstatus(handle) == CONNECTION_OK {
                guard let result = PQgetResult(handle) else { continue }
                let status = PQresultStatus(result)
                PQclear(result)
                if status == PGRES_PIPELINE_SYNC { break }
            }
        }
        guard PQexitPipelineMode(handle) == 1 else {
            close()
            throw PostgreSQLError(
                sqlState: PostgreSQLError.connectionFailure, message: "the connection was closed: libpq could not end its pipeline")
        }
    }

    /// The first column of the first row, or nil when there is no row (or it is NULL).
    public func scalar(sql: String, arguments: [DatabaseValue] = []) throws -> DatabaseValue? {
        let value = try fetchAll(sql: sql, arguments: arguments).first?.first
        return value == .null ? nil : value
    }

    /// Runs one statement (or, without arguments, a script) and returns its successful result.
    func run(sql: String, arguments: [DatabaseValue]) throws -> OpaquePointer {
        let handle = try idleHandle(for: sql)
        let result: OpaquePointer? =
            arguments.isEmpty ? PQexec(handle, sql) : Self.withParameters(arguments) { types, values, lengths, formats in
                PQexecParams(handle, sql, Int32(arguments.count), types, values, lengths, formats, 0)
            }
        switch result.map(PQresultStatus) {
        case PGRES_COMMAND_OK, PGRES_TUPLES_OK, PGRES_EMPTY_QUERY:
            return result!
        default:
            let error = PostgreSQLError(result: result, connection: handle, sql: sql)
            PQclear(result)
            throw error
        }
    }

    // MARK: - Transactions

    /// Runs `body` in a transaction: committed when it returns, rolled back when it throws.
    ///
    /// `readOnly` transactions run at REPEATABLE READ: every statement of `body` sees one snapshot, as
    /// a SQLite read does. Writing ones run at PostgreSQL's default, READ COMMITTED.
    ///
    /// A read-only transaction's `BEGIN` is sent with its first statement, and its `COMMIT` without
    /// waiting for the answer, read before the connection's next use: once its statements succeeded,
    /// a read-only transaction has read what it read whatever that answer. A failed `COMMIT` is
    /// therefore reported to no one: a lost connection is found by the next use, but work that
    /// `body` left to the commit (a `NOTIFY`, a deferred trigger on a temporary table) is undone
    /// without a word, so it belongs in a writing transaction. One whose statement failed (and
    /// `body` went on) waits for the answer, as a writing one does.
    ///
    /// - Throws: what `body` throws (after rolling back), or ``PostgreSQLError``.
    public func inTransaction<T>(readOnly: Bool = false, _ body: () throws -> T) throws -> T {
        let begin = readOnly ? "BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY" : "BEGIN"
        if readOnly {
            readSentCommit()
            unsentBegin = begin
        } else {
            try execute(sql: begin)
        }
        let value: T
        do {
            value = try body()
        } catch {
            if unsentBegin != nil {
                unsentBegin = nil
            } else {
                rollBack()
            }
            throw error
        }
        if readOnly {
            // Nothing was sent: nothing to end.
            if unsentBegin != nil {
                unsentBegin = nil
                return value
            }
            if let handle, PQtransactionStatus(handle) == PQTRANS_INTRANS, PQsendQuery(handle, "COMMIT") == 1 {
                commitUnread = true
                return value
            }
        }
        let result: OpaquePointer
        do {
            result = try run(sql: "COMMIT", arguments: [])
        } catch {
            rollBack()
            throw error
        }
        defer { PQclear(result) }
        // COMMIT of a transaction that a failed statement aborted rolls it back, and says so only
        // in its command tag.
        if String(cString: PQcmdStatus(result)) == "ROLLBACK" {
            throw PostgreSQLError(
                sqlState: "25P02", message: "the transaction was rolled back: one of its statements failed", sql: "COMMIT")
        }
        return value
    }

    /// The handle, idle and inside the transaction begun, for a statement `sql` (nil: none): a sent COMMIT's
    /// answer read, a read-only transaction's unsent BEGIN run.
    ///
    /// - Throws: ``PostgreSQLError`` when the connection is closed, or the BEGIN fails.
    func idleHandle(for sql: String?) throws -> OpaquePointer {
        readSentCommit()
        guard let handle else {
            throw PostgreSQLError(sqlState: PostgreSQLError.connectionFailure, message: "the connection is closed", sql: sql)
        }
        try checkNotCancelled(sql)
        if let begin = unsentBegin {
            unsentBegin = nil
            let result = PQexec(handle, begin)
            defer { PQclear(result) }
            if let failure = Self.failure(ofBegin: begin, result, handle) { throw failure }
        }
        return handle
    }

    /// Rolls back the transaction open, if any, even once the canceller was cancelled: the connection
    /// is left outside any transaction for its next use.
    private func rollBack() {
        if isInsideTransaction { evenIfCancelled { try? execute(sql: "ROLLBACK") } }
    }

    /// Runs `body`, whose statements are sent even once the canceller was cancelled: for what must
    /// follow a commit that stands.
    func evenIfCancelled<T>(_ body: () throws -> T) rethrows -> T {
        let sent = sendsWhenCancelled
        sendsWhenCancelled = true
        defer { sendsWhenCancelled = sent }
        return try body()
    }

    /// Throws what a statement stopped by the canceller throws (``PostgreSQLError/queryCanceled``),
    /// instead of sending `sql`, once the canceller was cancelled: `PQcancel` stops only the
    /// statement running when it arrives, so the statements after it are stopped here.
    private func checkNotCancelled(_ sql: String?) throws {
        guard !sendsWhenCancelled, canceller.isCancelled.load(ordering: .sequentiallyConsistent) else { return }
        throw PostgreSQLError(
            sqlState: PostgreSQLError.queryCanceled, message: "the statement was not sent: its task was cancelled", sql: sql)
    }

    /// What a read-only transaction's `BEGIN` failed with, given its answer `result` (sent alone, or
    /// in a pipeline with the transaction's first statement); nil when it began the transaction.
    private static func failure(ofBegin begin: String, _ result: OpaquePointer?, _ handle: OpaquePointer) -> PostgreSQLError? {
        PQresultStatus(result) == PGRES_COMMAND_OK ? nil : PostgreSQLError(result: result, connection: handle, sql: begin)
    }

    /// Reads the answer to a read-only transaction's COMMIT sent without waiting, and drops it: its
    /// reads stand whatever it says; a lost connection is reported by the next statement, a failure
    /// of work left to the commit by no one (``inTransaction(readOnly:_:)``).
    func readSentCommit() {
        guard commitUnread, let handle else { return }
        commitUnread = false
        while let result = PQgetResult(handle) { PQclear(result) }
    }
}

/// What stops a connection's statements from another thread: the running one with libpq's
/// `PGcancel`, made at connection, since `PQgetCancel` may not run while a statement does; `PQcancel`
/// on it may, from any thread. The statements not sent yet, with ``isCancelled``.
final class StatementCanceller: @unchecked Sendable {
    // Why `@unchecked Sendable`: `PQcancel` is documented thread-safe on a `PGcancel`, and nothing else
    // touches it but `deinit`; `isCancelled` is atomic.
    private let pgCancel: OpaquePointer?
    /// Whether the work the connection runs now was cancelled: it then sends no more statements. Set
    /// and cleared by the connection's owner, which knows where one piece of work ends.
    let isCancelled = Atomic<Bool>(false)

    init(handle: OpaquePointer) { pgCancel = PQgetCancel(handle) }

    deinit { if let pgCancel { PQfreeCancel(pgCancel) } }

    /// Sends the server a request to cancel the statement the connection is running, if any.
    ///
    /// Related PostgreSQL documentation: <https://www.postgresql.org/docs/15/libpq-cancel.html>
    func cancel() {
        guard let pgCancel else { return }
        var buffer = [CChar](repeating: 0, count: 256)
        _ = PQcancel(pgCancel, &buffer, Int32(buffer.count))
    }
}

// Used on one thread at a time (a PostgreSQLCluster's serial queue), as libpq requires of a PGconn;
// only its StatementCanceller is used from elsewhere.
@available(*, unavailable)
extension PostgreSQLConnection: Sendable {}
