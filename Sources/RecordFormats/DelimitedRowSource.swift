/// CSV (RFC 4180) and TSV rows: a header row naming the columns, then one row per record.
///
/// CSV: fields separated by commas; a field holding a comma, a quote or a line break is quoted, its
/// quotes doubled. TSV: fields separated by tabs, never quoted; `\t`, `\n`, `\r` and `\\` stand for
/// tab, LF, CR and backslash, and any other backslash is an error. Both: UTF-8, with or without a
/// byte-order mark at the start; rows end with CRLF or LF (the last one may lack it); blank lines are
/// skipped. A file with a header and no records holds no records (what `export` writes of an empty
/// table); an empty file, without even a header, is refused.
final class DelimitedRowSource: RowSource {
    private let input: ByteInput
    private let isCSV: Bool
    private let separator: UInt8
    /// The line and character column of the next byte.
    private var line = 1
    private var column = 1
    private var header: [String] = []
    /// The header row's names.
    var columnNames: [String]? { header }
    private var headerColumns: [Int] = []
    private var cellBytes: [UInt8] = []
    /// Whether every byte of ``cellBytes`` is ASCII (then valid UTF-8 as it is).
    private var cellIsASCII = true
    /// The byte that is not a value's own where it stands in an unquoted field: a quote in CSV, a
    /// backslash (an escape) in TSV.
    private let special: UInt8

    init(input: ByteInput, format: DataFormat) throws {
        precondition(format.isTabular)
        self.input = input
        isCSV = format == .csv
        separator = isCSV ? ASCII.comma : ASCII.tab
        special = isCSV ? ASCII.quote : ASCII.backslash
        try ByteOrderMark.skip(input)
        guard let (_, cells) = try readRawRow() else {
            throw RecordReadError(line: 1, reason: "the file is empty: expected a header row naming the columns")
        }
        let names = cells.map(\.text)
        var seen = Set<String>()
        for (index, name) in names.enumerated() {
            if name.isEmpty { throw RecordReadError(line: 1, column: index + 1, reason: "the header names no column here") }
            if !seen.insert(name).inserted {
                throw RecordReadError(line: 1, column: index + 1, reason: "the column \(String(reflecting: name)) appears twice in the header")
            }
        }
        header = names
        headerColumns = names.indices.map { $0 + 1 }
    }

    func nextRow() throws -> CellRow? {
        guard let (rowLine, cells) = try readRawRow() else { return nil }
        guard cells.count == header.count else {
            throw RecordReadError(
                line: rowLine, reason: "\(cells.count) value\(cells.count == 1 ? "" : "s"), but the header has \(header.count) column\(header.count == 1 ? "" : "s")")
        }
        return CellRow(line: rowLine, namesLine: 1, names: header, cells: cells, columns: headerColumns)
    }

    /// The next row's fields as cells, with the line it starts on; nil at the end.
    private func readRawRow() throws -> (Int, [Cell])? {
        // Blank lines between rows are skipped.
        while let byte = try input.peek(), byte == ASCII.lineFeed || byte == ASCII.carriageReturn {
            try endLine()
        }
        guard try input.peek() != nil else { return nil }
        let rowLine = line
        var fields: [Cell] = []
        fields.reserveCapacity(header.count)
        while true {
            let fieldColumn = fields.count + 1
            let fieldLine = line
            cellBytes.removeAll(keepingCapacity: true)
            cellIsASCII = true
            if isCSV, try input.peek() == ASCII.quote {
                try readQuotedField()
            } else {
                try readPlainField()
            }
            // ASCII is valid UTF-8: only a value with other bytes is checked.
            guard let text = cellIsASCII ? String(decoding: cellBytes, as: UTF8.self) : UTF8Text.string(validating: cellBytes) else {
                // A record's value is named by its column's header (the header row itself has none yet).
                let field = header.indices.contains(fieldColumn - 1) ? header[fieldColumn - 1] : nil
                throw RecordReadError(line: fieldLine, column: fieldColumn, field: field, reason: "the value is not valid UTF-8 text")
            }
            fields.append(.cell(text))
            guard let byte = try input.peek() else { break }
            if byte == separator {
                _ = try consume()
                continue
            }
            try endLine()
            break
        }
        return (rowLine, fields)
    }

