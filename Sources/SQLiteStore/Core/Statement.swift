import CSQLite

/// A raw `sqlite3_stmt *` handle.
public typealias SQLiteStatement = OpaquePointer

/// A prepared statement, compiled once and run many times with different arguments.
///
/// Get one from ``Database/makeStatement(sql:)`` or, for statements run often,
/// ``Database/cachedStatement(sql:)``. The statement is finalized when it is deallocated, and before its
/// connection closes.
///
/// ```swift
/// let insert = try db.cachedStatement(sql: "INSERT INTO t(name) VALUES (?)")
/// for name in names { try insert.execute(arguments: [name]) }
/// ```
///
/// Related SQLite documentation: <https://www.sqlite.org/c3ref/stmt.html>
public final class Statement {
    /// The SQL the statement was compiled from.
    public let sql: String
    /// The underlying handle. Valid until the statement is deallocated or its connection closed.
    public let sqliteStatement: SQLiteStatement
    unowned let database: Database

    /// Parameter names by 1-based index; `nil` for an anonymous `?` parameter.
    private lazy var parameterNames: [String?] = (0..<Int(sqlite3_bind_parameter_count(sqliteStatement))).map {
        guard let name = sqlite3_bind_parameter_name(sqliteStatement, Int32($0 + 1)) else { return nil }
        let text = String(cString: name)
        // `?NNN` parameters are positional; `:name`, `@name` and `$name` are named.
        return text.hasPrefix("?") ? nil : String(text.dropFirst())
    }

    /// Column indexes by lowercased name, for ``Row`` subscripts by name.
    lazy var columnIndexes: [String: Int] = {
        var indexes: [String: Int] = [:]
        for (index, name) in columnNames.enumerated().reversed() { indexes[name.lowercased()] = index }
        return indexes
    }()

    init(database: Database, sql: String, handle: SQLiteStatement) {
        self.database = database
        self.sql = sql
        self.sqliteStatement = handle
    }

    deinit {
        sqlite3_finalize(sqliteStatement)
    }

    /// The number of columns in a result row.
    public var columnCount: Int { Int(sqlite3_column_count(sqliteStatement)) }

    /// The names of the result columns, in order.
    public var columnNames: [String] {
        (0..<Int32(columnCount)).map { String(cString: sqlite3_column_name(sqliteStatement, $0)) }
    }

    /// Whether the statement leaves the database unchanged (`sqlite3_stmt_readonly`).
    public var isReadonly: Bool { sqlite3_stmt_readonly(sqliteStatement) != 0 }

    // MARK: - Binding

    /// Resets the statement and binds `arguments` to its parameters.
    ///
    /// - Throws: ``DatabaseError`` with `SQLITE_MISUSE` when the arguments do not fit the parameters
    ///   (too many, too few, or a named parameter without a value).
    public func bind(_ arguments: StatementArguments) throws {
        sqlite3_reset(sqliteStatement)
        sqlite3_clear_bindings(sqliteStatement)
        let names = parameterNames
        var positional = arguments.values.makeIterator()
        var positionalUsed = 0
        for (offset, name) in names.enumerated() {
            let value: DatabaseValue
            if let name {
                if let named = arguments.namedValues[name] {
                    value = named
                } else if let next = positional.next() {
                    value = next
                    positionalUsed += 1
                } else {
                    throw argumentError("missing value for parameter :\(name)", arguments)
                }
            } else if let next = positional.next() {
                value = next
                positionalUsed += 1
            } else {
                throw argumentError("expected \(names.count) arguments, got \(arguments.values.count)", arguments)
            }
            try bind(value, at: Int32(offset + 1))
        }
        if positionalUsed < arguments.values.count {
            throw argumentError("expected \(names.count) arguments, got \(arguments.values.count)", arguments)
        }
    }

    private func argumentError(_ message: String, _ arguments: StatementArguments) -> DatabaseError {
        DatabaseError(resultCode: .SQLITE_MISUSE, message: "wrong statement arguments: \(message)", sql: sql,
                      arguments: database.configuration.publicStatementArguments ? arguments : nil)
    }

