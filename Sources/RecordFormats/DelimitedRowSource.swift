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

    init(input: ByteInput, format: DataFormat) throws {
        precondition(format.isTabular)
        self.input = input
        isCSV = format == .csv
        separator = isCSV ? ASCII.comma : ASCII.tab
        try ByteOrderMark.skip(input)
        guard let (_, names) = try readRawRow() else {
            throw RecordReadError(line: 1, reason: "the file is empty: expected a header row naming the columns")
        }
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
        return CellRow(line: rowLine, namesLine: 1, names: header, cells: cells.map(Cell.cell), columns: headerColumns)
    }

    /// The next row's fields as text, with the line it starts on; nil at the end.
    private func readRawRow() throws -> (Int, [String])? {
        // Blank lines between rows are skipped.
        while let byte = try input.peek(), byte == ASCII.lineFeed || byte == ASCII.carriageReturn {
            try endLine()
        }
        guard try input.peek() != nil else { return nil }
        let rowLine = line
        var fields: [String] = []
        while true {
            let fieldColumn = fields.count + 1
            cellBytes.removeAll(keepingCapacity: true)
            if isCSV, try input.peek() == ASCII.quote {
                try readQuotedField()
            } else {
                try readPlainField()
            }
            guard let text = UTF8Text.string(validating: cellBytes) else {
                // A record's value is named by its column's header (the header row itself has none yet).
                let field = header.indices.contains(fieldColumn - 1) ? header[fieldColumn - 1] : nil
                throw RecordReadError(line: rowLine, column: fieldColumn, field: field, reason: "the value is not valid UTF-8 text")
            }
            fields.append(text)
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

    private func readQuotedField() throws {
        let (openLine, openColumn) = (line, column)
        _ = try consume()
        while true {
            guard let byte = try input.next() else {
                throw RecordReadError(
                    line: openLine, column: openColumn, reason: "the quoted field that starts here has no closing quote")
            }
            if byte == ASCII.quote {
                column += 1
                if try input.peek() == ASCII.quote {
                    _ = try consume()
                    cellBytes.append(ASCII.quote)
                    continue
                }
                break
            }
            cellBytes.append(byte)
            if cellBytes.count > ValueLimit.maximumBytes { throw ValueLimit.error(line: openLine, column: openColumn) }
            if byte == ASCII.lineFeed {
                line += 1
                column = 1
            } else if ASCII.startsCharacter(byte) {
                column += 1
            }
        }
        if let next = try input.peek(), next != separator, next != ASCII.lineFeed, next != ASCII.carriageReturn {
            throw RecordReadError(
                line: line, column: column,
                reason: "a quoted field goes on after its closing quote (inside quotes, write a quote as \"\")")
        }
    }

    private func readPlainField() throws {
        while let byte = try input.peek(), byte != separator, byte != ASCII.lineFeed, byte != ASCII.carriageReturn {
            if isCSV && byte == ASCII.quote {
                throw RecordReadError(
                    line: line, column: column, reason: "a quote inside an unquoted field (quote the field and write the quote as \"\")")
            }
            let escapeColumn = column
            _ = try consume()
            if !isCSV && byte == ASCII.backslash {
                switch try consume() {
                case UInt8(ascii: "t"): cellBytes.append(ASCII.tab)
                case UInt8(ascii: "n"): cellBytes.append(ASCII.lineFeed)
                case UInt8(ascii: "r"): cellBytes.append(ASCII.carriageReturn)
                case ASCII.backslash: cellBytes.append(ASCII.backslash)
                default:
                    throw RecordReadError(
                        line: line, column: escapeColumn, reason: "unknown escape: a backslash must be followed by t, n, r or \\")
                }
            } else {
                cellBytes.append(byte)
                if cellBytes.count > ValueLimit.maximumBytes { throw ValueLimit.error(line: line, column: escapeColumn) }
            }
        }
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