    /// Reads a quoted field's text, up to its closing quote, a run of bytes at a time.
    private func readQuotedField() throws {
        let (openLine, openColumn) = (line, column)
        _ = try consume()
        while true {
            try input.consumeRun(while: { $0 != ASCII.quote }) { run in take(run, countingLines: true) }
            if cellBytes.count > ValueLimit.maximumBytes { throw ValueLimit.error(line: openLine, column: openColumn) }
            guard let byte = try input.peek() else {
                throw RecordReadError(
                    line: openLine, column: openColumn, reason: "the quoted field that starts here has no closing quote")
            }
            guard byte == ASCII.quote else { continue }  // the run ended with the chunk read
            // A quote: doubled, it is one of the text's; else it closes the field.
            _ = try consume()
            guard try input.peek() == ASCII.quote else { break }
            _ = try consume()
            cellBytes.append(ASCII.quote)
        }
        if let next = try input.peek(), next != separator, next != ASCII.lineFeed, next != ASCII.carriageReturn {
            throw RecordReadError(
                line: line, column: column,
                reason: "a quoted field goes on after its closing quote (inside quotes, write a quote as \"\")")
        }
    }

    /// Reads an unquoted field's text, up to a separator or line end, a run of bytes at a time.
    private func readPlainField() throws {
        let (startLine, startColumn) = (line, column)
        let (separator, special) = (separator, special)
        while true {
            try input.consumeRun(while: { $0 != separator && $0 != special && $0 != ASCII.lineFeed && $0 != ASCII.carriageReturn }) { run in
                take(run, countingLines: false)
            }
            if cellBytes.count > ValueLimit.maximumBytes { throw ValueLimit.error(line: startLine, column: startColumn) }
            guard let byte = try input.peek(), byte != separator, byte != ASCII.lineFeed, byte != ASCII.carriageReturn else { return }
            guard byte == special else { continue }  // the run ended with the chunk read
            if isCSV {
                throw RecordReadError(
                    line: line, column: column, reason: "a quote inside an unquoted field (quote the field and write the quote as \"\")")
            }
            let escapeColumn = column
            _ = try consume()
            switch try consume() {
            case UInt8(ascii: "t"): cellBytes.append(ASCII.tab)
            case UInt8(ascii: "n"): cellBytes.append(ASCII.lineFeed)
            case UInt8(ascii: "r"): cellBytes.append(ASCII.carriageReturn)
            case ASCII.backslash: cellBytes.append(ASCII.backslash)
            default:
                throw RecordReadError(
                    line: line, column: escapeColumn, reason: "unknown escape: a backslash must be followed by t, n, r or \\")
            }
        }
    }

    /// Adds a run of a value's bytes to ``cellBytes``, counting its characters (and, inside quotes,
    /// its line feeds) into the line and column, and noting a byte that is not ASCII.
    @inline(__always)
    private func take(_ run: UnsafeBufferPointer<UInt8>, countingLines: Bool) {
        guard !run.isEmpty else { return }
        cellBytes.append(contentsOf: run)
        var (lines, column, bits) = (0, self.column, UInt8(0))
        for byte in run {
            bits |= byte
            if countingLines && byte == ASCII.lineFeed {
                lines += 1
                column = 1
            } else if ASCII.startsCharacter(byte) {
                column += 1
            }
        }
        line += lines
        self.column = column
        if bits >= 0x80 { cellIsASCII = false }
    }

    /// Consumes one byte that is not a line break, counting columns.
    private func consume() throws -> UInt8? {
        guard let byte = try input.next() else { return nil }
        if ASCII.startsCharacter(byte) { column += 1 }
        return byte
    }

    /// Consumes a line end: CRLF, LF or a lone CR.
    private func endLine() throws {
        if try input.next() == ASCII.carriageReturn, try input.peek() == ASCII.lineFeed { _ = try input.next() }
        line += 1
        column = 1
    }
}
