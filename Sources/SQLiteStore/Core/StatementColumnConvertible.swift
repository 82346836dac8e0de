import CSQLite

/// A type read straight from a statement's column, without going through `DatabaseValue`.
///
/// A conforming type that is also ``DatabaseValueConvertible`` reads itself this way in `Row.decode(_:at:)`
/// (``DatabaseValueConvertible/fromColumn(of:at:)``), as does a raw-representable type whose raw value
/// conforms. The library conforms `Int`, `Int64`, `Double`, `String`, `Bool` and their optionals.
public protocol StatementColumnConvertible {
    /// Reads the column at `index` of the statement's current row; nil when it does not convert.
    init?(sqliteStatement: SQLiteStatement, index: Int32)
}

extension Int64: StatementColumnConvertible {
    public init?(sqliteStatement: SQLiteStatement, index: Int32) {
        switch sqlite3_column_type(sqliteStatement, index) {
        case SQLITE_INTEGER: self = sqlite3_column_int64(sqliteStatement, index)
        case SQLITE_FLOAT:
            guard let value = Int64(exactly: sqlite3_column_double(sqliteStatement, index)) else { return nil }
            self = value
        default: return nil
        }
    }
}

extension Int: StatementColumnConvertible {
    public init?(sqliteStatement: SQLiteStatement, index: Int32) {
        guard let value = Int64(sqliteStatement: sqliteStatement, index: index) else { return nil }
        guard let exact = Int(exactly: value) else { return nil }
        self = exact
    }
}

extension Double: StatementColumnConvertible {
    public init?(sqliteStatement: SQLiteStatement, index: Int32) {
        switch sqlite3_column_type(sqliteStatement, index) {
        case SQLITE_INTEGER, SQLITE_FLOAT: self = sqlite3_column_double(sqliteStatement, index)
        default: return nil
        }
    }
}

extension Bool: StatementColumnConvertible {
    public init?(sqliteStatement: SQLiteStatement, index: Int32) {
        switch sqlite3_column_type(sqliteStatement, index) {
        case SQLITE_INTEGER: self = sqlite3_column_int64(sqliteStatement, index) != 0
        case SQLITE_FLOAT: self = sqlite3_column_double(sqliteStatement, index) != 0
        default: return nil
        }
    }
}

extension String: StatementColumnConvertible {
    public init?(sqliteStatement: SQLiteStatement, index: Int32) {
        guard sqlite3_column_type(sqliteStatement, index) == SQLITE_TEXT else { return nil }
        self.init(textColumn: index, of: sqliteStatement)
    }

    /// Reads a TEXT column, embedded NUL characters included.
    init(textColumn index: Int32, of sqliteStatement: SQLiteStatement) {
        // > call sqlite3_column_text() first to force the result into the desired format, then invoke
        // > sqlite3_column_bytes() to find the size of the result. (https://www.sqlite.org/c3ref/column_blob.html)
        guard let text = sqlite3_column_text(sqliteStatement, index) else { self = ""; return }
        let count = Int(sqlite3_column_bytes(sqliteStatement, index))
        self = String(decoding: UnsafeBufferPointer(start: text, count: count), as: UTF8.self)
    }
}

extension Optional: StatementColumnConvertible where Wrapped: StatementColumnConvertible {
    /// NULL reads as `nil`; another value reads as `Wrapped` or fails as it would.
    public init?(sqliteStatement: SQLiteStatement, index: Int32) {
        if sqlite3_column_type(sqliteStatement, index) == SQLITE_NULL {
            self = .none
            return
        }
        guard let value = Wrapped(sqliteStatement: sqliteStatement, index: index) else { return nil }
        self = .some(value)
    }
}
