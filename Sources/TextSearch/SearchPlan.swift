import SQLiteStore

/// How one search runs on one table: which term reaches the matching rows through an index (the
/// driver), and which are then checked on each row it yields (the filters).
///
/// The one SQL builder of search: the executor's counts and pages and
/// ``SearchDescription/condition(for:scope:alias:_:)`` all take their conditions from here.
///
/// - With a suffix index: one term drives through its range of suffixes (its occurrences), or
///   through the number columns too when it reads as a number. The driver is the term with the fewest
///   estimated rows, numbers included (without estimates: the longest plain term).
/// - Without: terms of 3+ scalars are looked up together in the trigram index (one FTS5 query of
///   quoted phrases joined by AND); shorter terms are checked row by row (a small table).
public struct SearchPlan: Sendable {
    /// What reaches the matching rows through an index.
    public enum Driver: Sendable, Equatable {
        /// These terms' phrases, all in one FTS5 query.
        case fullText([SearchTerm])
        /// One term: its range of suffixes, or its number in the number columns.
        case suffixes(SearchTerm)
    }

    /// The search.
    public let query: SearchQuery
    /// What is searched.
    public let description: SearchDescription
    /// The terms, each once, without those implied by a longer one.
    public let terms: [SearchTerm]
    /// Whether some term can match no row, so that the search matches nothing.
    public let matchesNothing: Bool
    /// The indexed part; nil when there is no term, or when only short terms remain without a suffix index.
    public let driver: Driver?
    /// The terms checked row by row.
    public let filters: [SearchTerm]
    /// Whether the driver's estimated rows reached the dense threshold given to the planner: a page in
    /// list order is then cheaper to find by walking the list index than by sorting the driver's rows.
    public let isDense: Bool
    /// The driver's estimated rows, when the planner had estimates.
    public let driverEstimate: Int?
    /// Whether a numeric term also matches by its number columns (false: the planner checked, within
    /// one read, that no row has such a number without the term in its text).
    public let matchesNumbers: Bool

    /// Plans a search.
    ///
    /// - Parameters:
    ///   - estimates: rows of each folded term, to drive with the rarest one; nil plans without them.
    ///   - denseThreshold: the estimate from which ``isDense`` holds.
    ///   - matchesNumbers: false when no row matches a numeric term by number alone, so that numeric
    ///     terms are planned as plain ones (only valid within the read that checked it).
    init(
        _ query: SearchQuery, _ description: SearchDescription, estimates: [String: Int]? = nil,
        denseThreshold: Int = .max, matchesNumbers: Bool = true
    ) {
        self.query = query
        self.description = description
        self.matchesNumbers = matchesNumbers
        var seen = Set<String>()
        let distinct = query.terms.filter { seen.insert($0.folded).inserted }
        matchesNothing = distinct.contains { !$0.canMatchText }
        let isNumeric = { (term: SearchTerm) in matchesNumbers && !description.numberColumns.isEmpty && term.number != nil }
        // A term inside another term that is not a number is implied by it (`a` by `max`, `ca` by
        // `cafe`): a text holding the longer one holds it too. (A number may match by its columns
        // instead, so it implies nothing.) Scalars compare as SQLite's `instr` does: bytes.
        let terms = distinct.filter { term in
            !distinct.contains { other in
                other.folded != term.folded && !isNumeric(other)
                    && Self.contains(Array(other.folded.utf8), Array(term.folded.utf8))
            }
        }
        self.terms = terms
        if description.suffixesTable != nil {
            // A numeric term also finds rows by number: it drives through the union of its suffix
            // range and the number columns' indexes, and its estimate is the sum. No suffix starts
            // with a space: a term whose folding starts with one is only checked row by row.
            let indexable = terms.filter { $0.folded.unicodeScalars.first != " " }
            let rarest: SearchTerm?
            if let estimates {
                rarest = indexable.min { a, b in estimates[a.folded, default: 0] < estimates[b.folded, default: 0] }
            } else {
                // Without estimates: the longest plain term, a number only when nothing else is indexable.
                let plain = indexable.filter { !isNumeric($0) }
                rarest = (plain.isEmpty ? indexable : plain).min { a, b in a.length > b.length }
            }
            driver = rarest.map { .suffixes($0) }
            filters = terms.filter { $0 != rarest }
            if let rarest, let estimate = estimates?[rarest.folded] {
                isDense = estimate >= denseThreshold
                driverEstimate = estimate
            } else {
                isDense = false
                driverEstimate = nil
            }
        } else {
            let plainLong = terms.filter { !$0.isShort && !isNumeric($0) }
            driver = plainLong.isEmpty ? nil : .fullText(plainLong)
            filters = terms.filter { $0.isShort || isNumeric($0) }
            isDense = false
            driverEstimate = nil
        }
    }

