import SQLiteStore

/// How one search runs on one entity's table: which term reaches the rows through an index (the
/// driver), and which are then checked on each row it yields (the filters).
///
/// The one SQL builder of search: ``CatalogStore``'s search, count and page queries and
/// ``SearchSQL/condition(for:entity:tableAlias:)`` all take their conditions from here.
///
/// - Terms of 3+ scalars without a numeric reading are looked up together in the entity's trigram
///   index (`products_search`, `phones_search`): one FTS5 query of quoted phrases joined by AND.
/// - Otherwise a term of 3+ scalars that reads as a number drives: its phrase in the trigram index, or
///   its value in the year and price indexes.
/// - Otherwise (every term has 1 or 2 scalars) the product term with the fewest rows in
///   `products_gram_counts` drives through `products_grams` (without counts: the longest term).
///   Phones have no grams table: short phone terms are checked row by row.
struct SearchPlan {
    /// What reaches the matching rows through an index.
    enum Driver: Equatable {
        /// These terms' phrases, all in one FTS5 query.
        case fullText([SearchTerm])
        /// One term: its phrase or gram, or its number in the year and price indexes.
        case term(SearchTerm)
    }

    /// The search.
    let query: SearchQuery
    /// The entity searched.
    let entity: Entity
    /// Whether some term can match no record, so that the search matches nothing.
    let matchesNothing: Bool
    /// The indexed part; nil when there is no term, or when only phone terms of 1-2 scalars remain.
    let driver: Driver?
    /// The terms checked row by row.
    let filters: [SearchTerm]

    /// Plans a search; `shortTermCounts` gives the rows of each short product term, to drive with the
    /// rarest one.
    init(_ query: SearchQuery, entity: Entity, shortTermCounts: [String: Int]? = nil) {
        self.query = query
        self.entity = entity
        var seen = Set<String>()
        let terms = query.terms.filter { seen.insert($0.folded).inserted }
        matchesNothing = terms.contains { !$0.canMatchName }
        let schema = entity.searchSchema
        let isNumeric = { (term: SearchTerm) in schema.hasNumbers && term.number != nil }
        let plainLong = terms.filter { !$0.isShort && !isNumeric($0) }
        if !plainLong.isEmpty {
            driver = .fullText(plainLong)
            filters = terms.filter { $0.isShort || isNumeric($0) }
        } else if let numeric = terms.first(where: { !$0.isShort }) {
            driver = .term(numeric)
            filters = terms.filter { $0 != numeric }
        } else if schema.gramsTable != nil, let first = terms.first {
            let rarest = terms.min { a, b in
                if let counts = shortTermCounts { return counts[a.folded, default: 0] < counts[b.folded, default: 0] }
                return a.length > b.length
            } ?? first
            driver = .term(rarest)
            filters = terms.filter { $0 != rarest }
        } else {
            driver = nil
            filters = terms
        }
    }

    /// The condition on a row of the entity's table, named `alias`, that holds exactly when the row
    /// matches the search.
    func condition(alias: String) -> SQLFragment {
        if query.isEmpty { return SQLFragment("1") }
        if matchesNothing { return SQLFragment("0") }
        var parts: [SQLFragment] = []
        if let driver { parts.append(indexed(driver, alias: alias)) }
        parts += filters.map { filter($0, alias: alias) }
        return SQLFragment(joining: parts, separator: " AND ")
    }

    /// The condition of ``filters`` alone, on columns of `alias` (for scans in an index's order).
    func filterCondition(ofAllTermsOn alias: String) -> SQLFragment {
        if query.isEmpty { return SQLFragment("1") }
        if matchesNothing { return SQLFragment("0") }
        return SQLFragment(joining: query.terms.map { filter($0, alias: alias) }, separator: " AND ")
    }

    /// An FTS5 query that finds the rows holding every term as a phrase: `"t1" AND "t2"`, each term
    /// quoted, its double quotes doubled, so that no character of it is FTS5 syntax.
    ///
    /// Related SQLite documentation: <https://www.sqlite.org/fts5.html#fts5_strings>
    static func fullTextPattern(_ terms: [SearchTerm]) -> String {
        terms.map { "\"" + $0.folded.replacingOccurrences(of: "\"", with: "\"\"") + "\"" }.joined(separator: " AND ")
    }

    // MARK: - Term conditions

    private func indexed(_ driver: Driver, alias: String) -> SQLFragment {
        let schema = entity.searchSchema
        switch driver {
        case .fullText(let terms):
            return SQLFragment(
                "\(alias).id IN (SELECT rowid FROM \(schema.fullTextTable) WHERE \(schema.fullTextTable) MATCH ?)",
                [Self.fullTextPattern(terms)])
        case .term(let term):
            var parts: [SQLFragment] = []
            if term.isShort, let grams = schema.gramsTable {
                parts.append(SQLFragment("\(alias).id IN (SELECT id FROM \(grams) WHERE gram = ?)", [term.folded]))
            } else if term.isShort {
                parts += schema.textColumns.map { SQLFragment("instr(\(alias).\($0), ?) > 0", [term.folded]) }
            } else {
                parts.append(SQLFragment(
                    "\(alias).id IN (SELECT rowid FROM \(schema.fullTextTable) WHERE \(schema.fullTextTable) MATCH ?)",
                    [Self.fullTextPattern([term])]))
            }
            parts += numberConditions(term, alias: alias)
            return SQLFragment(joining: parts, separator: " OR ").parenthesized
        }
    }

    private func filter(_ term: SearchTerm, alias: String) -> SQLFragment {
        let schema = entity.searchSchema
        let parts = schema.textColumns.map { SQLFragment("instr(\(alias).\($0), ?) > 0", [term.folded]) }
            + numberConditions(term, alias: alias)
        return SQLFragment(joining: parts, separator: " OR ").parenthesized
    }

    private func numberConditions(_ term: SearchTerm, alias: String) -> [SQLFragment] {
        guard let number = term.number else { return [] }
        return entity.searchSchema.numberColumns.map { SQLFragment("\(alias).\($0) = ?", [number]) }
    }
}
