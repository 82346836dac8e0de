import BenchSQLite
import BenchmarkSupport

/// A bare `sqlite3 *` with the few helpers hand-written C code would have: the least a Swift program
/// can do to talk to SQLite, and so the practical limit the others are compared to.
final class RawConnection {
    let handle: OpaquePointer

    struct Failure: Error, CustomStringConvertible {
        var code: Int32
        var message: String
        var description: String { "SQLite error \(code): \(message)" }
    }

    /// Opens `path` set up as the store sets up its connections: WAL, `synchronous = NORMAL`, foreign keys.
    init(path: String, create: Bool = false) throws {
        var handle: OpaquePointer?
        let flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOMUTEX | (create ? SQLITE_OPEN_CREATE : 0)
        let code = sqlite3_open_v2(path, &handle, flags, nil)
        guard code == SQLITE_OK, let handle else {
            sqlite3_close(handle)
            throw Failure(code: code, message: "cannot open \(path)")
        }
        self.handle = handle
        sqlite3_busy_timeout(handle, 5_000)
        try execute("PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL; PRAGMA foreign_keys = ON")
    }

    deinit {
        sqlite3_close_v2(handle)
    }

    func check(_ code: Int32) throws {
        guard code == SQLITE_OK || code == SQLITE_DONE || code == SQLITE_ROW else {
            throw Failure(code: code, message: String(cString: sqlite3_errmsg(handle)))
        }
    }

    /// Runs one or more statements without arguments.
    func execute(_ sql: String) throws {
        try check(sqlite3_exec(handle, sql, nil, nil, nil))
    }

    func prepare(_ sql: String) throws -> OpaquePointer {
        var statement: OpaquePointer?
        try check(sqlite3_prepare_v3(handle, sql, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &statement, nil))
        return statement!
    }

    /// Steps a statement that returns no row, then resets it.
    func run(_ statement: OpaquePointer) throws {
        let code = sqlite3_step(statement)
        sqlite3_reset(statement)
        guard code == SQLITE_DONE else { throw Failure(code: code, message: String(cString: sqlite3_errmsg(handle))) }
    }

    func scalarInt(_ statement: OpaquePointer) throws -> Int64 {
        defer { sqlite3_reset(statement) }
        let code = sqlite3_step(statement)
        guard code == SQLITE_ROW else { try check(code); return 0 }
        return sqlite3_column_int64(statement, 0)
    }
}

// MARK: - Binding and reading

@inline(__always)
func bindText(_ statement: OpaquePointer, _ index: Int32, _ text: String) {
    var text = text
    text.withUTF8 { bytes in
        guard let base = bytes.baseAddress, bytes.count > 0 else {
            _ = sqlite3_bind_text(statement, index, "", 0, bench_sqlite_transient())
            return
        }
        base.withMemoryRebound(to: CChar.self, capacity: bytes.count) {
            _ = sqlite3_bind_text(statement, index, $0, Int32(bytes.count), bench_sqlite_transient())
        }
    }
}

@inline(__always)
func columnText(_ statement: OpaquePointer, _ index: Int32) -> String {
    guard let text = sqlite3_column_text(statement, index) else { return "" }
    return String(decoding: UnsafeBufferPointer(start: text, count: Int(sqlite3_column_bytes(statement, index))), as: UTF8.self)
}

/// Reads a row of `BenchSQL.productColumns`.
@inline(__always)
func readProduct(_ statement: OpaquePointer) -> BenchProduct {
    BenchProduct(
        id: sqlite3_column_int64(statement, 0),
        type: columnText(statement, 1),
        name: columnText(statement, 2),
        yearIntroduced: Int(sqlite3_column_int64(statement, 3)),
        introPrice: sqlite3_column_double(statement, 4))
}
