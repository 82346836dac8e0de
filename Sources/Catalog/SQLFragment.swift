import SQLiteStore

/// A piece of SQL and the values of its `?` parameters, in order.
struct SQLFragment {
    /// The SQL text, with `?` for every value.
    var sql: String
    /// The values of the `?`s.
    var arguments: StatementArguments

    init(_ sql: String, _ arguments: StatementArguments = []) {
        self.sql = sql
        self.arguments = arguments
    }

    init(joining parts: [SQLFragment], separator: String) {
        sql = parts.map(\.sql).joined(separator: separator)
        arguments = parts.reduce(into: StatementArguments(values: [])) { $0 += $1.arguments }
    }

    /// The fragment in parentheses.
    var parenthesized: SQLFragment { SQLFragment("(" + sql + ")", arguments) }
}
