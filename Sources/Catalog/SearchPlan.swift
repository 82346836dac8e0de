import SQLiteStore

/// How one search runs on one entity's table: which term reaches the rows through an index (the
/// driver), and which are then checked on each row it yields (the filters).
///
/// The one SQL builder of search: ``CatalogStore``'s search, count and page queries and
/// ``SearchSQL/condition(for:entity:tableAlias:)`` all take their conditions from here.
///
/// - Products: one term drives through `products_suffixes` (a range of the index: the term's
///   occurrences), or through the year and price indexes too when it reads as a number. The driver is
///   the term with the fewest estimated rows, numbers included (without estimates: the longest plain
///   term).
/// - Phones: terms of 3+ scalars are looked up together in `phones_search` (one FTS5 query of quoted
///   phrases joined by AND); shorter terms are checked row by row (a small table).
struct SearchPlan {
    /// What reaches the matching rows through an index.
    enum Driver: Equatable {
        /// These terms' phrases, all in one FTS5 query.
        case fullText([SearchTerm])
        /// One term: its range of suffixes, or its number in the year and price indexes.
        case suffixes(SearchTerm)
    }

    /// The search.
    let query: SearchQuery
    /// The entity searched.
    let entity: Entity
    /// The terms, each once, without those implied by a longer one.
    let terms: [SearchTerm]
    /// Whether some term can match no record, so that the search matches nothing.
    let matchesNothing: Bool
    /// The indexed part; nil when there is no term, or when only phone terms of 1-2 scalars remain.
    let driver: Driver?
    /// The terms checked row by row.
    let filters: [SearchTerm]
    /// Whether the driver's estimated rows reached the dense threshold given to the planner: a page in
    /// list order is then cheaper to find by walking the list's index than by sorting the driver's rows.
    let isDense: Bool
    /// The driver's estimated rows, when the planner had estimates.
    let driverEstimate: Int?
    /// Whether a numeric term also matches by year and price (false: the caller checked, within one
    /// read, that no record has such a year or price without the number in its name).
    let matchesNumbers: Bool

