import Foundation

/// How one value is written in each format.
enum FieldEncoding {
    /// A CSV field (RFC 4180): quoted when it holds a comma, a double quote, CR or LF, or starts or ends
    /// with a space, with its double quotes doubled.
    static func csv(_ text: String) -> String {
        let needsQuotes = text.utf8.contains { $0 == UInt8(ascii: ",") || $0 == UInt8(ascii: "\"") || $0 == 0x0A || $0 == 0x0D }
            || text.first == " " || text.last == " "
        guard needsQuotes else { return text }
        return "\"" + text.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }

    /// A TSV field: tab, LF, CR and backslash written `\t`, `\n`, `\r`, `\\`.
    static func tsv(_ text: String) -> String {
        guard text.utf8.contains(where: { $0 == 0x09 || $0 == 0x0A || $0 == 0x0D || $0 == UInt8(ascii: "\\") }) else {
            return text
        }
        var escaped = ""
        escaped.reserveCapacity(text.utf8.count + 4)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\t": escaped += "\\t"
            case "\n": escaped += "\\n"
            case "\r": escaped += "\\r"
            case "\\": escaped += "\\\\"
            default: escaped.unicodeScalars.append(scalar)
            }
        }
        return escaped
    }

    /// A JSON string literal: `"` and `\` escaped, control characters as `\n`, `\t`… or `\u00XX`.
    static func json(_ text: String) -> String {
        var literal = "\""
        literal.reserveCapacity(text.utf8.count + 2)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": literal += "\\\""
            case "\\": literal += "\\\\"
            case "\n": literal += "\\n"
            case "\r": literal += "\\r"
            case "\t": literal += "\\t"
            case "\u{08}": literal += "\\b"
            case "\u{0C}": literal += "\\f"
            case _ where scalar.value < 0x20:
                let hex = String(scalar.value, radix: 16)
                literal += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: literal.unicodeScalars.append(scalar)
            }
        }
        return literal + "\""
    }

    /// A value as a JSON literal: a string, or a number as ``FieldValue/text`` writes it.
    static func json(_ value: FieldValue?) -> String {
        switch value {
        case nil: "null"
        case .text(let text): json(text)
        case let value?: value.text
        }
    }
}
