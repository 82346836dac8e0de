import SQLiteStore

extension SearchDescription {
    /// The number of rows that match `query` in each value of the scope column, when maintained counts
    /// give them without reading the matching rows; nil otherwise.
    ///
    /// ```swift
    /// let perType = try products.countsPerScope(SearchQuery("a"), db)  // [.text("desktop"): 206_124, …]
    /// ```
    ///
    /// They do when the search comes down to terms that match by their text (a term that reads as a
    /// number, such as `500`, may also match rows that hold it only as a number: when each such term
    /// finds at most 1,000 of those, as a numeric term's page allows, they are counted one by one and
    /// added; with more of them, when every term is of 3+ scalars (`halo 2008`, 2008 being many
    /// products' year), the ids of one intersection of the trigram index's rows and the number
    /// columns' indexes are read, with each match's scope), either
    /// all of 1-2 scalars (`a`, `ip`, `3 a`, `カメ`): for one term, its gram counts per scope value,
    /// one row each; for several, the grams index's count of their tokens and each scope value's
    /// token, for each scope value the first term's gram counts name (when each term is one scalar
    /// that ``gramBitsTable`` holds, `3 a`, but one of them: `gramBitsCountsPerScope(_:minimumEntries:_:)`); or all of 3+ scalars (`mac`,
    /// `macbook pro`) when the trigram index's rowids carry the scope (``scopeValues``, every match's
    /// value one of them): for one term, its counts in ``substringCountsTable`` when it holds the
    /// term (one row per value), else the index's count of its phrase within each value's rowid
    /// range; for several, their matches read in one pass of the index (their rowids carry the
    /// scope), or, past 30,000 matches, counted within each value's rowid range; or of
    /// both lengths, every short term common (`touch s`, `pro pa`, see
    /// ``SearchCosts/denseRows``), when the rowids carry the scope: the long terms'
    /// rows in the trigram index, merged with the grams index's rows or, when few, each checked
    /// (with a number, only when their ids are kept: `64 lapt`). Dense
    /// terms are what a count row by row is slowest for (a fetched-results controller's sections).
    /// Values counting 0 are left out.
    ///
    /// - Throws: `DatabaseError`.
    public func countsPerScope(_ query: SearchQuery, _ db: Database) throws -> [DatabaseValue: Int]? {
        try matchesPerScope(query, costs: .standard, db)?.counts
    }

    /// The counts of ``countsPerScope(_:_:)``, with the matching rows' ids per scope value when
    /// counting them read their ids: for terms of both lengths, whose matches one pass over each
    /// index (or a check of the long terms' few rows) gives (their ids kept when they are at most
    /// 30,000), for several terms of 3+ scalars (`elan wav`: one pass over the trigram index, when
    /// they are at most 30,000), and for terms of 3+
    /// scalars with a number that many rows hold only as a number (one intersection of ids from the
    /// indexes, at most 30,000). A page of the
    /// same read is then read from a value's ids
    /// (``page(_:scope:order:limit:offset:totalCount:matchIDs:selection:costs:_:decode:)``),
    /// not searched again; a fetched-results controller's sections and first batch do that.
    ///
    /// ```swift
    /// let matches = try products.matchesPerScope(SearchQuery("touch s"), db)
    /// // matches?.counts: [.text("device"): 2_469, …]; matches?.ids?[.text("device")]: 2,469 ids
    /// ```
    ///
    /// - Throws: `DatabaseError`.
    public func matchesPerScope(_ query: SearchQuery, _ db: Database) throws -> ScopeMatches? {
        try matchesPerScope(query, costs: .standard, db)
    }

    /// ``matchesPerScope(_:_:)`` with the executor's cost model (tests force each strategy).
    @_spi(Testing)
    public func matchesPerScope(_ query: SearchQuery, costs: SearchCosts, _ db: Database) throws -> ScopeMatches? {
        guard scopeColumn != nil, gramCountsTable != nil, !query.isEmpty else { return nil }
        // (Counts need no driver: no estimates are read; terms of both lengths read gram counts.)
        let plan = try unestimatedPlan(query, db)
        if plan.matchesNothing { return ScopeMatches(counts: [:], ids: nil) }
        if !plan.terms.contains(where: plan.isNumeric) { return try textMatchesPerScope(plan, costs: costs, db) }
        // Numeric terms that some rows hold as a number but not in their text (`500`, a price): the
        // rows that match with every term in their text, counted as above, plus those few rows
        // that match through a number, counted one by one.
        // Every term of 3+ scalars, and a number in more rows of a number column than a numeric term
        // may find by number alone: straight to the intersection of ids, without reading those rows
        // to learn it (`halo 2008`: the rows of 2008 are counted in the year index, not read).
        if plan.terms.allSatisfy({ !$0.isShort }), try holdsANumberInManyRows(plan, costs: costs, db) {
            return try numericIntersectionMatches(plan, db)
        }
        guard let numberOnlyIDs = try numberOnlyIDs(ofNumericTermsIn: plan, scope: nil, limit: costs.fewRows, db) else {
            return try numericIntersectionMatches(plan, db)
        }
        let textPlan = SearchPlan(query, self, matchesNumbers: false)
        if textPlan.mixesLengths {
            // Terms of both lengths (`64 lapt`): only with the matches' ids, which the controller's
            // pages are read from (its counts alone would send a page to drive by one term, rather
            // than to one pass over the matches); the number-only rows added with theirs.
            guard let text = try mixedMatchesPerScope(textPlan, costs: costs, db), let textIDs = text.ids,
                  let numberOnly = try checkedMatchesPerScope(plan, ids: numberOnlyIDs, db)
            else { return nil }
            let ids = textIDs.merging(numberOnly.ids ?? [:], uniquingKeysWith: +)
            guard ids.values.reduce(0, { $0 + $1.count }) <= SearchCosts.idListLimit else { return nil }
            return ScopeMatches(counts: ids.mapValues(\.count), ids: ids)
        }
        guard let counts = try textMatchesPerScope(textPlan, costs: costs, db)?.counts,
              let numberOnly = try checkedMatchesPerScope(plan, ids: numberOnlyIDs, db)
        else { return nil }
        return ScopeMatches(counts: counts.merging(numberOnly.counts, uniquingKeysWith: +), ids: nil)
    }