    private func bind(_ value: DatabaseValue, at index: Int32) throws {
        let code: Int32
        switch value {
        case .null:
            code = sqlite3_bind_null(sqliteStatement, index)
        case .integer(let integer):
            code = sqlite3_bind_int64(sqliteStatement, index, integer)
        case .real(let real):
            code = sqlite3_bind_double(sqliteStatement, index, real)
        case .text(var text):
            code = text.withUTF8 { bytes in
                // An empty buffer may have no base address, which SQLite would bind as NULL.
                guard let base = bytes.baseAddress, bytes.count > 0 else {
                    return sqlite3_bind_text(sqliteStatement, index, "", 0, csqlite_transient())
                }
                return base.withMemoryRebound(to: CChar.self, capacity: bytes.count) {
                    sqlite3_bind_text(sqliteStatement, index, $0, Int32(bytes.count), csqlite_transient())
                }
            }
        case .blob(let data):
            code = data.withUnsafeBytes { bytes in
                guard let base = bytes.baseAddress, bytes.count > 0 else {
                    return sqlite3_bind_zeroblob(sqliteStatement, index, 0)
                }
                return sqlite3_bind_blob(sqliteStatement, index, base, Int32(bytes.count), csqlite_transient())
            }
        }
        guard code == SQLITE_OK else {
            throw DatabaseError(resultCode: ResultCode(rawValue: code), message: database.lastErrorMessage, sql: sql)
        }
    }

    // MARK: - Running

    /// Runs the statement to completion, discarding any rows.
    ///
    /// - Throws: ``DatabaseError`` when binding or any step fails.
    public func execute(arguments: StatementArguments = []) throws {
        try start(arguments)
        defer { sqlite3_reset(sqliteStatement) }
        while true {
            switch sqlite3_step(sqliteStatement) {
            case SQLITE_DONE: return
            case SQLITE_ROW: continue
            case let code: throw stepError(code, arguments)
            }
        }
    }

    /// Runs the statement and calls `body` with each row.
    ///
    /// The ``Row`` reads the statement's current row and is valid only during the call.
    public func forEachRow(arguments: StatementArguments = [], _ body: (Row) throws -> Void) throws {
        try start(arguments)
        defer { sqlite3_reset(sqliteStatement) }
        let row = Row(statement: self)
        while true {
            switch sqlite3_step(sqliteStatement) {
            case SQLITE_DONE: return
            case SQLITE_ROW: try body(row)
            case let code: throw stepError(code, arguments)
            }
        }
    }

    /// Runs the statement and decodes every row.
    @inlinable  // specialized for `T` at the call site: no generic code per row
    public func fetchAll<T>(arguments: StatementArguments = [], _ decode: (Row) throws -> T) throws -> [T] {
        var results: [T] = []
        try forEachRow(arguments: arguments) { results.append(try decode($0)) }
        return results
    }

    /// Runs the statement and gives `body` each row's first column, an integer read straight from
    /// SQLite (no ``Row`` and no decoding per row): for the many rowids a search reads from its indexes.
    ///
    /// - Throws: ``DatabaseError``, with `SQLITE_MISMATCH` for a value that is not an integer, and what
    ///   `body` throws.
    public func forEachInteger(arguments: StatementArguments = [], _ body: (Int64) throws -> Void) throws {
        try start(arguments)
        defer { sqlite3_reset(sqliteStatement) }
        while true {
            switch sqlite3_step(sqliteStatement) {
            case SQLITE_DONE: return
            case SQLITE_ROW:
                guard sqlite3_column_type(sqliteStatement, 0) == SQLITE_INTEGER else {
                    let row = Row(statement: self)
                    throw row.mismatch(Int64.self, 0)
                }
                try body(sqlite3_column_int64(sqliteStatement, 0))
            case let code: throw stepError(code, arguments)
            }
        }
    }

    /// Runs the statement and decodes its first row, if any.
    public func fetchOne<T>(arguments: StatementArguments = [], _ decode: (Row) throws -> T) throws -> T? {
        try start(arguments)
        defer { sqlite3_reset(sqliteStatement) }
        switch sqlite3_step(sqliteStatement) {
        case SQLITE_DONE: return nil
        case SQLITE_ROW: return try decode(Row(statement: self))
        case let code: throw stepError(code, arguments)
        }
    }

    /// Binds `arguments` for a run, unless the access running it was cancelled.
    private func start(_ arguments: StatementArguments) throws {
        try database.checkNotCancelled(sql)
        try bind(arguments)
    }

    func stepError(_ code: Int32, _ arguments: StatementArguments) -> DatabaseError {
        // With extended result codes on, sqlite3_step returns the extended code itself.
        DatabaseError(
            resultCode: ResultCode(rawValue: code),
            message: database.lastErrorMessage,
            sql: sql,
            arguments: database.configuration.publicStatementArguments ? arguments : nil)
    }
}

// Statements must be used from the thread that holds their connection: see `DatabaseQueue`.
@available(*, unavailable)
extension Statement: Sendable {}
