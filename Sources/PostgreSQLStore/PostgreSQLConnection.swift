import CPostgreSQL
import StoreCore

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
/// cancelled task's statement on the server with `PQcancel`, the one call made from another thread.
///
/// Related PostgreSQL documentation: <https://www.postgresql.org/docs/15/libpq.html>
public final class PostgreSQLConnection {
    /// The libpq handle; nil once closed.
    private(set) var handle: OpaquePointer?
    /// What stops this connection's running statement from another thread.
    let canceller: StatementCanceller

    /// Connects to the server at `url` (`postgresql://user@host:port/database`, or libpq's
    /// `key=value` form).
    ///
    /// - Throws: ``PostgreSQLError`` with ``PostgreSQLError/cannotConnect`` and libpq's reason, on one
    ///   line; also when libpq itself cannot be loaded (it is loaded by the first connection).
    public init(url: String) throws {
        if let failure = CPostgreSQLLoadFailure() {
            throw PostgreSQLError(
                sqlState: PostgreSQLError.cannotConnect, message: "cannot connect to PostgreSQL: " + String(cString: failure))
        }
        let handle = PQconnectdb(url)
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
        PQfinish(handle)
        handle = nil
    }

    /// Whether the connection is open and usable (not closed, not lost).
    public var isUsable: Bool { handle.map { PQstatus($0) == CONNECTION_OK } ?? false }

    /// Whether a transaction is open (or failed and not yet rolled back).
    public var isInsideTransaction: Bool {
        guard let handle else { return false }
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
    /// values, in one array reused from row to row.
    func forEachRow(sql: String, arguments: [DatabaseValue], _ body: (_ columnNames: [String], _ row: [DatabaseValue]) throws -> Void) throws {
        let result = try run(sql: sql, arguments: arguments)
        defer { PQclear(result) }
        let rowCount = PQntuples(result)
        let columnCount = PQnfields(result)
        guard rowCount > 0 else { return }
        let types = (0..<columnCount).map { PQftype(result, $0) }
        let names = (0..<columnCount).map { PQfname(result, $0).map { String(cString: $0) } ?? "" }
        var values: [DatabaseValue] = []
        values.reserveCapacity(Int(columnCount))
        for rowIndex in 0..<rowCount {
            values.removeAll(keepingCapacity: true)
            for column in 0..<columnCount {
                values.append(Self.value(of: result, row: rowIndex, column: column, type: types[Int(column)]))
            }
            try body(names, values)
        }
    }

    /// The first column of the first row, or nil when there is no row (or it is NULL).
    public func scalar(sql: String, arguments: [DatabaseValue] = []) throws -> DatabaseValue? {
        let value = try fetchAll(sql: sql, arguments: arguments).first?.first
        return value == .null ? nil : value
    }

    /// Runs one statement (or, without arguments, a script) and returns its successful result.
    func run(sql: String, arguments: [DatabaseValue]) throws -> OpaquePointer {
        guard let handle else {
            throw PostgreSQLError(sqlState: PostgreSQLError.connectionFailure, message: "the connection is closed", sql: sql)
        }
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
    /// - Throws: what `body` throws (after rolling back), or ``PostgreSQLError``.
    public func inTransaction<T>(readOnly: Bool = false, _ body: () throws -> T) throws -> T {
        try execute(sql: readOnly ? "BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY" : "BEGIN")
        let value: T
        do {
            value = try body()
        } catch {
            if isInsideTransaction { try? execute(sql: "ROLLBACK") }
            throw error
        }
        let result: OpaquePointer
        do {
            result = try run(sql: "COMMIT", arguments: [])
        } catch {
            if isInsideTransaction { try? execute(sql: "ROLLBACK") }
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
}

/// What stops a connection's running statement: libpq's `PGcancel`, made at connection, since
/// `PQgetCancel` may not run while a statement does; `PQcancel` on it may, from any thread.
final class StatementCanceller: @unchecked Sendable {
    // Why `@unchecked Sendable`: `PQcancel` is documented thread-safe on a `PGcancel`, and nothing else
    // touches it but `deinit`.
    private let pgCancel: OpaquePointer?

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
