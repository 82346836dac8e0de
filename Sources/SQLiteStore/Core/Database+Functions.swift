import CSQLite
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

// MARK: - Application-defined SQL functions

extension Database {
    /// Defines an SQL function on this connection, written in Swift, with typed arguments and result:
    /// each argument is read as its type (``DatabaseValueConvertible/fromDatabaseValue(_:)``), the
    /// result stored as its ``DatabaseValueConvertible/databaseValue``.
    ///
    /// ```swift
    /// try db.createFunction("initial") { (title: String) in String(title.prefix(1)) }
    /// let counts = try db.fetchAll(sql: "SELECT initial(title), count(*) FROM films GROUP BY 1") { row in
    ///     (try row.decode(String.self, at: 0), try row.decode(Int.self, at: 1))
    /// }
    /// ```
    ///
    /// An argument that does not read as its type (NULL where the type is not `Optional`, a TEXT where
    /// it is `Int`) fails the statement with a message naming the function and the argument, and so
    /// does an error `body` throws (its description is the message). The function replaces one of the
    /// same name and number of arguments, and lasts as long as the connection: other connections, the
    /// `sqlite3` shell among them, do not know it, so a trigger, view or index of a file that others
    /// open should not use it.
    ///
    /// Related SQLite documentation: <https://www.sqlite.org/c3ref/create_function.html>
    ///
    /// - Parameters:
    ///   - name: the function's name in SQL.
    ///   - isDeterministic: whether the result depends only on the arguments (`SQLITE_DETERMINISTIC`):
    ///     SQLite may then compute it once for constant arguments, and allows it in index expressions,
    ///     partial-index conditions and generated columns.
    ///   - body: computes the result; runs on the thread of the statement that calls the function.
    /// - Throws: ``DatabaseError``: `SQLITE_MISUSE` when the connection is closed, or SQLite's error
    ///   (`SQLITE_BUSY` while a statement that uses a function of that name is running).
    public func createFunction<each Argument: DatabaseValueConvertible, Result: DatabaseValueConvertible>(
        _ name: String, isDeterministic: Bool = true, _ body: @escaping (repeat each Argument) throws -> Result
    ) throws {
        var argumentCount = 0
        for _ in repeat (each Argument).self { argumentCount += 1 }
        try createFunction(name, argumentCount: argumentCount, isDeterministic: isDeterministic) { arguments in
            var position = 0
            func next<Value: DatabaseValueConvertible>(_: Value.Type) throws -> Value {
                defer { position += 1 }
                guard let value = Value.fromDatabaseValue(arguments[position]) else {
                    throw FunctionArgumentError(
                        message: "\(name)(): argument \(position + 1) is \(arguments[position]), not a \(Value.self)")
                }
                return value
            }
            return try body(repeat try next((each Argument).self)).databaseValue
        }
    }

    /// Defines an SQL function on this connection that takes `argumentCount` values as they are
    /// stored (-1: any number of them) and returns one.
    ///
    /// ```swift
    /// try db.createFunction("first_text", argumentCount: -1) { arguments in
    ///     arguments.first { if case .text = $0 { true } else { false } } ?? .null
    /// }
    /// ```
    ///
    /// What ``createFunction(_:isDeterministic:_:)`` says of errors, replacement and other
    /// connections holds here too.
    ///
    /// - Parameters:
    ///   - name: the function's name in SQL.
    ///   - argumentCount: how many arguments it takes, from 0 to 127, or -1 for any number.
    ///   - isDeterministic: whether the result depends only on the arguments (`SQLITE_DETERMINISTIC`).
    ///   - body: computes the result from the arguments, in order.
    /// - Throws: ``DatabaseError``: `SQLITE_MISUSE` when the connection is closed or `argumentCount`
    ///   is out of range, or SQLite's error.
    public func createFunction(
        _ name: String, argumentCount: Int, isDeterministic: Bool = true,
        _ body: @escaping (_ arguments: [DatabaseValue]) throws -> DatabaseValue
    ) throws {
        let handle = try connection
        let flags = SQLITE_UTF8 | (isDeterministic ? SQLITE_DETERMINISTIC : 0)
        let box = Unmanaged.passRetained(FunctionBody(body)).toOpaque()
        // > If the xDestroy callback is not NULL, then it is invoked ... when the function is deleted,
        // > either by being overloaded or when the database connection closes. The destructor is also
        // > invoked if the call to sqlite3_create_function_v2() fails.
        // > (https://www.sqlite.org/c3ref/create_function.html)
        let code = sqlite3_create_function_v2(
            handle, name, Int32(clamping: argumentCount), flags, box,
            { context, count, values in
                let body = Unmanaged<FunctionBody>.fromOpaque(sqlite3_user_data(context)!).takeUnretainedValue()
                let arguments = (0..<Int(count)).map { DatabaseValue(sqliteValue: values![$0]) }
                do {
                    try body.body(arguments).setResult(of: context)
                } catch let error as FunctionArgumentError {
                    sqlite3_result_error(context, error.message, -1)
                } catch let error as DatabaseError {
                    sqlite3_result_error(context, error.message, -1)
                } catch {
                    sqlite3_result_error(context, String(describing: error), -1)
                }
            },
            nil, nil, { box in box.map { Unmanaged<FunctionBody>.fromOpaque($0).release() } })
        try check(code)
    }

