
/// How one value is written in each format.
enum FieldEncoding {
    /// A CSV field (RFC 4180): quoted when it holds a comma, a double quote, CR or LF, or starts or ends
    /// with a space, with each double quote doubled (every one, also one followed by a combining mark).
    static func csv(_ text: String) -> String {
        let needsQuotes = text.utf8.contains { $0 == UInt8(ascii: ",") || $0 == UInt8(ascii: "\"") || $0 == 0x0A || $0 == 0x0D }
            || text.first == " " || text.last == " "
        guard needsQuotes else { return text }
        return escaping(text, between: "\"") { $0 == "\"" ? "\"\"" : nil }
    }

    /// A TSV field: tab, LF, CR and backslash written `\t`, `\n`, `\r`, `\\`.
    static func tsv(_ text: String) -> String {
        guard text.utf8.contains(where: { $0 == 0x09 || $0 == 0x0A || $0 == 0x0D || $0 == UInt8(ascii: "\\") }) else {
            return text
        }
        return escaping(text) { scalar in
            switch scalar {
            case "\t": "\\t"
            case "\n": "\\n"
            case "\r": "\\r"
            case "\\": "\\\\"
            default: nil
            }
        }
    }

    /// A JSON string literal: `"` and `\` escaped, control characters as `\n`, `\t`… or `\u00XX`.
    static func json(_ text: String) -> String {
        escaping(text, between: "\"") { scalar in
            switch scalar {
            case "\"": "\\\""
            case "\\": "\\\\"
            case "\n": "\\n"
            case "\r": "\\r"
            case "\t": "\\t"
            case "\u{08}": "\\b"
            case "\u{0C}": "\\f"
            case _ where scalar.value < 0x20: unicodeEscape(scalar)
            default: nil
            }
        }
    }

    /// `\u00XX`: a scalar below U+0100 as a JSON escape.
    private static func unicodeEscape(_ scalar: Unicode.Scalar) -> String {
        let hex = String(scalar.value, radix: 16)
        return "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
    }

    /// `text` with each scalar that `replacement` gives text for replaced by it, the others kept, with
    /// `quote` before and after.
    private static func escaping(
        _ text: String, between quote: String = "", _ replacement: (Unicode.Scalar) -> String?
    ) -> String {
        var escaped = quote
        escaped.reserveCapacity(text.utf8.count + 4)
        for scalar in text.unicodeScalars {
            if let replaced = replacement(scalar) {
                escaped += replaced
            } else {
                escaped.unicodeScalars.append(scalar)
            }
        }
        escaped += quote
        return escaped
    }

    /// A value as a JSON literal: a string (text, a date), or a number or boolean as ``FieldValue/text`` writes it.
    static func json(_ value: FieldValue?) -> String {
        switch value {
        case nil: "null"
        case .text(let text): json(text)
        case .date(let seconds): json(DateText.text(seconds))
        case let value?: value.text
        }
    }
}
