import SQLiteStore

extension SearchDescription {
    /// ``ScopeCountStrategy/bothIndexes``: the matches of a plan mixing terms of 1-2 scalars (each
    /// without a space, each common) with longer ones, none numeric, when the search indexes' rowids
    /// carry the scope. The long terms' rows are read from the trigram index (their rowids,
    /// ascending); their number chooses (``PagePlanner/bothIndexesRead(longRows:shortTermsOfOneScalar:costs:)``):
    /// - ``BothIndexesRead/checkLongRows``: each of those rows read by id and checked for every term
    ///   (`graphite g`: a few hundred rows, under a millisecond);
    /// - ``BothIndexesRead/gramBits``: each of those rows checked for the short terms' bits
    ///   (``matchesPerScope(intersecting:holdingBitsOf:_:)``: `core m`, `strasse c`), when
    ///   ``gramBitsTable`` holds them;
    /// - ``BothIndexesRead/mergeGrams``: merged with the grams index's rows holding the short terms
    ///   and each long term's rarest 2-scalar gram (``matchesPerScope(intersecting:gramsPattern:_:)``),
    ///   reading no table row (`pro pa`: 18,000 long-term rows).
    ///
    /// The long terms' rows read are also their count: no estimate is counted first (it would cost
    /// about as much as the intersection). Nil when a merged match has a scope value the rowids
    /// cannot tell apart.
    func bothIndexesMatchesPerScope(_ plan: SearchPlan, costs: SearchCosts, _ db: Database) throws -> ScopeMatches? {
        let short = plan.terms.filter(\.isShort)
        let long = plan.terms.filter { !$0.isShort }
        let longRowIDs = try indexRowIDs(fullTextTable, matching: SearchPlan.fullTextPattern(long), db)
        let read = PagePlanner.bothIndexesRead(
            longRows: longRowIDs.count, shortTermsOfOneScalar: short.allSatisfy { $0.length == 1 }, costs: costs)
        if read == .checkLongRows {
            return try checkedMatchesPerScope(plan, ids: longRowIDs.map { $0 & Self.largestScopedID }, db)
        }
        if read == .gramBits, let matches = try matchesPerScope(intersecting: longRowIDs, holdingBitsOf: short.map(\.folded), db) {
            return matches
        }
        // Each long term narrowed in the grams index by its rarest 2-scalar gram: rows holding the
        // term hold it too, so it only shortens the grams index's rows to merge.
        var narrowing: [String] = []
        for term in long {
            var rarest: (gram: String, count: Int)?
            for gram in SearchPlan.pairs(of: term.folded) {
                let count = try gramCount(gram, scope: nil, db)
                if count < rarest?.count ?? .max { rarest = (gram, count) }
            }
            if let rarest { narrowing.append(rarest.gram) }
        }
        guard let pattern = SearchPlan.gramsPattern(short.map(\.folded) + narrowing) else { return nil }
        return try matchesPerScope(intersecting: longRowIDs, gramsPattern: pattern, db)
    }

    /// The rows among `ids` that match every term of `plan` (a long term's few rows, or those holding
    /// a numeric term only as a number), with their ids, per value of the scope column (values
    /// counting 0 left out): each row read by its id and checked. Nil without a scope column.
    func checkedMatchesPerScope(_ plan: SearchPlan, ids: [Int64], _ db: Database) throws -> ScopeMatches? {
        guard let scopeColumn else { return nil }
        var matches: [DatabaseValue: [Int64]] = [:]
        if !ids.isEmpty {
            let condition = rowsMatchingEveryTerm(plan, ids: ids)
            try db.fetchAll(
                sql: "SELECT \(table).\(scopeColumn), \(table).\(idColumn) FROM \(table) WHERE \(condition.sql)",
                arguments: condition.arguments
            ) { row in (row.databaseValue(at: 0), try row.decode(Int64.self, at: 1)) }
            .forEach { scope, id in matches[scope, default: []].append(id) }
        }
        return ScopeMatches(counts: matches.mapValues(\.count), ids: matches)
    }
}
