/// Writes records of any type in a ``DataFormat``, one at a time, as they come: the output is never
/// held whole in memory.
///
/// - JSON: an array of objects, pretty-printed as `JSONEncoder` does with sorted keys.
/// - JSON lines: one object per line, keys sorted.
/// - CSV: RFC 4180, CRLF line ends, a header row of the field names.
/// - TSV: LF line ends, a header row; tab, LF, CR and backslash in a value written `\t`, `\n`, `\r`, `\\`.
///
/// Values are written as ``FieldValue/text`` says; a field without a value is left out of JSON and is
/// an empty cell in CSV and TSV.
///
/// ```swift
/// let writer = RecordWriter(format: .csv, layout: Film.layout, output: .standardOutput())
/// for film in films { try writer.write(film) }
/// try writer.finish()
/// ```
public final class RecordWriter<Record> {
    /// The format written.
    public let format: DataFormat
    private let layout: RecordLayout<Record>
    private let extraFields: [String]
    private let output: ByteOutput
    /// Column names: the extra fields, then the layout's.
    private let columns: [String]
    /// The order JSON keys are written in: sorted, as indexes into ``columns``.
    private let keyOrder: [Int]
    private let keyLiterals: [String]
    private let writesHeaderWhenEmpty: Bool
    private var count = 0
    private var hasStarted = false

    /// A writer of `layout`'s records to `output`.
    ///
    /// - Parameters:
    ///   - extraFields: names of values written before each record's fields (in CSV and TSV) or among
    ///     them (JSON), given to each ``write(_:extras:)``: a row's `section` and `path`, say.
    ///   - writesHeaderWhenEmpty: whether CSV and TSV output without records still has its header row
    ///     (and JSON its empty array): true for a file, false where no records should print nothing.
    public init(
        format: DataFormat, layout: RecordLayout<Record>, extraFields: [String] = [], output: ByteOutput,
        writesHeaderWhenEmpty: Bool = true
    ) {
        self.format = format
        self.layout = layout
        self.extraFields = extraFields
        self.output = output
        self.writesHeaderWhenEmpty = writesHeaderWhenEmpty
        let columns = extraFields + layout.fieldNames
        self.columns = columns
        keyOrder = columns.indices.sorted { columns[$0] < columns[$1] }
        keyLiterals = columns.map { FieldEncoding.json($0) }
    }

    /// The number of records written so far.
    public var recordCount: Int { count }

    /// Writes one record, with the values of the extra fields in their order.
    public func write(_ record: Record, extras: [FieldValue?] = []) throws {
        precondition(extras.count == extraFields.count, "one value per extra field")
        try write(values: extras + layout.fields.map { $0.value(record) })
    }

    /// Writes one row of values given in column order (the extra fields', then the layout's): for a
    /// row that has no record to take them from.
    public func write(values: [FieldValue?]) throws {
        precondition(values.count == columns.count, "one value per column")
        if !hasStarted { try writeStart() }
        switch format {
        case .json:
            try output.write(count == 0 ? "  {\n" : ",\n  {\n")
            var first = true
            for index in keyOrder {
                guard let value = values[index] else { continue }
                try output.write((first ? "    " : ",\n    ") + keyLiterals[index] + " : " + FieldEncoding.json(value))
                first = false
            }
            try output.write("\n  }")
        case .jsonl:
            var line = "{"
            for index in keyOrder {
                guard let value = values[index] else { continue }
                line += (line.utf8.count == 1 ? "" : ",") + keyLiterals[index] + ":" + FieldEncoding.json(value)
            }
            try output.write(line + "}\n")
        case .csv:
            try output.write(values.map { FieldEncoding.csv($0?.text ?? "") }.joined(separator: ",") + "\r\n")
        case .tsv:
            try output.write(values.map { FieldEncoding.tsv($0?.text ?? "") }.joined(separator: "\t") + "\n")
        }
        count += 1
    }

    /// Ends the output (the JSON array's bracket, or the header of an empty table) and flushes it.
    /// A file given as `output` still needs its ``ByteOutput/commit()``. JSON lines, CSV and TSV
    /// writers may go on writing after it (a stream of events, flushed after each batch).
    public func finish() throws {
        if !hasStarted && writesHeaderWhenEmpty {
            switch format {
            case .json: try output.write("[]\n")
            case .jsonl: break
            case .csv, .tsv: try writeStart()
            }
        } else if hasStarted && format == .json {
            try output.write("\n]\n")
        }
        try output.flush()
    }

    private func writeStart() throws {
        hasStarted = true
        switch format {
        case .json: try output.write("[\n")
        case .jsonl: break
        case .csv: try output.write(columns.map(FieldEncoding.csv).joined(separator: ",") + "\r\n")
        case .tsv: try output.write(columns.map(FieldEncoding.tsv).joined(separator: "\t") + "\n")
        }
    }
}
