import CSQLite
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A row of a result: the current row of a running SQLite statement, or the values of a row that
/// another engine's connection read (`SQLConnection.forEachRow(sql:arguments:_:)`), so that one
/// decoder (a `FetchableEntity`'s `init(row:)`, a declared entity's columns) reads both engines' rows.
///
/// A statement's row reads straight from SQLite's result buffers, without copying the row first; a
/// row of values converts each value as ``DatabaseValueConvertible/fromDatabaseValue(_:)`` says,
/// which gives what reading the same value from a column gives. Either is valid only inside the
/// closure it was passed to (``Statement/forEachRow(arguments:_:)``,
/// ``Database/fetchAll(sql:arguments:_:)`` and friends); copy the values you need out of it.
///
/// ```swift
/// let names = try db.fetchAll(sql: "SELECT id, name FROM t") { row in
///     (id: try row.decode(Int64.self, at: 0), name: try row.decode(String.self, at: 1))
/// }
/// ```
public struct Row {
    // `unowned(unsafe)`: a plain pointer. Every copy of a safe `unowned` reference retains and releases
    // its unowned count (`swift_unownedRetain`), and rows are copied at every call that takes one, such
    // as a generic `Entity(row:)`: a visible share of the fetched-results controller's W2 time. A row
    // never outlives its statement (it is valid only inside the closure it was passed to, which the
    // statement's own method runs), and `handle` below is a raw pointer already. Nil for a row of values.
    unowned(unsafe) let statement: Statement?
    // Copied out of the statement once per run, not read through `unowned` at every column: each read of
    // an unowned reference is a strong retain and release (`swift_unownedRetainStrong`), a cost on
    // every column W2 reads. Nil for a row of values.
    @usableFromInline let handle: SQLiteStatement?
    // A row of values: its values and its columns' names, borrowed for the closure the row is passed
    // to (plain pointers, so that copying a row retains nothing). Nil for a statement's row.
    @usableFromInline let values: UnsafePointer<DatabaseValue>?
    let valueColumnNames: UnsafePointer<[String]>?

    /// The number of columns.
    public let count: Int

    init(statement: Statement) {
        self.statement = statement
        self.handle = statement.sqliteStatement
        self.values = nil
        self.valueColumnNames = nil
        self.count = statement.columnCount
    }

    /// A row of `values`, whose columns are named `columnNames`, valid while both pointers are.
    init(values: UnsafeBufferPointer<DatabaseValue>, columnNames: UnsafePointer<[String]>) {
        self.statement = nil
        self.handle = nil
        self.values = values.baseAddress
        self.valueColumnNames = columnNames
        self.count = values.count
    }

    /// Whether the column at `index` holds NULL.
    public func isNull(at index: Int) -> Bool {
        checkIndex(index)
        guard let handle else { return values![index].isNull }
        return sqlite3_column_type(handle, Int32(index)) == SQLITE_NULL
    }

    /// The value at `index`, in its storage class.
    public func databaseValue(at index: Int) -> DatabaseValue {
        checkIndex(index)
        guard let handle else { return values![index] }
        return DatabaseValue(column: Int32(index), of: handle)
    }

    /// The value at `index` converted to `T`, read as `T` reads itself from a column
    /// (``DatabaseValueConvertible/fromColumn(of:at:)``: the library's types and raw-representable
    /// enums without an intermediate `DatabaseValue`).
    ///
    /// - Throws: ``DatabaseError`` with `SQLITE_MISMATCH` when the stored value does not convert (a NULL
    ///   read as a non-optional type, text read as a number, text that is no case of an enum).
    @inlinable  // specialized at the call site: see "Concrete types" below
    public func decode<T: DatabaseValueConvertible>(_ type: T.Type = T.self, at index: Int) throws -> T {
        checkIndex(index)
        guard let handle else { return try valueDecoded(T.self, at: index) }
        guard let decoded = T.fromColumn(of: handle, at: Int32(index)) else { throw mismatch(T.self, index) }
        return decoded
    }

    // MARK: - Concrete types
    //
    // Unless it is `@inlinable`, a generic `decode` is not specialized in other modules (the Catalog's
    // `init(row:)`): each call went through witness tables and looked up generic metadata
    // (`swift_getGenericMetadata`), a large share of W2's time. The generic
    // overloads are now inlinable; these concrete ones, picked at call sites that name the type, read the
    // column directly even where the generic ones are not specialized.

    /// The integer at `index`. - Throws: ``DatabaseError`` with `SQLITE_MISMATCH` unless it is an integer (or an integral real).
    public func decode(_ type: Int64.Type, at index: Int) throws -> Int64 {
        checkIndex(index)
        guard let handle else { return try valueDecoded(Int64.self, at: index) }
        guard let value = Int64(sqliteStatement: handle, index: Int32(index)) else { throw mismatch(Int64.self, index) }
        return value
    }

