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
        var widths: [Int] = []
        for case .cells(let cells) in lines {
            for (index, cell) in cells.enumerated() {
                let width = Self.displayWidth(cell)
                if index < widths.count { widths[index] = max(widths[index], width) } else { widths.append(width) }
            }
        }
        var output: [String] = []
        for line in lines {
            switch line {
            case .text(let text):
                output.append(text)
            case .cells(let cells):
                var parts: [String] = []
                for (index, cell) in cells.enumerated() {
                    let padding = String(repeating: " ", count: widths[index] - Self.displayWidth(cell))
                    parts.append(rightAligned.contains(index) ? padding + cell : cell + padding)
                }
                var text = parts.joined(separator: "  ")
                while text.last == " " { text.removeLast() }
                output.append(text)
            }
        }
        return output.joined(separator: "\n")
    }

    /// The number of terminal columns `text` takes.
    static func displayWidth(_ text: String) -> Int {
        text.unicodeScalars.reduce(0) { width, scalar in
            if scalar.properties.generalCategory == .nonspacingMark || scalar.properties.generalCategory == .enclosingMark
                || scalar.value == 0x200D || (0xFE00...0xFE0F).contains(scalar.value) {
                return width
            }
            return width + (isWide(scalar.value) ? 2 : 1)
        }
    }

    private static func isWide(_ value: UInt32) -> Bool {
        switch value {
        case 0x1100...0x115F, 0x2E80...0x303E, 0x3041...0x33FF, 0x3400...0x4DBF, 0x4E00...0x9FFF,
             0xA000...0xA4CF, 0xAC00...0xD7A3, 0xF900...0xFAFF, 0xFE30...0xFE4F, 0xFF00...0xFF60,
             0xFFE0...0xFFE6, 0x1F300...0x1F64F, 0x1F900...0x1F9FF, 0x20000...0x3FFFD:
            return true
        default:
            return false
        }
    }
}