    /// Plans a search.
    ///
    /// - Parameters:
    ///   - estimates: rows of each folded product term (at most `denseThreshold` are counted), to drive
    ///     with the rarest one; nil plans without them.
    ///   - denseThreshold: the estimate from which ``isDense`` holds.
    ///   - matchesNumbers: false when no record matches a numeric term by year or price alone, so that
    ///     numeric terms are planned as plain ones (only valid within the read that checked it).
    init(
        _ query: SearchQuery, entity: Entity, estimates: [String: Int]? = nil, denseThreshold: Int = .max,
        matchesNumbers: Bool = true
    ) {
        self.query = query
        self.entity = entity
        self.matchesNumbers = matchesNumbers
        var seen = Set<String>()
        let distinct = query.terms.filter { seen.insert($0.folded).inserted }
        matchesNothing = distinct.contains { !$0.canMatchName }
        let schema = entity.searchSchema
        let isNumeric = { (term: SearchTerm) in matchesNumbers && schema.hasNumbers && term.number != nil }
        // A term inside another term that is not a number is implied by it (`a` by `max`, `ca` by
        // `cafe`): a name or maker holding the longer one holds it too. (A number may match by year or
        // price instead, so it implies nothing.) Scalars compare as SQLite's `instr` does: bytes.
        let terms = distinct.filter { term in
            !distinct.contains { other in
                other.folded != term.folded && !isNumeric(other)
                    && Self.contains(Array(other.folded.utf8), Array(term.folded.utf8))
            }
        }
        self.terms = terms
        if schema.suffixesTable != nil {
            // A numeric term also finds rows by year and price: it drives through the union of its
            // suffix range and the year and price indexes, and its estimate is the sum of the three.
            // No suffix starts with a space (see migration 0002): a term whose folding starts with one
            // (`¨` may fold to a space) is only checked row by row.
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

    /// The condition on a row of the entity's table, named `alias`, that holds exactly when the row
    /// matches the search.
    func condition(alias: String) -> SQLFragment {
        if query.isEmpty { return SQLFragment(sql: "1") }
        if matchesNothing { return SQLFragment(sql: "0") }
        var parts: [SQLFragment] = []
        if let driver { parts.append(indexed(driver, alias: alias)) }
        parts += filters.map { filter($0, alias: alias) }
        return SQLFragment(joining: parts, separator: " AND ")
    }

    /// For products whose terms are all of 3+ scalars and not numbers: the condition that finds the
    /// rows through the FTS5 trigram index of all terms at once (exact since migration 0002), which
    /// reads the index's doclists and only the matching rows. Nil otherwise.
    func fullTextCondition(alias: String) -> SQLFragment? {
        let schema = entity.searchSchema
        guard schema.suffixesTable != nil, !query.isEmpty, !matchesNothing, !terms.isEmpty,
              terms.allSatisfy({ !$0.isShort && !isNumeric($0) })
        else { return nil }
        return indexed(.fullText(terms), alias: alias)
    }

    /// The condition of all terms checked on the folded columns of `alias` (for scans in an index's order).
    func filterCondition(ofAllTermsOn alias: String) -> SQLFragment {
        if query.isEmpty { return SQLFragment(sql: "1") }
        if matchesNothing { return SQLFragment(sql: "0") }
        return SQLFragment(joining: terms.map { filter($0, alias: alias) }, separator: " AND ")
    }

    /// An FTS5 query that finds the rows holding every term as a phrase: `"t1" AND "t2"`, each term
    /// quoted, its double quotes doubled, so that no character of it is FTS5 syntax.
    ///
    /// Related SQLite documentation: <https://www.sqlite.org/fts5.html#fts5_strings>
    static func fullTextPattern(_ terms: [SearchTerm]) -> String {
        terms.map { "\"" + $0.folded.replacingOccurrences(of: "\"", with: "\"\"") + "\"" }.joined(separator: " AND ")
    }

    /// The condition on `products_suffixes` (unqualified columns) that selects the suffixes starting
    /// with the term's first ``SearchSchema/suffixLength`` scalars: `suffix >= prefix AND suffix < next`,
    /// where `next` is the prefix with its last scalar raised by one. Texts compare by their UTF-8
    /// bytes (BINARY), which is the order of their scalars, so the range holds exactly the suffixes
    /// that start with the prefix. The rows it gives hold the term itself when it is no longer.
    static func suffixRange(_ term: SearchTerm) -> SQLFragment {
        let prefix = Array(term.folded.unicodeScalars.prefix(SearchSchema.suffixLength))
        var next = prefix
        while let last = next.popLast() {
            var value = last.value + 1
            if (0xD800...0xDFFF).contains(value) { value = 0xE000 }
            if let scalar = Unicode.Scalar(value) {
                next.append(scalar)
                let upper = String(String.UnicodeScalarView(next))
                return SQLFragment(sql: "suffix >= ? AND suffix < ?", arguments: [String(String.UnicodeScalarView(prefix)), upper])
            }
            // U+10FFFF has no successor: raise the scalar before it.
        }
        return SQLFragment(sql: "suffix >= ?", arguments: [String(String.UnicodeScalarView(prefix))])
    }

    /// Whether `needle` occurs in `haystack`, byte for byte.
    private static func contains(_ haystack: [UInt8], _ needle: [UInt8]) -> Bool {
        guard needle.count <= haystack.count else { return false }
        return (0...(haystack.count - needle.count)).contains { start in
            haystack[start..<(start + needle.count)].elementsEqual(needle)
        }
    }

    // MARK: - Term conditions

    private func indexed(_ driver: Driver, alias: String) -> SQLFragment {
        let schema = entity.searchSchema
        switch driver {
        case .fullText(let terms):
            return SQLFragment(
                sql: "\(alias).id IN (SELECT rowid FROM \(schema.fullTextTable) WHERE \(schema.fullTextTable) MATCH ?)",
                arguments: [Self.fullTextPattern(terms)])
        case .suffixes(let term):
            let table = schema.suffixesTable!
            let range = Self.suffixRange(term)
            var text = SQLFragment(sql: "\(alias).id IN (SELECT id FROM \(table) WHERE \(range.sql))", arguments: range.arguments)
            if term.length > SearchSchema.suffixLength {
                text = SQLFragment(joining: [text, filter(term, alias: alias, numbers: false)], separator: " AND ").parenthesized
            }
            return SQLFragment(joining: [text] + numberConditions(term, alias: alias), separator: " OR ").parenthesized
        }
    }

    private func filter(_ term: SearchTerm, alias: String, numbers: Bool = true) -> SQLFragment {
        let schema = entity.searchSchema
        let parts = schema.textColumns.map { SQLFragment(sql: "instr(\(alias).\($0), ?) > 0", arguments: [term.folded]) }
            + (numbers ? numberConditions(term, alias: alias) : [])
        return SQLFragment(joining: parts, separator: " OR ").parenthesized
    }

    /// Whether the term also matches by year and price in this plan.
    func isNumeric(_ term: SearchTerm) -> Bool {
        matchesNumbers && entity.searchSchema.hasNumbers && term.number != nil
    }

    private func numberConditions(_ term: SearchTerm, alias: String) -> [SQLFragment] {
        guard matchesNumbers, let number = term.number else { return [] }
        return entity.searchSchema.numberColumns.map { SQLFragment(sql: "\(alias).\($0) = ?", arguments: [number]) }
    }
}