    /// Removes the SQL function of `name` that takes `argumentCount` arguments (-1: the one that takes
    /// any number) from this connection. Nothing happens when there is none.
    ///
    /// - Throws: ``DatabaseError``: `SQLITE_MISUSE` when the connection is closed, `SQLITE_BUSY` while
    ///   a statement that uses the function is running.
    public func removeFunction(_ name: String, argumentCount: Int) throws {
        try check(sqlite3_create_function_v2(
            try connection, name, Int32(clamping: argumentCount), SQLITE_UTF8, nil, nil, nil, nil, nil))
    }
}

/// The Swift body of an SQL function, retained by its connection until SQLite destroys the function.
private final class FunctionBody {
    let body: ([DatabaseValue]) throws -> DatabaseValue

    init(_ body: @escaping ([DatabaseValue]) throws -> DatabaseValue) {
        self.body = body
    }
}

/// An argument of a typed SQL function that does not read as its type.
private struct FunctionArgumentError: Error {
    let message: String
}

extension DatabaseValue {
    /// An argument of an SQL function, in its storage class.
    init(sqliteValue value: OpaquePointer?) {
        switch sqlite3_value_type(value) {
        case SQLITE_INTEGER:
            self = .integer(sqlite3_value_int64(value))
        case SQLITE_FLOAT:
            self = .real(sqlite3_value_double(value))
        case SQLITE_TEXT:
            // sqlite3_value_text() first, then sqlite3_value_bytes() (the order the column functions ask
            // for): the byte count of the text itself, embedded NUL characters kept.
            guard let text = sqlite3_value_text(value) else { self = .text(""); return }
            self = .text(String(decoding: UnsafeBufferPointer(start: text, count: Int(sqlite3_value_bytes(value))), as: UTF8.self))
        case SQLITE_BLOB:
            let count = Int(sqlite3_value_bytes(value))
            guard count > 0, let bytes = sqlite3_value_blob(value) else { self = .blob(Data()); return }
            self = .blob(Data(bytes: bytes, count: count))
        default:
            self = .null
        }
    }

    /// Makes this value the result of the SQL function call of `context`.
    func setResult(of context: OpaquePointer?) {
        switch self {
        case .null:
            sqlite3_result_null(context)
        case .integer(let integer):
            sqlite3_result_int64(context, integer)
        case .real(let real):
            sqlite3_result_double(context, real)
        case .text(var text):
            text.withUTF8 { bytes in
                // An empty buffer may have no base address, which SQLite would take as NULL.
                guard let base = bytes.baseAddress, bytes.count > 0 else {
                    sqlite3_result_text(context, "", 0, csqlite_transient())
                    return
                }
                base.withMemoryRebound(to: CChar.self, capacity: bytes.count) {
                    sqlite3_result_text64(context, $0, UInt64(bytes.count), csqlite_transient(), UInt8(SQLITE_UTF8))
                }
            }
        case .blob(let data):
            data.withUnsafeBytes { bytes in
                guard let base = bytes.baseAddress, bytes.count > 0 else {
                    sqlite3_result_zeroblob(context, 0)
                    return
                }
                sqlite3_result_blob64(context, base, UInt64(bytes.count), csqlite_transient())
            }
        }
    }
}
