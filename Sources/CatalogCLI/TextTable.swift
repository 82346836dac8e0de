import RecordFormats

/// A table of text laid out in aligned columns, as a terminal shows it (East Asian wide characters
/// take two columns).
struct TextTable {
    /// A line of the table: a row of cells, or a line of text across the table (a section title).
    enum Line {
        case cells([String])
        case text(String)
    }

    /// Which columns are right-aligned (numbers).
    var rightAligned: Set<Int> = []
    private(set) var lines: [Line] = []

    init(rightAligned: Set<Int> = []) {
        self.rightAligned = rightAligned
    }

    mutating func append(_ cells: [String]) { lines.append(.cells(cells)) }
    mutating func appendText(_ text: String) { lines.append(.text(text)) }

    /// The table as lines of text, with two spaces between columns and no trailing white space.
    func render() -> String {
        let widths = columnWidths()
        return lines.map { line in
            switch line {
            case .text(let text): text
            case .cells(let cells): Self.line(cells, widths: widths, rightAligned: rightAligned)
            }
        }.joined(separator: "\n")
    }

    /// The widest cell of each column, at least `minimum` (by column).
    func columnWidths(minimum: [Int] = []) -> [Int] {
        var widths = minimum
        for case .cells(let cells) in lines {
            for (index, cell) in cells.enumerated() {
                let width = DisplayWidth.of(cell)
                if index < widths.count { widths[index] = max(widths[index], width) } else { widths.append(width) }
            }
        }
        return widths
    }

    /// A row of cells padded to `widths` (a cell wider than its column is written whole, and pushes
    /// the rest of the line right), two spaces between columns, no trailing white space.
    static func line(_ cells: [String], widths: [Int], rightAligned: Set<Int>) -> String {
        var parts: [String] = []
        for (index, cell) in cells.enumerated() {
            let width = index < widths.count ? widths[index] : 0
            let padding = String(repeating: " ", count: max(width - DisplayWidth.of(cell), 0))
            parts.append(rightAligned.contains(index) ? padding + cell : cell + padding)
        }
        var text = parts.joined(separator: "  ")
        while text.last == " " { text.removeLast() }
        return text
    }
}

/// A table written as its lines come, for results of any size: the column widths are those of the
/// lines up to the first ``window`` rows (and at least the given minimums), which are held until then;
/// every later line is written at once. A later cell wider than its column is written whole and pushes
/// the rest of its line right, so no value is ever cut.
struct StreamedTable {
    /// The rows whose cells set the column widths, held before the first line is written: a screen,
    /// read as one search page, so that a table's first line comes as soon as a data format's (the
    /// first-byte figures of the listing table in Benchmarks/README.md; a window of 1,000 rows read a
    /// slow search's first page of 1,000 before its first line).
    static let window = 50

    private var held: TextTable
    private let minimumWidths: [Int]
    private let window: Int
    private var rowsHeld = 0
    /// The column widths, once the held lines are written.
    private var widths: [Int]?
    private let output: ByteOutput

    init(rightAligned: Set<Int>, minimumWidths: [Int], window: Int = Self.window, output: ByteOutput) {
        held = TextTable(rightAligned: rightAligned)
        self.minimumWidths = minimumWidths
        self.window = window
        self.output = output
    }

    mutating func append(_ cells: [String]) throws {
        guard let widths else {
            held.append(cells)
            rowsHeld += 1
            if rowsHeld >= window { try writeHeld() }
            return
        }
        try output.write(TextTable.line(cells, widths: widths, rightAligned: held.rightAligned) + "\n")
    }

    mutating func appendText(_ text: String) throws {
        guard widths != nil else { return held.appendText(text) }
        try output.write(text + "\n")
    }

    /// Writes the lines still held and flushes.
    mutating func finish() throws {
        if widths == nil { try writeHeld() }
        try output.flush()
    }

    /// Sets the widths from the held lines, writes them, and flushes: the first lines show at once.
    private mutating func writeHeld() throws {
        let widths = held.columnWidths(minimum: minimumWidths)
        for line in held.lines {
            switch line {
            case .text(let text): try output.write(text + "\n")
            case .cells(let cells): try output.write(TextTable.line(cells, widths: widths, rightAligned: held.rightAligned) + "\n")
            }
        }
        self.widths = widths
        held = TextTable(rightAligned: held.rightAligned)
        try output.flush()
    }
}