    /// The matches of ``matchesPerScope(_:_:)`` for a plan whose terms all match by their text
    /// alone; nil when no index gives them.
    private func textMatchesPerScope(
        _ plan: SearchPlan, costs: SearchCosts, _ db: Database
    ) throws -> ScopeMatches? {
        guard scopeColumn != nil, gramCountsTable != nil, let first = plan.terms.first else { return nil }
        func counted(_ counts: [DatabaseValue: Int]?) -> ScopeMatches? { counts.map { ScopeMatches(counts: $0, ids: nil) } }
        if plan.terms.allSatisfy({ !$0.isShort }) {
            let pattern = SearchPlan.fullTextPattern(plan.terms)
            // Several terms: few matches, read with their ids in one pass (more than the id list
            // limit: counted per scope value instead).
            if plan.terms.count > 1, let matches = try fullTextMatchesPerScope(matching: pattern, db) { return matches }
            // One frequent term: its maintained counts, one row per scope value.
            if plan.terms.count == 1, let counts = try substringCounts(first.folded, db) { return counted(counts) }
            return counted(try countsPerScope(in: fullTextTable, matching: pattern, db))
        }
        if plan.mixesLengths { return try mixedMatchesPerScope(plan, costs: costs, db) }
        if plan.terms.count > 1, let counts = try gramBitsCountsPerScope(plan, minimumEntries: costs.commonRows, db) { return counted(counts) }
        if plan.terms.count > 1, let gramsTable, let pattern = SearchPlan.gramsPattern(plan.terms),
           let counts = try countsPerScope(in: gramsTable, matching: pattern, db) {
            return counted(counts)
        }
        let rows = try gramCountsPerScope(first.folded, db)
        if plan.terms.count == 1 { return counted(Dictionary(rows, uniquingKeysWith: +)) }
        return counted(try gramsCounts(plan, scopes: rows.map(\.scope), db))
    }

    /// Whether some numeric term of `plan` is the value of more than
    /// ``SearchCosts/fewRows`` rows in one number column, counted in that column's
    /// index (no row read) as the planner estimates a number's rows: up to
    /// ``SearchCosts/denseRows`` (below the limit, never).
    private func holdsANumberInManyRows(_ plan: SearchPlan, costs: SearchCosts, _ db: Database) throws -> Bool {
        for term in plan.terms where plan.isNumeric(term) {
            for column in numberColumns {
                let count = try db.scalar(
                    Int.self, sql: "SELECT count(*) FROM (SELECT 1 FROM \(table) WHERE \(column) = ? LIMIT ?)",
                    arguments: [term.number!, costs.denseRows]) ?? 0
                if count > costs.fewRows { return true }
            }
        }
        return false
    }

    /// The matches of ``matchesPerScope(_:_:)`` for a plan of terms all of 3+ scalars, some numeric,
    /// whose numbers too many rows hold only as a number for them to be listed
    /// (``numberOnlyIDs(ofNumericTermsIn:scope:_:)``): one intersection of ids read from the indexes
    /// alone — each plain term's rows in the trigram index; each numeric term's rows there, with the
    /// rows of its number in each number column's index — then the scope of each match read from its
    /// row: for `halo 2008`, cheaper than reaching the matches through the many products of 2008,
    /// each read to check `halo` (W3 numbers). Nil when a term is of 1-2 scalars (its grams-index rows can
    /// be most of the table: `a` is in 618,000 names) or when more than
    /// ``SearchCosts/idListLimit`` rows match.
    private func numericIntersectionMatches(_ plan: SearchPlan, _ db: Database) throws -> ScopeMatches? {
        guard let scopeColumn, !plan.terms.isEmpty, plan.terms.allSatisfy({ !$0.isShort }) else { return nil }
        let idSets = plan.terms.map { term in
            let text = fullTextIDs(matching: SearchPlan.fullTextPattern([term]))
            guard plan.isNumeric(term), let number = term.number else { return text }
            let byNumber = numberColumns.map { column in
                SQLFragment(sql: "SELECT \(idColumn) FROM \(table) WHERE \(column) = ?", arguments: [number])
            }
            return SQLFragment(joining: [text] + byNumber, separator: " UNION ALL ")
        }
        // Each set in a subquery of its own: INTERSECT and UNION ALL bind alike, left to right.
        let intersection = SQLFragment(
            joining: idSets.map { SQLFragment(sql: "SELECT * FROM (") + $0 + SQLFragment(sql: ")") }, separator: " INTERSECT ")
        let rows = try db.fetchAll(
            sql: "SELECT \(scopeColumn), \(idColumn) FROM \(table) WHERE \(idColumn) IN (\(intersection.sql)) LIMIT ?",
            arguments: intersection.arguments + [SearchCosts.idListLimit + 1]
        ) { row in (row.databaseValue(at: 0), try row.decode(Int64.self, at: 1)) }
        guard rows.count <= SearchCosts.idListLimit else { return nil }
        var ids: [DatabaseValue: [Int64]] = [:]
        for (scope, id) in rows { ids[scope, default: []].append(id) }
        return ScopeMatches(counts: ids.mapValues(\.count), ids: ids)
    }
}
