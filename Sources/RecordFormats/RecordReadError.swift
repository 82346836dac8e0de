/// Why a file's records cannot be read, and where: the line, and the column when it is known.
///
/// Its description is one line: `line 3, column 4 (introPrice): expected a number, found "abc"`.
/// For CSV and TSV a value's column is its column's number; otherwise columns count characters from 1.
public struct RecordReadError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The line where the row or value at fault starts, from 1.
    public let line: Int
    /// The column, when known.
    public let column: Int?
    /// The field at fault, when there is one.
    public let field: String?
    /// What is wrong.
    public let reason: String
    /// For a record with fields the layout does not have: the record's values as text, by field name,
    /// so that a caller can tell which other record type it is and name it.
    public let recordValues: [String: String]?

    /// An error at `line` (and `column`, and `field`).
    public init(line: Int, column: Int? = nil, field: String? = nil, reason: String, recordValues: [String: String]? = nil) {
        self.line = line
        self.column = column
        self.field = field
        self.reason = reason
        self.recordValues = recordValues
    }

    public var description: String {
        var place = "line \(line)"
        if let column { place += ", column \(column)" }
        if let field { place += " (\(field))" }
        return place + ": " + reason
    }
}
