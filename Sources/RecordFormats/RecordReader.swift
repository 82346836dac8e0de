/// Reads records of any type from a ``RowReader``, one at a time, as its ``RecordLayout`` says.
///
/// Each row must name only fields of the layout (else the error names the unknown ones) and give every
/// required one (else it names the missing ones). A value is read by its field's kind: text from a
/// JSON string or a cell; numbers from a JSON number or a cell holding one (JSON's grammar); booleans
/// from JSON's `true` and `false` or `true`, `false`, `yes`, `no`, `1`, `0` in any ASCII case
/// (`BooleanText`); dates from ISO 8601 text with an offset or `Z`, or a number of seconds since 1970
/// (`DateText`). JSON `null`, and an empty cell for a field other than text or an optional field,
/// leave the field out. Text holding a
/// byte-order mark (U+FEFF: two files joined?) is refused. Every error is a ``RecordReadError`` with
/// the line and column at fault.
///
/// ```swift
/// let reader = RecordReader(rows: try RowReader(input: try ByteInput(path: "films.csv"), format: .csv), layout: Film.layout)
/// while let film = try reader.next() { … }
/// ```
public final class RecordReader<Record> {
    private let rows: RowReader
    private let layout: RecordLayout<Record>
    /// The line where the last record read starts.
    public private(set) var line = 0
    /// The names of the last row read, and the place of each among the layout's fields (nil: not a
    /// field): a CSV or TSV file's rows all share their header's names, which are then looked up
    /// once, not once a value (the `import` rows of Ingest, Benchmarks/README.md).
    private var names: [String] = []
    private var fieldIndexes: [Int?] = []
    /// The number of fields a record must give.
    private let requiredCount: Int

    /// A reader of `rows` as records of `layout`.
    public init(rows: RowReader, layout: RecordLayout<Record>) {
        self.rows = rows
        self.layout = layout
        var requiredCount = 0
        for index in layout.fields.indices where !layout.fields[index].isOptional { requiredCount += 1 }
        self.requiredCount = requiredCount
    }

    /// The next record, or nil at the end. A CSV or TSV header with no records after it is checked
    /// as the records' names would be: it holds no records, but not of the wrong fields.
    public func next() throws -> Record? {
        guard let row = try rows.nextRow() else {
            if line == 0, let names = rows.columnNames {
                let known = Set(names.compactMap { layout.indexByName[$0] })
                try checkNames(unknown: names.filter { layout.indexByName[$0] == nil }, given: { known.contains($0) }, namesLine: 1)
            }
            return nil
        }
        line = row.line
        // Equal arrays of one storage compare at once: a header's names are the same array every row.
        if row.names != names {
            names = row.names
            fieldIndexes = names.map { layout.indexByName[$0] }
        }
        var record = layout.template
        var given = [Bool](repeating: false, count: layout.fields.count)
        var requiredGiven = 0
        var unknown: [String] = []
        for index in row.names.indices {
            guard let fieldIndex = fieldIndexes[index] else {
                unknown.append(row.names[index])
                continue
            }
            let field = layout.fields[fieldIndex]
            let place = (line: row.line, column: row.columns[index])
            guard let value = try Self.value(of: row.cells[index], field, line: place.line, column: place.column) else { continue }
            // A row names each field once (a header or an object naming one twice is refused).
            given[fieldIndex] = true
            if !field.isOptional { requiredGiven += 1 }
            do {
                try field.assign(&record, value)
            } catch {
                throw RecordReadError(line: place.line, column: place.column, field: field.name, reason: "\(error)")
            }
        }
        if !unknown.isEmpty || requiredGiven < requiredCount {
            try checkNames(
                unknown: unknown, given: { given[$0] }, namesLine: row.namesLine,
                recordValues: Dictionary(zip(row.names, row.cells.map(\.text)), uniquingKeysWith: { first, _ in first }))
        }
        return record
    }

