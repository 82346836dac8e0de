import SQLiteStore

extension SearchDescription {
    /// The condition on the table (unqualified columns) that keeps the rows whose first text column
    /// starts with `prefix`, folded (leading white space ignored): a range of that column's index,
    /// `column >= folded AND column < successor`, so the cost depends on the rows read, not on the
    /// table's size. Nil when the prefix folds to nothing (every row completes it).
    ///
    /// ```swift
    /// let range = films.completionCondition(forPrefix: "tolk")!
    /// let titles = try db.fetchAll(sql: "SELECT title FROM films WHERE \(range.sql) ORDER BY title_folded, id LIMIT 10",
    ///                              arguments: range.arguments) { try $0.decode(String.self, at: 0) }
    /// ```
    public func completionCondition(forPrefix prefix: String) -> SQLFragment? {
        let folded = TextFolding.fold(String(String.UnicodeScalarView(prefix.unicodeScalars.drop { $0.properties.isWhitespace })))
        guard !folded.isEmpty else { return nil }
        return PrefixRange.condition(column: textColumns[0], prefix: Array(folded.unicodeScalars))
    }
}

/// The texts that start with a prefix, as a range of a BINARY-ordered column.
enum PrefixRange {
    /// `column >= prefix AND column < next`, where `next` is the prefix with its last scalar raised by
    /// one (a scalar U+10FFFF, which has none, is dropped and the one before it raised; a prefix of
    /// U+10FFFF only has no upper bound). Texts compare by their UTF-8 bytes, which is the order of
    /// their scalars, so the range holds exactly the texts that start with the prefix.
    static func condition(column: String, prefix: [Unicode.Scalar]) -> SQLFragment {
        let text = String(String.UnicodeScalarView(prefix))
        var next = prefix
        while let last = next.popLast() {
            var value = last.value + 1
            if (0xD800...0xDFFF).contains(value) { value = 0xE000 }
            if let scalar = Unicode.Scalar(value) {
                next.append(scalar)
                return SQLFragment(
                    sql: "\(column) >= ? AND \(column) < ?", arguments: [text, String(String.UnicodeScalarView(next))])
            }
        }
        return SQLFragment(sql: "\(column) >= ?", arguments: [text])
    }
}
