import CPostgreSQL

/// An error from PostgreSQL or from reaching it: its SQLSTATE code, the server's message, and the SQL
/// that failed.
///
/// ```swift
/// do {
///     try db.execute(sql: "INSERT INTO note(id) VALUES ($1)", arguments: [.integer(1)])
/// } catch let error as PostgreSQLError where error.sqlState == PostgreSQLError.uniqueViolation {
///     print("already there")
/// }
/// ```
///
/// A server that cannot be reached gives one line, `08001`: "cannot connect to PostgreSQL: connection
/// to server at "127.0.0.1", port 5432 failed: Connection refused", without libpq's hint lines.
///
/// Related PostgreSQL documentation: <https://www.postgresql.org/docs/15/errcodes-appendix.html>
public struct PostgreSQLError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The five-character SQLSTATE code (`23505`, `57014`…).
    public let sqlState: String
    /// The server's primary message (or libpq's, for a connection that failed), on one line.
    public let message: String
    /// The SQL that failed, when a statement did.
    public let sql: String?

    /// Creates an error.
    public init(sqlState: String, message: String, sql: String? = nil) {
        self.sqlState = sqlState
        self.message = message
        self.sql = sql
    }

    /// `08001`: the connection could not be made.
    public static let cannotConnect = "08001"
    /// `08006`: the connection was lost, or is closed.
    public static let connectionFailure = "08006"
    /// `23505`: a unique or primary-key constraint was violated.
    public static let uniqueViolation = "23505"
    /// `40001`: a serializable transaction could not be serialized; retry it.
    public static let serializationFailure = "40001"
    /// `57014`: the statement was cancelled (by `PQcancel`, or a statement timeout).
    public static let queryCanceled = "57014"
    /// `XX000`: what libpq reports without a code of the server's.
    public static let internalError = "XX000"

    public var description: String {
        let text = "PostgreSQL error \(sqlState): \(message)"
        guard let sql else { return text }
        return text + " - while executing `\(sql)`"
    }

    /// The error a failed result describes, or the connection's message when it has none.
    init(result: OpaquePointer?, connection: OpaquePointer?, sql: String?) {
        let state = result.flatMap { PQresultErrorField($0, Int32(UInt8(ascii: "C"))) }.map { String(cString: $0) }
        let primary = result.flatMap { PQresultErrorField($0, Int32(UInt8(ascii: "M"))) }.map { String(cString: $0) }
        let message = primary ?? connection.flatMap { PQerrorMessage($0) }.map { String(cString: $0) } ?? "unknown error"
        let lost = connection.map { PQstatus($0) != CONNECTION_OK } ?? true
        self.init(
            sqlState: state ?? (lost ? Self.connectionFailure : Self.internalError), message: Self.firstLine(message), sql: sql)
    }

    /// The first line of libpq's message: it adds hint lines and a trailing newline.
    static func firstLine(_ message: String) -> String {
        var line = message.split(whereSeparator: \.isNewline).first.map(String.init) ?? message
        while line.last == " " || line.last == "\t" { line.removeLast() }
        return line
    }
}
