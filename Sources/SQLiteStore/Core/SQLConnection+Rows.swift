/// Rows of any engine's connection read as ``Row``s, so that one decoder (a `FetchableEntity`'s
/// `init(row:)`, a declared entity's columns) reads both engines' rows alike.
///
/// ```swift
/// func titles(_ db: some SQLConnection) throws -> [String] {
///     try db.fetchAll(sql: "SELECT title FROM books ORDER BY id") { try $0.decode(String.self, at: 0) }
/// }
/// ```
///
/// On SQLite's ``Database`` these are its own cached statements, with no cost added (code generic
/// over the connection is specialised for it, and the check below folds away). On another engine, the
/// statement runs there and each row's values are bound to `SELECT ?1, …, ?n` on a private in-memory
/// SQLite connection, whose row is read: the same conversions (a number read as `Bool`, a real as a
/// `Date`) as a row of a file.
extension SQLConnection {
    /// Runs a query and calls `body` with each row, valid only during the call.
    public func forEachRow(sql: String, arguments: StatementArguments = [], _ body: (Row) throws -> Void) throws {
        if let db = self as? Database {
            try db.cachedStatement(sql: sql).forEachRow(arguments: arguments, body)
            return
        }
        let rows = try fetchRows(sql: sql, values: arguments.values)
        guard let width = rows.first?.count else { return }
        guard width > 0 else { throw DatabaseError(resultCode: .SQLITE_MISUSE, message: "a row without columns", sql: sql) }
        let echo = try Database(path: ":memory:")
        defer { try? echo.close() }
        let statement = try echo.cachedStatement(sql: "SELECT " + (1...width).map { "?\($0)" }.joined(separator: ", "))
        for values in rows { try statement.forEachRow(arguments: StatementArguments(values: values), body) }
    }

    /// Runs a query and decodes every row.
    public func fetchAll<T>(sql: String, arguments: StatementArguments = [], _ decode: (Row) throws -> T) throws -> [T] {
        if let db = self as? Database { return try db.fetchAll(sql: sql, arguments: arguments, decode) }
        var results: [T] = []
        try forEachRow(sql: sql, arguments: arguments) { results.append(try decode($0)) }
        return results
    }

    /// Runs a query and decodes its first row, if any.
    public func fetchOne<T>(sql: String, arguments: StatementArguments = [], _ decode: (Row) throws -> T) throws -> T? {
        if let db = self as? Database { return try db.fetchOne(sql: sql, arguments: arguments, decode) }
        return try fetchAll(sql: sql, arguments: arguments, decode).first
    }

    /// The first column of the first row, or nil when there is no row or it is NULL.
    public func scalar<T: DatabaseValueConvertible>(_ type: T.Type, sql: String, arguments: StatementArguments = []) throws -> T? {
        try fetchOne(sql: sql, arguments: arguments) { try $0.decode(T?.self, at: 0) } ?? nil
    }
}
