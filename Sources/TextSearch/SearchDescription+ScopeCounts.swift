import SQLiteStore

extension SearchDescription {
    /// The number of rows that match `query` in each value of the scope column, when maintained counts
    /// give them without reading the matching rows; nil otherwise.
    ///
    /// ```swift
    /// let perType = try products.countsPerScope(SearchQuery("a"), db)  // [.text("desktop"): 206_124, …]
    /// ```
    ///
    /// They do when the search comes down to one term of 1-2 scalars that matches by its text alone
    /// (`a`, `ip`, `カメ`; a number such as `3` only when, in this read, no row has it as a number
    /// without holding it in its text): its gram counts per scope value, one row each. A dense short
    /// term is what a count row by row is slowest for (a fetched-results controller's sections).
    /// Values counting 0 are left out.
    ///
    /// - Throws: `DatabaseError`.
    public func countsPerScope(_ query: SearchQuery, _ db: Database) throws -> [DatabaseValue: Int]? {
        guard let scopeColumn, let gramCountsTable, !query.isEmpty else { return nil }
        let plan = try plan(query, scope: nil, thresholds: .standard, db)
        if plan.matchesNothing { return [:] }
        guard plan.filters.isEmpty, case .suffixes(let term) = plan.driver, term.isShort, !plan.isNumeric(term) else { return nil }
        let rows = try db.fetchAll(
            sql: "SELECT \(scopeColumn), count FROM \(gramCountsTable) WHERE gram = ? AND count > 0", arguments: [term.folded]
        ) { row in (row.databaseValue(at: 0), try row.decode(Int.self, at: 1)) }
        return Dictionary(rows, uniquingKeysWith: +)
    }
}
