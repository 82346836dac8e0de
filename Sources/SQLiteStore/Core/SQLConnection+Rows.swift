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
/// over the connection is specialised for it, and the check below folds away). On another engine,
/// each row is the values its connection read (`SQLConnection.forEachRow(sql:values:_:)`), which a
/// ``Row`` converts as it converts the same values read from a file.
extension SQLConnection {
    /// Runs `sql`: without arguments, any number of statements; with arguments, one statement whose
    /// `?` placeholders they are bound to, as on a `Database`.
    public func execute(sql: String, arguments: StatementArguments = []) throws {
        try execute(sql: sql, values: arguments.values)
    }

    /// Runs a query and calls `body` with each row, valid only during the call.
    public func forEachRow(sql: String, arguments: StatementArguments = [], _ body: (Row) throws -> Void) throws {
        if let db = self as? Database {
            try db.cachedStatement(sql: sql).forEachRow(arguments: arguments, body)
            return
        }
        try forEachRow(sql: sql, values: arguments.values) { columnNames, values in
            try withUnsafePointer(to: columnNames) { columnNames in
                try values.withUnsafeBufferPointer { values in try body(Row(values: values, columnNames: columnNames)) }
            }
        }
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
