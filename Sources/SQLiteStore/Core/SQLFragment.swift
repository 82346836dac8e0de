/// A piece of SQL and the values of its `?` placeholders, in order: a condition, an expression, or a
/// whole statement built from parts.
///
/// ```swift
/// let adults = SQLFragment(sql: "age >= ?", arguments: [18])
/// let named = adults && SQLFragment(sql: "name IS NOT NULL")
/// let some = SQLFragment(sql: "id IN ") + SQLFragment.list([1, 2, 3])   // id IN (?, ?, ?)
/// let rows = try db.fetchAll(sql: "SELECT name FROM player WHERE \(named.sql)", arguments: named.arguments) {
///     try $0.decode(String.self, at: 0)
/// }
/// ```
///
/// The SQL holds `?` placeholders only, never a value: every value is in ``arguments``, in placeholder
/// order, and is bound when the statement runs. Combining fragments keeps the two in step.
public struct SQLFragment: Sendable, Hashable, CustomStringConvertible {
    /// The SQL text, with a `?` for each argument.
    public var sql: String
    /// The values of the placeholders, in order.
    public var arguments: StatementArguments

    /// Creates a fragment.
    public init(sql: String, arguments: StatementArguments = []) {
        self.sql = sql
        self.arguments = arguments
    }

    /// `parts` joined by `separator`, with their arguments in the same order.
    public init(joining parts: [SQLFragment], separator: String) {
        sql = parts.map(\.sql).joined(separator: separator)
        arguments = parts.reduce(into: [] as StatementArguments) { $0 += $1.arguments }
    }

    /// The condition that holds for every row: `TRUE` (SQLite's 1, a boolean on PostgreSQL).
    public static let alwaysTrue = SQLFragment(sql: "TRUE")

    /// The condition that holds for no row: `FALSE` (SQLite's 0, a boolean on PostgreSQL).
    public static let alwaysFalse = SQLFragment(sql: "FALSE")

    /// A parenthesized list of one placeholder per value, for `IN`: `(?, ?, ?)` bound to `values`.
    ///
    /// An empty collection gives `()`: SQLite allows an empty list, which no value is `IN`.
    ///
    /// Related SQLite documentation: <https://www.sqlite.org/lang_expr.html#the_in_and_not_in_operators>
    public static func list<Value: DatabaseValueConvertible>(_ values: some Collection<Value>) -> SQLFragment {
        let placeholders = Array(repeating: "?", count: values.count).joined(separator: ", ")
        return SQLFragment(sql: "(" + placeholders + ")", arguments: StatementArguments(values: values.map(\.databaseValue)))
    }

    /// The fragment in parentheses.
    public var parenthesized: SQLFragment { SQLFragment(sql: "(" + sql + ")", arguments: arguments) }

    /// Both conditions, each parenthesized: `(lhs) AND (rhs)`.
    public static func && (lhs: SQLFragment, rhs: SQLFragment) -> SQLFragment {
        SQLFragment(sql: "(\(lhs.sql)) AND (\(rhs.sql))", arguments: lhs.arguments + rhs.arguments)
    }

    /// The two fragments one after the other, their arguments in the same order.
    public static func + (lhs: SQLFragment, rhs: SQLFragment) -> SQLFragment {
        SQLFragment(sql: lhs.sql + rhs.sql, arguments: lhs.arguments + rhs.arguments)
    }

    public var description: String { arguments.isEmpty ? sql : "\(sql) \(arguments)" }
}