    /// The integer at `index`. - Throws: ``DatabaseError`` with `SQLITE_MISMATCH` unless it is an integer that fits.
    public func decode(_ type: Int.Type, at index: Int) throws -> Int {
        checkIndex(index)
        guard let handle else { return try valueDecoded(Int.self, at: index) }
        guard let value = Int(sqliteStatement: handle, index: Int32(index)) else { throw mismatch(Int.self, index) }
        return value
    }

    /// The number at `index`. - Throws: ``DatabaseError`` with `SQLITE_MISMATCH` unless it is a number.
    public func decode(_ type: Double.Type, at index: Int) throws -> Double {
        checkIndex(index)
        guard let handle else { return try valueDecoded(Double.self, at: index) }
        guard let value = Double(sqliteStatement: handle, index: Int32(index)) else { throw mismatch(Double.self, index) }
        return value
    }

    /// The text at `index`. - Throws: ``DatabaseError`` with `SQLITE_MISMATCH` unless it is text.
    public func decode(_ type: String.Type, at index: Int) throws -> String {
        checkIndex(index)
        guard let handle else { return try valueDecoded(String.self, at: index) }
        guard let value = String(sqliteStatement: handle, index: Int32(index)) else { throw mismatch(String.self, index) }
        return value
    }

    /// The value of the column named `name` (case-insensitive) converted to `T`.
    ///
    /// - Throws: ``DatabaseError`` when there is no such column or the value does not convert.
    public func decode<T: DatabaseValueConvertible>(_ type: T.Type = T.self, named name: String) throws -> T {
        let index =
            if let statement { statement.columnIndexes[name.lowercased()] } else {
                valueColumnNames!.pointee.firstIndex { $0.lowercased() == name.lowercased() }
            }
        guard let index else { throw DatabaseError(resultCode: .SQLITE_MISUSE, message: "no column named \(name)", sql: statement?.sql) }
        return try decode(T.self, at: index)
    }

    /// The value at `index` converted to `T`; traps when it does not convert.
    ///
    /// Use it where the schema guarantees the type; prefer `decode(_:at:)` for data written
    /// by others.
    public subscript<T: DatabaseValueConvertible>(_ index: Int) -> T {
        do { return try decode(T.self, at: index) } catch { fatalError("\(error)") }
    }

    /// The value of the column named `name` converted to `T`; traps when it does not convert.
    public subscript<T: DatabaseValueConvertible>(_ name: String) -> T {
        do { return try decode(T.self, named: name) } catch { fatalError("\(error)") }
    }

    /// The value at `index` of a row of values, converted to `T`.
    @usableFromInline
    func valueDecoded<T: DatabaseValueConvertible>(_ type: T.Type, at index: Int) throws -> T {
        guard let decoded = T.fromDatabaseValue(values![index]) else { throw mismatch(T.self, index) }
        return decoded
    }

    @usableFromInline
    func checkIndex(_ index: Int) {
        precondition(index >= 0 && index < count, "column index \(index) out of range 0..<\(count)")
    }

    @usableFromInline
    func mismatch<T>(_ type: T.Type, _ index: Int) -> DatabaseError {
        mismatch(T.self, databaseValue(at: index), index)
    }

    @usableFromInline
    func mismatch<T>(_ type: T.Type, _ value: DatabaseValue, _ index: Int) -> DatabaseError {
        let name = statement?.columnNames[index] ?? valueColumnNames!.pointee[index]
        return DatabaseError(
            resultCode: .SQLITE_MISMATCH,
            message: "could not read column \(index) (\(name)) as \(T.self): found \(value.storageClassName)",
            sql: statement?.sql)
    }
}

extension DatabaseValue {
    /// The value of the column at `index` of the statement's current row, in its storage class.
    @usableFromInline
    init(column index: Int32, of sqliteStatement: SQLiteStatement) {
        switch sqlite3_column_type(sqliteStatement, index) {
        case SQLITE_INTEGER:
            self = .integer(sqlite3_column_int64(sqliteStatement, index))
        case SQLITE_FLOAT:
            self = .real(sqlite3_column_double(sqliteStatement, index))
        case SQLITE_TEXT:
            self = .text(String(textColumn: index, of: sqliteStatement))
        case SQLITE_BLOB:
            let count = Int(sqlite3_column_bytes(sqliteStatement, index))
            guard count > 0, let bytes = sqlite3_column_blob(sqliteStatement, index) else { self = .blob(Data()); return }
            self = .blob(Data(bytes: bytes, count: count))
        default:
            self = .null
        }
    }

    fileprivate var storageClassName: String {
        switch self {
        case .null: "NULL"
        case .integer: "INTEGER"
        case .real: "REAL"
        case .text: "TEXT"
        case .blob: "BLOB"
        }
    }
}

@available(*, unavailable)
extension Row: Sendable {}
