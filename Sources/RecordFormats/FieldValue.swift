
/// The kind of value a record field holds, which says how it is written and read.
public enum FieldKind: Sendable {
    /// Text: a JSON string, a CSV or TSV cell as it is.
    case text
    /// A whole number: a JSON number without fraction or exponent, or the same digits in a cell.
    case integer
    /// A number: any JSON number, or the same text in a cell.
    case decimal
}

/// A field's value as records are written and read.
public enum FieldValue: Sendable, Equatable {
    case text(String)
    case integer(Int64)
    case decimal(Double)

    /// The text it is written as in every format: text as it is; numbers without grouping, a decimal
    /// in the fewest digits that read back as the same `Double`, without a trailing `.0` (as
    /// `JSONEncoder` writes them) and never with an exponent.
    public var text: String {
        switch self {
        case .text(let text): text
        case .integer(let value): String(value)
        case .decimal(let value): Self.decimalText(value)
        }
    }

    /// `599.0` → `599`, `1299.99` → `1299.99`, `1e-05` → `0.00001`.
    static func decimalText(_ value: Double) -> String {
        guard value.isFinite else { return value.description }
        if value == value.rounded(), abs(value) < 1e15 { return String(Int64(value)) }
        let shortest = value.description
        guard shortest.contains("e") else { return shortest }
        // The shortest form is in scientific notation: write it out in positional digits instead.
        for digits in 1...40 {
            let text = FixedPoint.text(value, decimals: digits)
            if Double(text) == value { return text }
        }
        return shortest
    }
}
