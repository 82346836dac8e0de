import SQLiteStore

extension SearchDescription {
    /// The matches of ``matchesPerScope(_:_:)`` for a plan mixing terms of 1-2 scalars (each without a
    /// space) with longer ones, none numeric, when the search indexes' rowids carry the scope: the
    /// long terms' rows are read from the trigram index (their rowids, ascending), then
    /// - when they are fewer than ``SearchCosts/denseRows`` (and at most
    ///   ``SearchCosts/idListLimit``), each of those rows is read by id and checked for every
    ///   term (`graphite g`: a few hundred rows, under a millisecond);
    /// - else, when every short term is one scalar held by ``gramBitsTable`` (a very common gram),
    ///   each of those rows is checked for their bits
    ///   (``matchesPerScope(intersecting:holdingBitsOf:_:)``: `core m`, `strasse c`);
    /// - else they are merged with the grams index's rows holding the short terms and each long
    ///   term's rarest 2-scalar gram (``matchesPerScope(intersecting:gramsPattern:_:)``), reading no
    ///   table row (`pro pa`: 18,000 long-term rows).
    ///
    /// The long terms' rows read are also their count, which chooses between the two: no estimate is
    /// counted first (it would cost about as much as the intersection). Nil when a short term is in fewer rows than the threshold
    /// (it drives instead, its rows checked by the page), when the rowids do not carry the scope, or
    /// when a merged match has a scope value the rowids cannot tell apart.
    func mixedMatchesPerScope(_ plan: SearchPlan, costs: SearchCosts, _ db: Database) throws -> ScopeMatches? {
        guard rowIDsCarryScope, plan.mixesLengths, !plan.matchesNothing, plan.terms.allSatisfy(SearchPlan.isIndexable),
              !plan.terms.contains(where: plan.isNumeric)
        else { return nil }
        let short = plan.terms.filter(\.isShort)
        let long = plan.terms.filter { !$0.isShort }
        for term in short where try gramCount(term.folded, scope: nil, db) < costs.denseRows {
            return nil
        }
        let longRowIDs = try indexRowIDs(fullTextTable, matching: SearchPlan.fullTextPattern(long), db)
        // (At most `idListLimit` ids in one statement, below SQLite's bound on its values.)
        if longRowIDs.count < costs.denseRows, longRowIDs.count <= SearchCosts.idListLimit {
            return try checkedMatchesPerScope(plan, ids: longRowIDs.map { $0 & Self.largestScopedID }, db)
        }
        // Short terms of one scalar that are very common: a bit per row of the long terms.
        if short.allSatisfy({ $0.length == 1 }),
           let matches = try matchesPerScope(intersecting: longRowIDs, holdingBitsOf: short.map(\.folded), db) {
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
