#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A value as it stands in the input, before a field's kind reads it.
enum Cell {
    /// A JSON string.
    case string(String)
    /// A JSON number, as written.
    case number(String)
    /// JSON `true` or `false`.
    case boolean(Bool)
    /// JSON `null`.
    case null
    /// A CSV or TSV cell: text that a number field reads as a number.
    case cell(String)

    /// The value as text, as it was written.
    var text: String {
        switch self {
        case .string(let text), .number(let text), .cell(let text): text
        case .boolean(let value): String(value)
        case .null: "null"
        }
    }
}

/// One row of input: the line it starts on, and its values with their names and columns.
struct CellRow {
    /// The line the row starts on.
    let line: Int
    /// The line that names the values: the header's for CSV and TSV, the row's own for JSON.
    let namesLine: Int
    /// The values' names, in the order of ``cells``.
    let names: [String]
    let cells: [Cell]
    /// Where each value is: its column number in CSV and TSV, its first character in JSON.
    let columns: [Int]
}

/// A format's rows, one at a time.
protocol RowSource: AnyObject {
    /// The next row, or nil at the end of the input.
    func nextRow() throws -> CellRow?
    /// The names of the columns a header row gives (CSV and TSV), known before any row; nil for a
    /// format whose rows name their own fields (JSON).
    var columnNames: [String]? { get }
}

/// The longest value a reader takes, in bytes: far above any field's text (a name is at most a few
/// hundred bytes), and low enough that a runaway quoted field (a quote never closed in a large file)
/// fails early instead of filling memory.
enum ValueLimit {
    static let maximumBytes = 1 << 20
    /// The longest JSON record read, in bytes: a record is parsed whole in memory, so a brace never
    /// closed (or a run of white space) fails here instead of filling memory.
    static let maximumRecordBytes = 16 << 20

    static func error(line: Int, column: Int) -> RecordReadError {
        RecordReadError(line: line, column: column, reason: "a value longer than \(maximumBytes / 1024 / 1024) MiB (is a quote not closed?)")
    }
}

/// Bytes the readers compare against.
enum ASCII {
    static let lineFeed = UInt8(ascii: "\n")
    static let carriageReturn = UInt8(ascii: "\r")
    static let tab = UInt8(ascii: "\t")
    static let comma = UInt8(ascii: ",")
    static let quote = UInt8(ascii: "\"")
    static let backslash = UInt8(ascii: "\\")
    static let space = UInt8(ascii: " ")

    /// Whether `byte` starts a character (is not a UTF-8 continuation byte): how columns count characters.
    @inline(__always)
    static func startsCharacter(_ byte: UInt8) -> Bool { byte & 0xC0 != 0x80 }
}

/// Text read from bytes that must be UTF-8.
enum UTF8Text {
    /// The text of `bytes`, or nil when they are not valid UTF-8.
    static func string(validating bytes: [UInt8]) -> String? {
        bytes.withUnsafeBufferPointer { string(validating: $0, isASCII: false) }
    }

    /// The text of `bytes`, or nil when they are not valid UTF-8; `isASCII` when the caller saw that
    /// every byte is below 0x80 (then valid). Decoding repairs invalid bytes (each becomes U+FFFD),
    /// so the bytes were valid exactly when the text's are the same: `String(validating:as:)` runs
    /// unspecialized here, looking up its generic types for every value read (the `import` rows of
    /// Ingest, Benchmarks/README.md).
    static func string(validating bytes: UnsafeBufferPointer<UInt8>, isASCII: Bool) -> String? {
        var text = String(decoding: bytes, as: UTF8.self)
        if isASCII { return text }
        // Compared whole (`memcmp`), not byte by byte through the text's UTF-8 view.
        let same = text.withUTF8 { decoded in
            decoded.count == bytes.count && (bytes.isEmpty || memcmp(decoded.baseAddress!, bytes.baseAddress!, bytes.count) == 0)
        }
        return same ? text : nil
    }
}

/// The byte-order mark some programs put at the start of UTF-8 text: skipped there, refused elsewhere.
enum ByteOrderMark {
    static let bytes: [UInt8] = [0xEF, 0xBB, 0xBF]

    /// Skips a byte-order mark at the start of `input`.
    static func skip(_ input: ByteInput) throws {
        guard try input.peek() == bytes[0] else { return }
        for byte in bytes {
            guard try input.next() == byte else {
                throw RecordReadError(line: 1, column: 1, reason: "the file starts with bytes that are not UTF-8 text")
            }
        }
    }
}
