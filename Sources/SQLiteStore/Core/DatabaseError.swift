/// An error reported by SQLite, with its extended result code, its message and the SQL it came from.
///
/// It prints as one line, fit for a command-line error:
/// `SQLite error 19 (SQLITE_CONSTRAINT_UNIQUE): UNIQUE constraint failed: products.name - while executing `INSERT …``.
///
/// Bound arguments are left out of the description unless the connection's
/// ``Configuration/publicStatementArguments`` is set, since they may hold user data.
public struct DatabaseError: Error, Sendable, CustomStringConvertible {
    /// The extended result code.
    public let resultCode: ResultCode
    /// SQLite's message (`sqlite3_errmsg`), or the code's explanation when there is none.
    public let message: String
    /// The SQL that failed, if any.
    public let sql: String?
    /// The arguments bound to ``sql``, when the configuration lets them be shown.
    public let arguments: StatementArguments?

    /// Creates an error.
    public init(resultCode: ResultCode, message: String? = nil, sql: String? = nil, arguments: StatementArguments? = nil) {
        self.resultCode = resultCode
        self.message = message ?? resultCode.explanation
        self.sql = sql
        self.arguments = arguments
    }

    /// The primary result code (`SQLITE_CONSTRAINT` for `SQLITE_CONSTRAINT_UNIQUE`).
    public var primaryResultCode: ResultCode { resultCode.primaryResultCode }

    public var description: String {
        var text = "SQLite error \(resultCode.rawValue) (\(resultCode.name)): \(message)"
        if let sql {
            text += " - while executing `\(sql.split(whereSeparator: \.isNewline).joined(separator: " "))`"
        }
        if let arguments, !arguments.isEmpty {
            text += " with arguments \(arguments)"
        }
        return text
    }
}
