/// The rows of an input in a ``DataFormat``, read one at a time; the first row's field names can be
/// looked at before any record is read, to tell which record type a file holds.
public final class RowReader {
    /// The format read.
    public let format: DataFormat
    private let source: any RowSource
    private var pending: CellRow?
    private var hasPeeked = false

    /// Reads `input` as `format`. For CSV and TSV the header row is read now.
    ///
    /// - Throws: ``RecordReadError`` for an empty CSV or TSV file or a bad header; ``FileError``.
    public init(input: ByteInput, format: DataFormat) throws {
        self.format = format
        source = switch format {
        case .json, .jsonl: try JSONRowSource(input: input, format: format)
        case .csv, .tsv: try DelimitedRowSource(input: input, format: format)
        }
    }

    /// The field names of the first record (the header's, for CSV and TSV, even with no records after
    /// it), or nil when there are no records and no header.
    public func firstFieldNames() throws -> [String]? {
        if !hasPeeked {
            pending = try source.nextRow()
            hasPeeked = true
        }
        return pending?.names ?? source.columnNames
    }

    /// The names the header row gives (CSV and TSV); nil for JSON and JSON lines.
    var columnNames: [String]? { source.columnNames }

    func nextRow() throws -> CellRow? {
        if hasPeeked {
            hasPeeked = false
            defer { pending = nil }
            return pending
        }
        return try source.nextRow()
    }
}
