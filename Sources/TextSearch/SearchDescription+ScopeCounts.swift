import SQLiteStore

extension SearchDescription {
    /// The number of rows that match `query` in each value of the scope column, when maintained counts
    /// give them without reading the matching rows; nil otherwise.
    ///
    /// ```swift
    /// let perType = try products.countsPerScope(SearchQuery("a"), db)  // [.text("desktop"): 206_124, …]
    /// ```
    ///
    /// They do when the search comes down to terms that match by their text alone (a number such as
    /// `3` only when, in this read, no row has it as a number without holding it in its text), either
    /// all of 1-2 scalars (`a`, `ip`, `3 a`, `カメ`): for one term, its gram counts per scope value,
    /// one row each; for several, the grams index's count of their tokens and each scope value's
    /// token, for each scope value the first term's gram counts name; or all of 3+ scalars (`mac`,
    /// `macbook pro`) when the trigram index's rowids carry the scope (``scopeValues``, every match's
    /// value one of them): the index's count of their phrases within each value's rowid range; or of
    /// both lengths when they drive together (`touch s`, `pro pa`: every term common, see
    /// ``SearchThresholds/intersectionThreshold``): within each value's rowid range, the rows of the
    /// grams index that the trigram index also finds. Dense
    /// terms are what a count row by row is slowest for (a fetched-results controller's sections).
    /// Values counting 0 are left out.
    ///
    /// - Throws: `DatabaseError`.
    public func countsPerScope(_ query: SearchQuery, _ db: Database) throws -> [DatabaseValue: Int]? {
        try countsPerScope(query, thresholds: .standard, db)
    }

    /// ``countsPerScope(_:_:)`` with the executor's thresholds (tests force each strategy).
    @_spi(Testing)
    public func countsPerScope(_ query: SearchQuery, thresholds: SearchThresholds, _ db: Database) throws -> [DatabaseValue: Int]? {
        guard let scopeColumn, let gramCountsTable, !query.isEmpty else { return nil }
        let plan = try plan(query, scope: nil, thresholds: thresholds, db)
        if plan.matchesNothing { return [:] }
        guard let first = plan.terms.first, !plan.terms.contains(where: plan.isNumeric) else { return nil }
        if plan.terms.allSatisfy({ !$0.isShort }) {
            return try countsPerScope(in: fullTextTable, matching: SearchPlan.fullTextPattern(plan.terms), db)
        }
        if case .gramsAndFullText(let short, let long, let narrowing)? = plan.driver,
           let pattern = SearchPlan.gramsPattern(short.map(\.folded) + narrowing) {
            return try countsPerScope(gramsPattern: pattern, fullTextPattern: SearchPlan.fullTextPattern(long), db)
        }
        guard plan.terms.allSatisfy(\.isShort) else { return nil }
        if plan.terms.count > 1, let gramsTable, let pattern = SearchPlan.gramsPattern(plan.terms),
           let counts = try countsPerScope(in: gramsTable, matching: pattern, db) {
            return counts
        }
        let rows = try db.fetchAll(
            sql: "SELECT \(scopeColumn), count FROM \(gramCountsTable) WHERE gram = ? AND count > 0", arguments: [first.folded]
        ) { row in (row.databaseValue(at: 0), try row.decode(Int.self, at: 1)) }
        if plan.terms.count == 1 { return Dictionary(rows, uniquingKeysWith: +) }
        var counts: [DatabaseValue: Int] = [:]
        for (scope, _) in rows {
            guard let count = try gramsCount(plan, scope: scope, db) else { return nil }
            if count > 0 { counts[scope] = count }
        }
        return counts
    }
}
