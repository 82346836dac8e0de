import CPostgreSQL
import StoreCore

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

extension PostgreSQLConnection {
    /// Loads the rows `nextRow` gives until it returns nil into `table` with `COPY … FROM STDIN`: the
    /// fastest way to fill a table, one statement for every row. Each row gives the values of
    /// `columns`, in order; `copy(into:columns:rows:)` takes them as a sequence.
    ///
    /// ```swift
    /// let loaded = try db.copy(into: "note", columns: ["id", "text"], rows: [[.integer(1), .text("a")], [.integer(2), .text("b")]])
    /// ```
    ///
    /// Runs in the caller's transaction, if any; a failure loads nothing. When `nextRow` throws, the
    /// `COPY` is aborted at once (`PQputCopyEnd` with an error, which fails the caller's
    /// transaction) and its error thrown.
    ///
    /// - Returns: the number of rows loaded.
    /// - Throws: ``PostgreSQLError`` (a row the table refuses fails the whole COPY), or what
    ///   `nextRow` threw.
    ///
    /// Related PostgreSQL documentation: <https://www.postgresql.org/docs/15/sql-copy.html>
    @discardableResult
    public func copy(into table: String, columns: [String], nextRow: () throws -> [DatabaseValue]?) throws -> Int {
        let sql = "COPY \(SQLText.identifier(table)) (\(columns.map(SQLText.identifier).joined(separator: ", "))) FROM STDIN"
        let handle = try idleHandle(for: sql)
        let start = PQexec(handle, sql)
        guard PQresultStatus(start) == PGRES_COPY_IN else {
            let error = PostgreSQLError(result: start, connection: handle, sql: sql)
            PQclear(start)
            throw error
        }
        PQclear(start)
        // Row by row: libpq gathers the data in its own output buffer and sends it in large writes.
        var line: [UInt8] = []
        var failure: String?
        var thrown: (any Error)?
        do {
            while let row = try nextRow() {
                precondition(row.count == columns.count, "a COPY row has \(row.count) values for \(columns.count) columns")
                line.removeAll(keepingCapacity: true)
                Self.appendCopyLine(row, to: &line)
                if !put(line, handle) {
                    failure = "sending COPY data failed"
                    break
                }
            }
        } catch {
            thrown = error
            failure = "the rows' source failed: \(error)"
        }
        _ = PQputCopyEnd(handle, failure)
        var error: PostgreSQLError?
        var count = 0
        while let result = PQgetResult(handle) {
            if PQresultStatus(result) == PGRES_COMMAND_OK {
                count = Int(String(cString: PQcmdTuples(result))) ?? 0
            } else if error == nil {
                error = PostgreSQLError(result: result, connection: handle, sql: sql)
            }
            PQclear(result)
        }
        if let thrown { throw thrown }
        if let error { throw error }
        return count
    }

    private func put(_ bytes: [UInt8], _ handle: OpaquePointer) -> Bool {
        bytes.withUnsafeBufferPointer { buffer in
            buffer.withMemoryRebound(to: CChar.self) { PQputCopyData(handle, $0.baseAddress, Int32($0.count)) == 1 }
        }
    }

    /// One row in COPY's text format: values separated by tabs, `\N` for NULL, backslash escapes.
    static func appendCopyLine(_ row: [DatabaseValue], to buffer: inout [UInt8]) {
        for (index, value) in row.enumerated() {
            if index > 0 { buffer.append(UInt8(ascii: "\t")) }
            switch value {
            case .null:
                buffer.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "N")])
            case .integer(let integer):
                appendDigits(of: integer, to: &buffer)
            case .real(let real):
                buffer.append(contentsOf: String(real).utf8)
            case .text(var text):
                // The runs between bytes to escape copied whole: a text seldom holds one.
                text.withUTF8 { bytes in
                    var start = 0
                    for (index, byte) in bytes.enumerated() {
                        let escaped: UInt8
                        switch byte {
                        case UInt8(ascii: "\\"): escaped = UInt8(ascii: "\\")
                        case UInt8(ascii: "\t"): escaped = UInt8(ascii: "t")
                        case UInt8(ascii: "\n"): escaped = UInt8(ascii: "n")
                        case UInt8(ascii: "\r"): escaped = UInt8(ascii: "r")
                        default: continue
                        }
                        buffer.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[start..<index]))
                        buffer.append(UInt8(ascii: "\\"))
                        buffer.append(escaped)
                        start = index + 1
                    }
                    buffer.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[start...]))
                }
            case .blob(let data):
                // bytea's hex form, its backslash escaped for COPY: \\x0a1b…
                buffer.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "\\"), UInt8(ascii: "x")])
                let digits = Array("0123456789abcdef".utf8)
                for byte in data {
                    buffer.append(digits[Int(byte >> 4)])
                    buffer.append(digits[Int(byte & 0x0f)])
                }
            }
        }
        buffer.append(UInt8(ascii: "\n"))
    }

    /// The decimal digits of `integer`, with its sign, written straight into `buffer` (no `String`
    /// made for each value).
    private static func appendDigits(of integer: Int64, to buffer: inout [UInt8]) {
        if integer < 0 { buffer.append(UInt8(ascii: "-")) }
        let start = buffer.count
        var rest = integer.magnitude
        repeat {
            buffer.append(UInt8(ascii: "0") + UInt8(rest % 10))
            rest /= 10
        } while rest > 0
        // Reversed by swaps: `buffer[start...].reverse()` copies the slice.
        var (low, high) = (start, buffer.count - 1)
        while low < high {
            buffer.swapAt(low, high)
            (low, high) = (low + 1, high - 1)
        }
    }
}
