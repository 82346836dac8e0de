/// The Markdown table the benchmark prints: one row per workload and metric, one column per contender,
/// and each contender's ratio to raw C.
public struct Report: Sendable {
    /// What a cell holds.
    public enum Cell: Sendable {
        case time(Duration)
        case megabytes(Double)
        case text(String)

        var number: Double? {
            switch self {
            case .time(let duration): duration.milliseconds
            case .megabytes(let megabytes): megabytes
            case .text: nil
            }
        }

        public var rendered: String {
            switch self {
            case .time(let duration): Self.format(milliseconds: duration.milliseconds)
            case .megabytes(let megabytes): "\(Self.format(megabytes, digits: 1)) MB"
            case .text(let text): text
            }
        }

        static func format(milliseconds: Double) -> String {
            if milliseconds >= 1_000 { return "\(format(milliseconds / 1_000, digits: 2)) s" }
            if milliseconds >= 100 { return "\(format(milliseconds, digits: 0)) ms" }
            if milliseconds >= 10 { return "\(format(milliseconds, digits: 1)) ms" }
            return "\(format(milliseconds, digits: 2)) ms"
        }

        public static func format(_ value: Double, digits: Int) -> String {
            var scale = 1.0
            for _ in 0..<digits { scale *= 10 }
            let rounded = (value * scale).rounded() / scale
            var text = String(rounded)
            if digits == 0, text.hasSuffix(".0") { text.removeLast(2) }
            if let dot = text.firstIndex(of: "."), digits > 0 {
                let decimals = text.distance(from: dot, to: text.endIndex) - 1
                text += String(repeating: "0", count: max(0, digits - decimals))
            }
            return text
        }
    }

    public struct Row: Sendable {
        public var workload: String
        public var cells: [String: Cell]
        public var target: String

        public init(workload: String, cells: [String: Cell], target: String) {
            self.workload = workload
            self.cells = cells
            self.target = target
        }
    }

    /// The contenders, in column order; the first is the baseline of the ratios.
    public var contenders: [String]
    public var rows: [Row] = []

    public init(contenders: [String]) {
        self.contenders = contenders
    }

    public mutating func append(_ row: Row) {
        rows.append(row)
    }

    public var markdown: String {
        let baseline = contenders[0]
        var header = ["Workload", baseline]
        for contender in contenders.dropFirst() { header += [contender, "÷ \(baseline)"] }
        header.append("Target")
        var lines = [line(header), line(header.map { _ in "---" })]
        for row in rows {
            var cells = [row.workload, row.cells[baseline]?.rendered ?? "—"]
            for contender in contenders.dropFirst() {
                let cell = row.cells[contender]
                cells.append(cell?.rendered ?? "—")
                if let value = cell?.number, let base = row.cells[baseline]?.number, base > 0 {
                    cells.append("\(Cell.format(value / base, digits: 2))×")
                } else {
                    cells.append("")
                }
            }
            cells.append(row.target)
            lines.append(line(cells))
        }
        return lines.joined(separator: "\n")
    }

    private func line(_ cells: [String]) -> String {
        "| " + cells.joined(separator: " | ") + " |"
    }
}