    /// Throws the error for names (`unknown`) the layout does not have, or for a required field that
    /// `given` (by field index) says is not there; `recordValues` go with the first (made only then).
    private func checkNames(
        unknown: [String], given: (Int) -> Bool, namesLine: Int, recordValues: @autoclosure () -> [String: String]? = nil
    ) throws {
        let noun = rows.format.isTabular ? "column" : "field"
        if !unknown.isEmpty {
            throw RecordReadError(
                line: namesLine,
                reason: "unknown \(noun)\(unknown.count == 1 ? "" : "s") \(unknown.joined(separator: ", ")) (expected \(layout.fieldNames.joined(separator: ", ")))",
                recordValues: recordValues())
        }
        let missing = layout.fields.indices.filter { !given($0) && !layout.fields[$0].isOptional }.map { layout.fields[$0].name }
        if !missing.isEmpty {
            throw RecordReadError(line: namesLine, reason: "missing \(noun)\(missing.count == 1 ? "" : "s") \(missing.joined(separator: ", "))")
        }
    }

    /// A cell read as a field of `field`'s kind; nil when it leaves the field out.
    private static func value(of cell: Cell, _ field: RecordField<Record>, line: Int, column: Int) throws -> FieldValue? {
        func failure(_ reason: String) -> RecordReadError {
            RecordReadError(line: line, column: column, field: field.name, reason: reason)
        }
        switch (cell, field.kind) {
        case (.null, _):
            if field.isOptional { return nil }
            throw failure("missing value (null)")
        case (.cell(let text), _) where text.isEmpty && field.kind != .text:
            if field.isOptional { return nil }
            throw failure("missing value")
        case (.cell(let text), .integer), (.cell(let text), .decimal):
            return try number(text, field.kind, allowingLeadingZeros: true, failure)
        case (.number(let literal), .integer), (.number(let literal), .decimal):
            return try number(literal, field.kind, allowingLeadingZeros: false, failure)
        case (.cell(let text), .text) where text.isEmpty && field.isOptional:
            return nil
        case (.cell(let text), .text), (.string(let text), .text):
            // U+FEFF is EF BB BF in UTF-8: a text without an EF byte holds none.
            if text.utf8.withContiguousStorageIfAvailable({ $0.contains(0xEF) }) ?? true, text.unicodeScalars.contains("\u{FEFF}") {
                throw failure("the text holds a byte-order mark (U+FEFF): are two files joined?")
            }
            return .text(text)
        case (.boolean(let value), .boolean):
            return .boolean(value)
        case (.cell(let text), .boolean), (.string(let text), .boolean), (.number(let text), .boolean):
            guard let value = BooleanText.value(text) else {
                throw failure("expected true, false, yes, no, 1 or 0, found \(String(reflecting: String(text.prefix(40))))")
            }
            return .boolean(value)
        case (.cell(let text), .date), (.string(let text), .date), (.number(let text), .date):
            guard let seconds = DateText.seconds(text), seconds.isFinite else {
                throw failure(
                    "expected a date such as 1984-01-24T09:30:00Z (ISO 8601 with an offset or Z) or seconds since 1970, found \(String(reflecting: String(text.prefix(40))))")
            }
            return .date(secondsSince1970: seconds)
        case (.string(let text), _):
            throw failure("expected a number, found text \(String(reflecting: String(text.prefix(40))))")
        case (.number(let literal), .text):
            throw failure("expected text in quotes, found the number \(literal)")
        case (.boolean, .date):
            throw failure("expected a date, found true or false")
        case (.boolean, _):
            throw failure(field.kind == .text ? "expected text, found true or false" : "expected a number, found true or false")
        }
    }

    private static func number(
        _ text: String, _ kind: FieldKind, allowingLeadingZeros: Bool, _ failure: (String) -> RecordReadError
    ) throws -> FieldValue {
        // Made only for a failure: it escapes the text.
        var shown: String { String(reflecting: String(text.prefix(40))) }
        if kind == .integer {
            guard NumberSyntax.isInteger(text.utf8), let value = Int64(text) else {
                throw failure("expected a whole number, found \(shown)")
            }
            return .integer(value)
        }
        guard NumberSyntax.isJSONNumber(text.utf8, allowingLeadingZeros: allowingLeadingZeros), let value = Double(text),
              value.isFinite else {
            throw failure("expected a number such as 599.99, found \(shown)")
        }
        // A number too small for a Double reads as 0: refuse it rather than store another value.
        if value == 0, text.prefix(while: { $0 != "e" && $0 != "E" }).contains(where: { ("1"..."9").contains($0) }) {
            throw failure("\(shown) is too small to be stored (it would be 0)")
        }
        return .decimal(value)
    }
}
