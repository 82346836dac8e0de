
/// The kind of value a record field holds, which says how it is written and read.
public enum FieldKind: Sendable {
    /// Text: a JSON string, a CSV or TSV cell as it is.
    case text
    /// A whole number: a JSON number without fraction or exponent, or the same digits in a cell.
    case integer
    /// A number: any JSON number, or the same text in a cell.
    case decimal
    /// True or false: JSON's `true` and `false`, or text read by `BooleanText` (`true`, `false`,
    /// `1`, `0`, `yes`, `no`, in any ASCII case).
    case boolean
    /// An instant: ISO 8601 text with an offset or `Z`, or a number of seconds since 1970 (`DateText`).
    case date
}

/// A field's value as records are written and read.
public enum FieldValue: Sendable, Equatable {
    case text(String)
    case integer(Int64)
    case decimal(Double)
    case boolean(Bool)
    /// An instant, in seconds since 1970-01-01 00:00:00 UTC.
    case date(secondsSince1970: Double)

    /// The text it is written as in every format: text as it is; numbers without grouping, a decimal
    /// in the fewest digits that read back as the same `Double`, without a trailing `.0` (as
    /// `JSONEncoder` writes them) and never with an exponent; `true` and `false`; a date in ISO 8601, in
    /// UTC (`DateText`).
    public var text: String {
        switch self {
        case .text(let text): text
        case .integer(let value): String(value)
        case .decimal(let value): Self.decimalText(value)
        case .boolean(let value): value ? "true" : "false"
        case .date(let seconds): DateText.text(seconds)
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

extension FieldValue {
    /// `text` read as a value of `kind` by the rules of a CSV cell (a number in JSON's grammar, a
    /// boolean word, an ISO 8601 date or seconds since 1970); nil when it is not one.
    public init?(text: String, kind: FieldKind) {
        switch kind {
        case .text: self = .text(text)
        case .integer:
            guard NumberSyntax.isInteger(text.utf8), let value = Int64(text) else { return nil }
            self = .integer(value)
        case .decimal:
            guard NumberSyntax.isJSONNumber(text.utf8, allowingLeadingZeros: true), let value = Double(text), value.isFinite else {
                return nil
            }
            self = .decimal(value)
        case .boolean:
            guard let value = BooleanText.value(text) else { return nil }
            self = .boolean(value)
        case .date:
            guard let seconds = DateText.seconds(text), seconds.isFinite else { return nil }
            self = .date(secondsSince1970: seconds)
        }
    }
}
