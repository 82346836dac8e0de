import SQLiteStore

extension SearchDescription {
    /// The number of rows that match `query` in each value of the scope column, when maintained counts
    /// give them without reading the matching rows; nil otherwise.
    ///
    /// ```swift
    /// let perType = try products.countsPerScope(SearchQuery("a"), db)  // [.text("desktop"): 206_124, …]
    /// ```
    ///
    /// They do when the search's terms match by their text (a numeric term's rows that hold it only
    /// as a number, when few, are added), all of 1-2 scalars (`a`, `3 a`, `カメ`), all of 3+ (`mac`,
    /// `macbook pro`, when the trigram index's rowids carry the scope), or of both lengths with every
    /// short term common (`touch s`, `pro pa`). ``PagePlanner/scopeCounts(for:costs:)`` chooses how,
    /// from ``ScopeCountFacts`` read first (``ScopeCountStrategy``; the article "How a search runs"
    /// tabulates the strategies). Values counting 0 are left out.
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
        // What the planner needs, read first (no estimate: counts need no driver); then the strategy,
        // chosen without the database.
        let plan = try unestimatedPlan(query, db)
        let facts = try scopeCountFacts(plan, costs: costs, db)
        return try matchesPerScope(plan, PagePlanner.scopeCounts(for: facts.facts, costs: costs), numberOnlyIDs: facts.numberOnlyIDs, costs: costs, db)
    }

    /// What ``PagePlanner/scopeCounts(for:costs:)`` needs of `plan`, with the number-only rows' ids
    /// when they were listed: each short term's gram count when the terms are of both lengths; with
    /// numeric terms, whether a number is in many rows (all terms of 3+ scalars), else the rows that
    /// hold one only as a number (at most ``SearchCosts/fewRows`` per term).
    func scopeCountFacts(_ plan: SearchPlan, costs: SearchCosts, _ db: Database) throws -> (facts: ScopeCountFacts, numberOnlyIDs: [Int64]?) {
        let readsShortRows = plan.mixesLengths && !plan.matchesNothing && rowIDsCarryScope
        let terms = try plan.terms.map { term in
            TermFacts(
                isShort: term.isShort, isIndexable: SearchPlan.isIndexable(term), isNumeric: plan.isNumeric(term), length: term.length,
                rows: readsShortRows && term.isShort && SearchPlan.isIndexable(term) ? try gramCount(term.folded, scope: nil, db) : nil)
        }
        var facts = ScopeCountFacts(terms: terms, matchesNothing: plan.matchesNothing, rowIDsCarryScope: rowIDsCarryScope)
        var numberOnlyIDs: [Int64]?
        if !plan.matchesNothing, plan.terms.contains(where: plan.isNumeric) {
            if plan.terms.allSatisfy({ !$0.isShort }) { facts.numberInManyRows = try holdsANumberInManyRows(plan, costs: costs, db) }
            if !facts.numberInManyRows {
                numberOnlyIDs = try self.numberOnlyIDs(ofNumericTermsIn: plan, scope: nil, limit: costs.fewRows, db)
                facts.numberOnlyRows = numberOnlyIDs?.count
            }
        }
        return (facts, numberOnlyIDs)
    }

    /// The matches of `plan` per scope value counted as `strategy` says (nil for
    /// ``ScopeCountStrategy/none``, or when a strategy finds that the indexes cannot tell a match's
    /// scope value apart); `numberOnlyIDs` the rows listed for ``ScopeCountStrategy/addingNumberOnlyRows(text:)``.
    func matchesPerScope(
        _ plan: SearchPlan, _ strategy: ScopeCountStrategy, numberOnlyIDs: [Int64]?, costs: SearchCosts, _ db: Database
    ) throws -> ScopeMatches? {
        func counted(_ counts: [DatabaseValue: Int]?) -> ScopeMatches? { counts.map { ScopeMatches(counts: $0, ids: nil) } }
        switch strategy {
        case .nothing:
            return ScopeMatches(counts: [:], ids: nil)
        case .none:
            return nil
        case .gramCounts:
            return counted(Dictionary(try gramCountsPerScope(plan.terms[0].folded, db), uniquingKeysWith: +))
        case .gramsIndex:
            if let gramsTable, let pattern = SearchPlan.gramsPattern(plan.terms),
               let counts = try countsPerScope(in: gramsTable, matching: pattern, db) {
                return counted(counts)
            }
            return counted(try gramsCounts(plan, scopes: gramCountsPerScope(plan.terms[0].folded, db).map(\.scope), db))
        case .gramBits(let fallback):
            if let counts = try gramBitsCountsPerScope(plan, minimumEntries: costs.commonRows, db) { return counted(counts) }
            return try matchesPerScope(plan, fallback, numberOnlyIDs: numberOnlyIDs, costs: costs, db)
        case .substringCounts(let fallback):
            if let counts = try substringCounts(plan.terms[0].folded, db) { return counted(counts) }
            return try matchesPerScope(plan, fallback, numberOnlyIDs: numberOnlyIDs, costs: costs, db)
        case .trigramRanges:
            return counted(try countsPerScope(in: fullTextTable, matching: SearchPlan.fullTextPattern(plan.terms), db))
        case .trigramPass(let fallback):
            if let matches = try fullTextMatchesPerScope(matching: SearchPlan.fullTextPattern(plan.terms), db) { return matches }
            return try matchesPerScope(plan, fallback, numberOnlyIDs: numberOnlyIDs, costs: costs, db)
        case .bothIndexes:
            return try bothIndexesMatchesPerScope(plan, costs: costs, db)
        case .numericIntersection:
            return try numericIntersectionMatches(plan, db)
        case .addingNumberOnlyRows(let text):
            // The rows that match with every term in their text, counted as `text` says, plus the few
            // rows that match through a number, each checked.
            let textPlan = SearchPlan(plan.query, self, matchesNumbers: false)
            guard let textMatches = try matchesPerScope(textPlan, text, numberOnlyIDs: nil, costs: costs, db),
                  let numberOnly = try checkedMatchesPerScope(plan, ids: numberOnlyIDs ?? [], db)
            else { return nil }
            guard text == .bothIndexes else {
                return ScopeMatches(counts: textMatches.counts.merging(numberOnly.counts, uniquingKeysWith: +), ids: nil)
            }
            // Terms of both lengths (`64 lapt`): only with the matches' ids, which the controller's
            // pages are read from (its counts alone would send a page to drive by one term, rather
            // than to one pass over the matches); the number-only rows added with theirs.
            guard let textIDs = textMatches.ids else { return nil }
            let ids = textIDs.merging(numberOnly.ids ?? [:], uniquingKeysWith: +)
            guard ids.values.reduce(0, { $0 + $1.count }) <= SearchCosts.idListLimit else { return nil }
            return ScopeMatches(counts: ids.mapValues(\.count), ids: ids)
        }
    }

    /// Whether some numeric term of `plan` is the value of more than
    /// ``SearchCosts/fewRows`` rows in one number column, counted in that column's
    /// index (no row read) as the planner estimates a number's rows: up to
    /// ``SearchCosts/denseRows`` (below the limit, never).
    private func holdsANumberInManyRows(_ plan: SearchPlan, costs: SearchCosts, _ db: Database) throws -> Bool {
        for term in plan.terms where plan.isNumeric(term) {
            for column in numberColumns {
                let count = try db.scalar(
                    Int.self, sql: "SELECT count(*) FROM (SELECT 1 FROM \(table) WHERE \(SQLText.identifier(column)) = ? LIMIT ?)",
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
                SQLFragment(sql: "SELECT \(idColumn) FROM \(table) WHERE \(SQLText.identifier(column)) = ?", arguments: [number])
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
