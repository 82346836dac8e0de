/// Names and texts quoted for SQL, alike on both engines: what generated SQL (triggers, counts)
/// writes where a value cannot be bound.
package enum SQLText {
    /// `name` as an SQL identifier: `"name"`, each `"` in it doubled.
    package static func identifier(_ name: String) -> String {
        quoting(name, with: "\"")
    }

    /// `text` as an SQL string literal: `'text'`, each `'` in it doubled.
    package static func literal(_ text: String) -> String {
        quoting(text, with: "'")
    }

    /// The words of an SQL text (runs of letters, digits and `_`), quoted or not: every name it may
    /// use, a column's among them.
    package static func words(_ text: String) -> Set<String> {
        Set(text.split { !($0.isLetter || $0.isNumber || $0 == "_") }.map(String.init))
    }

    /// `text` between two `quote`s, each `quote` in it doubled, scalar by scalar: SQLite reads bytes,
    /// so a quote followed by a combining mark still ends the text unless doubled.
    private static func quoting(_ text: String, with quote: Unicode.Scalar) -> String {
        var quoted = String.UnicodeScalarView()
        quoted.append(quote)
        for scalar in text.unicodeScalars {
            quoted.append(scalar)
            if scalar == quote { quoted.append(quote) }
        }
        quoted.append(quote)
        return String(quoted)
    }
}