    /// The condition on a row of the table, named `alias`, that holds exactly when the row matches.
    public func condition(alias: String) -> SQLFragment {
        if query.isEmpty { return .alwaysTrue }
        if matchesNothing { return .alwaysFalse }
        var parts: [SQLFragment] = []
        if let driver { parts.append(indexed(driver, alias: alias)) }
        parts += filters.map { filter($0, alias: alias) }
        return SQLFragment(joining: parts, separator: " AND ")
    }

    /// With a suffix index, when every term has 3+ scalars and none is numeric: the condition that
    /// finds the rows through the trigram index of all terms at once, which reads the index's
    /// doclists and only the matching rows. Nil otherwise.
    func fullTextCondition(alias: String) -> SQLFragment? {
        guard description.suffixesTable != nil, !query.isEmpty, !matchesNothing, !terms.isEmpty,
              terms.allSatisfy({ !$0.isShort && !isNumeric($0) })
        else { return nil }
        return indexed(.fullText(terms), alias: alias)
    }

    /// The condition of all terms checked on the text columns of `alias` (for walks in an index's order).
    func filterCondition(ofAllTermsOn alias: String) -> SQLFragment {
        if query.isEmpty { return .alwaysTrue }
        if matchesNothing { return .alwaysFalse }
        return SQLFragment(joining: terms.map { filter($0, alias: alias) }, separator: " AND ")
    }

    /// Whether the term also matches by number in this plan.
    func isNumeric(_ term: SearchTerm) -> Bool {
        matchesNumbers && !description.numberColumns.isEmpty && term.number != nil
    }

    /// An FTS5 query that finds the rows holding every term as a phrase: `"t1" AND "t2"`, each term
    /// quoted, its double quotes doubled, so that no character of it is FTS5 syntax.
    ///
    /// Related SQLite documentation: <https://www.sqlite.org/fts5.html#fts5_strings>
    static func fullTextPattern(_ terms: [SearchTerm]) -> String {
        // Scalar by scalar: a quote followed by a combining mark is one Character, but still a quote to FTS5.
        terms.map { term in
            var quoted = String.UnicodeScalarView(["\""])
            for scalar in term.folded.unicodeScalars {
                quoted.append(scalar)
                if scalar == "\"" { quoted.append(scalar) }
            }
            quoted.append("\"")
            return String(quoted)
        }.joined(separator: " AND ")
    }

    /// The condition on the suffixes table (unqualified columns) that selects the suffixes starting
    /// with the term's first `length` scalars: `suffix >= prefix AND suffix < next`, where `next` is
    /// the prefix with its last scalar raised by one. Texts compare by their UTF-8 bytes (BINARY),
    /// which is the order of their scalars, so the range holds exactly the suffixes that start with
    /// the prefix. The rows it gives hold the term itself when it is no longer.
    static func suffixRange(_ term: SearchTerm, length: SuffixLength) -> SQLFragment {
        PrefixRange.condition(column: "suffix", prefix: Array(term.folded.unicodeScalars.prefix(length.scalars)))
    }

    /// Whether `needle` occurs in `haystack`, byte for byte.
    static func contains(_ haystack: [UInt8], _ needle: [UInt8]) -> Bool {
        guard needle.count <= haystack.count else { return false }
        return (0...(haystack.count - needle.count)).contains { start in
            haystack[start..<(start + needle.count)].elementsEqual(needle)
        }
    }

    // MARK: - Term conditions

    private func indexed(_ driver: Driver, alias: String) -> SQLFragment {
        switch driver {
        case .fullText(let terms):
            let table = description.fullTextTable
            return SQLFragment(
                sql: "\(alias).\(description.idColumn) IN (SELECT rowid FROM \(table) WHERE \(table) MATCH ?)",
                arguments: [Self.fullTextPattern(terms)])
        case .suffixes(let term):
            let length = description.suffixLength!
            let range = Self.suffixRange(term, length: length)
            var text = SQLFragment(
                sql: "\(alias).\(description.idColumn) IN (SELECT id FROM \(description.suffixesTable!) WHERE \(range.sql))",
                arguments: range.arguments)
            if term.length > length.scalars {
                text = SQLFragment(joining: [text, filter(term, alias: alias, numbers: false)], separator: " AND ").parenthesized
            }
            return SQLFragment(joining: [text] + numberConditions(term, alias: alias), separator: " OR ").parenthesized
        }
    }

    func filter(_ term: SearchTerm, alias: String, numbers: Bool = true) -> SQLFragment {
        let parts = description.textColumns.map { SQLFragment(sql: "instr(\(alias).\($0), ?) > 0", arguments: [term.folded]) }
            + (numbers ? numberConditions(term, alias: alias) : [])
        return SQLFragment(joining: parts, separator: " OR ").parenthesized
    }

    private func numberConditions(_ term: SearchTerm, alias: String) -> [SQLFragment] {
        guard isNumeric(term), let number = term.number else { return [] }
        return description.numberColumns.map { SQLFragment(sql: "\(alias).\($0) = ?", arguments: [number]) }
    }
}
