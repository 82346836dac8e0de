import SQLiteStore

/// A piece of SQL with its bound arguments: a `WHERE` condition, or an expression inside one.
///
/// ```swift
/// let adults = SQLCondition(sql: "age >= ?", arguments: [18])
/// let both = adults && SQLCondition(sql: "name IS NOT NULL")
/// ```
///
/// The SQL holds `?` placeholders only; every value is in ``arguments``, in placeholder order.
public struct SQLCondition: Sendable, Hashable, CustomStringConvertible {
    /// The SQL text, with a `?` for each argument.
    public var sql: String
    /// The values of the placeholders, in order.
    public var arguments: StatementArguments

    /// Creates a condition.
    public init(sql: String, arguments: StatementArguments = []) {
        self.sql = sql
        self.arguments = arguments
    }

    /// The condition that holds for every row.
    public static let alwaysTrue = SQLCondition(sql: "1")

    /// Both conditions, parenthesized: `(lhs) AND (rhs)`.
    public static func && (lhs: SQLCondition, rhs: SQLCondition) -> SQLCondition {
        SQLCondition(sql: "(\(lhs.sql)) AND (\(rhs.sql))", arguments: lhs.arguments + rhs.arguments)
    }

    /// `lhs.sql`, then `rhs.sql` joined by `separator`, with their arguments in the same order.
    static func join(_ parts: [SQLCondition], separator: String) -> SQLCondition {
        SQLCondition(
            sql: parts.map(\.sql).joined(separator: separator),
            arguments: parts.reduce(into: [] as StatementArguments) { $0 += $1.arguments })
    }

    public var description: String { arguments.isEmpty ? sql : "\(sql) \(arguments)" }
}
