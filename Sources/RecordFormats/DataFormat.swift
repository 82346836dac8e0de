/// A text format that records are read from and written in, one record per row or line.
///
/// - `json`: a JSON array of objects.
/// - `jsonl`: JSON lines, one object per line.
/// - `csv`: RFC 4180 comma-separated values with a header row.
/// - `tsv`: tab-separated values with a header row; tab, newline, carriage return and backslash in a
///   value are written `\t`, `\n`, `\r` and `\\`.
public enum DataFormat: String, CaseIterable, Sendable {
    case json
    case jsonl
    case csv
    case tsv

    /// The format a file name's extension names: `.json`, `.jsonl` or `.ndjson`, `.csv`, `.tsv` or `.tab`
    /// (any case); nil for another one.
    public init?(fileName: String) {
        guard let dot = fileName.lastIndex(of: "."), !fileName[dot...].contains("/") else { return nil }
        switch fileName[fileName.index(after: dot)...].lowercased() {
        case "json": self = .json
        case "jsonl", "ndjson": self = .jsonl
        case "csv": self = .csv
        case "tsv", "tab": self = .tsv
        default: return nil
        }
    }

    /// Whether rows have a header row naming their columns (CSV and TSV).
    public var isTabular: Bool { self == .csv || self == .tsv }

    /// The format text starting with `[` (JSON) or `{` (JSON lines) is in, after white space and a
    /// byte-order mark; nil for other text. `input` is not advanced.
    public static func sniffed(from input: ByteInput) throws -> DataFormat? {
        switch try input.firstNonSpaceByte() {
        case UInt8(ascii: "["): .json
        case UInt8(ascii: "{"): .jsonl
        default: nil
        }
    }
}
