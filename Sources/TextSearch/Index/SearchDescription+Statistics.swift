import SQLiteStore

extension SearchDescription {
    /// The plan of `query` within `scope`, in the current read, with the terms' estimates.
    ///
    /// - Parameter keepsNumbers: true plans numeric terms as matching by number even when no row of
    ///   this read matches one by number alone, so that the plan stays exact in later reads; false
    ///   plans them as plain terms then (valid only within this read).
    /// - Parameter totalCount: how many rows match within `scope` in this read, when known: a query
    ///   of one term then reads no estimate (its rows are the matches, whichever way it drives).
    func plan(
        _ query: SearchQuery, scope: DatabaseValue?, costs: SearchCosts, keepsNumbers: Bool = false,
        matchesNumbers: Bool = true, totalCount: Int? = nil, _ db: Database
    ) throws -> SearchPlan {
        let folded = Set(query.terms.map(\.folded))
        let estimates = try indexesShortTerms && folded.count == 1 && totalCount != nil
            ? [folded.first!: totalCount!]
            : termEstimates(query, scope: scope, costs: costs, db)
        let plan = SearchPlan(
            query, self, estimates: estimates, denseRows: costs.denseRows, matchesNumbers: matchesNumbers, scope: scope)
        // A numeric term matches by number too; when, in this read, every row with that number has the
        // term in its text anyway (`500`, `3`: none or a few rows, checked until one is found), it is
        // a plain term: its total and page come from the text indexes alone.
        let numeric = plan.terms.filter(plan.isNumeric)
        guard !keepsNumbers, !numeric.isEmpty, !plan.matchesNothing else { return plan }
        for term in numeric {
            if try matchesByNumberAlone(term, scope: nil, db) { return plan }
        }
        return SearchPlan(query, self, estimates: estimates, denseRows: costs.denseRows, matchesNumbers: false, scope: scope)
    }

    /// The plan of `query` within `scope` when its `matches` are known (their ids read in this read):
    /// a page then only needs the terms that a walk in list order checks, so no estimate is read
    /// (trigram doclists per long term and scope). Each term is given the matches' number as its estimate, a lower bound of its rows:
    /// the plan is dense when the matches alone reach the dense threshold.
    func knownMatchesPlan(_ query: SearchQuery, scope: DatabaseValue?, matches: Int, costs: SearchCosts) -> SearchPlan {
        SearchPlan(
            query, self, estimates: Dictionary(query.terms.map { ($0.folded, matches) }, uniquingKeysWith: { first, _ in first }),
            denseRows: costs.denseRows, scope: scope)
    }

    /// The plan of `query` over every row without the terms' estimates: its terms, whether it can
    /// match, and which terms match by number in this read (as ``plan(_:scope:costs:keepsNumbers:matchesNumbers:totalCount:_:)``
    /// decides it), which is all that counts read from the indexes need; its driver is not chosen
    /// by estimates.
    func unestimatedPlan(_ query: SearchQuery, matchesNumbers: Bool = true, _ db: Database) throws -> SearchPlan {
        let plan = SearchPlan(query, self, matchesNumbers: matchesNumbers)
        guard !plan.matchesNothing else { return plan }
        for term in plan.terms where plan.isNumeric(term) {
            if try matchesByNumberAlone(term, scope: nil, db) { return plan }
        }
        return SearchPlan(query, self, matchesNumbers: false)
    }

    /// Whether some row (within `scope`) matches `term` by a number column but holds it in no text column.
    func matchesByNumberAlone(_ term: SearchTerm, scope: DatabaseValue?, _ db: Database) throws -> Bool {
        let condition = numberOnlyCondition(term, scope: scope)
        return try db.scalar(
            Bool.self, sql: "SELECT EXISTS (SELECT 1 FROM \(table) WHERE \(condition.sql))", arguments: condition.arguments
        ) ?? true
    }

    /// The rows (within `scope`) that equal the numeric `term` in a number column and hold it in no text column.
    func numberOnlyCondition(_ term: SearchTerm, scope: DatabaseValue?) -> SQLFragment {
        let number = term.number!
        let byNumber = SQLFragment(
            joining: numberColumns.map { SQLFragment(sql: "\(table).\(SQLText.identifier($0)) = ?", arguments: [number]) }, separator: " OR ")
        let notInText = SQLFragment(
            joining: textColumns.map { SQLFragment(sql: "instr(\(table).\($0), ?) = 0", arguments: [term.folded]) },
            separator: " AND ")
        // The scope is checked on the few rows the number columns' indexes find.
        return scoped(byNumber.parenthesized && notInText, scope: scope, alias: table, checkedOnRows: true)
    }

    /// `condition AND alias.scope = ?` with a scope; `condition` without.
    ///
    /// - Parameter checkedOnRows: true checks the scope on each row `condition` finds through its
    ///   own index (`+alias.scope = ?`, which no index serves), for the few rows a driver or a number
    ///   finds: else SQLite may walk the scope's rows in the list index instead, probing each (a third
    ///   of the table for a product type).
    func scoped(_ condition: SQLFragment, scope: DatabaseValue?, alias: String, checkedOnRows: Bool = false) -> SQLFragment {
        guard let scope, let scopeColumn else { return condition }
        return condition && SQLFragment(sql: "\(checkedOnRows ? "+" : "")\(alias).\(scopeColumn) = ?", arguments: [scope])
    }

    /// The rows of each term, for choosing the rarest one to drive: for a term of 1-2 scalars, the
    /// rows holding it within `scope`, from the gram counts; for a longer term, its rows in the
    /// trigram index (within `scope` when its rowids carry it, else in all), counted up to a limit
    /// (``SearchCosts/denseRows``; with other terms and no short one, or a number, as far as the
    /// rarest so far, at most ``SearchCosts/commonRows``), and at the limit the rows of its rarest
    /// 2-scalar gram (a bound read from the gram counts, so that common terms still compare). A term
    /// that reads as a number adds its rows in each number column (each counted up to
    /// ``SearchCosts/denseRows``). With short
    /// terms too, each 2-scalar gram of a long term (without a space) has its gram count, for the
    /// plan to narrow that term by its rarest one in the grams index. Nil without a grams index.
    func termEstimates(
        _ query: SearchQuery, scope: DatabaseValue?, costs: SearchCosts, _ db: Database
    ) throws -> [String: Int]? {
        guard indexesShortTerms else { return nil }
        let cap = costs.denseRows
        var estimates: [String: Int] = [:]
        // Short terms first (one row each); then, with other terms, a long term is counted past `cap`
        // up to the rarest estimate so far (at most `commonRows`): enough to tell which drives.
        var rarest = Int.max
        let terms = query.terms
        let hasShortTerms = terms.contains(where: \.isShort)
        let hasNumbers = terms.contains { $0.number != nil }
        var pairCounts: [String: Int] = [:]
        for term in terms.filter(\.isShort) + terms.filter({ !$0.isShort }) where estimates[term.folded] == nil {
            var estimate: Int
            if !term.canMatchText {
                estimate = 0  // it matches nothing (and its control characters could not be bound into MATCH)
            } else if term.isShort {
                estimate = try gramCount(term.folded, scope: scope, db)
            } else {
                // With short terms and no number, whether every term reaches `denseRows` (they then
                // drive together) is all the plan needs: count up to it, then bound by the 2-scalar grams.
                let limit = (!hasShortTerms || hasNumbers) && terms.count > 1 ? max(cap, min(rarest, costs.commonRows)) : cap
                // A frequent term's maintained count, capped as the index's count would be.
                let match = fullTextMatch(SearchPlan.fullTextPattern([term]), scope: scope)
                estimate = try substringCount(term.folded, scope: scope, db).map { min($0, limit) } ?? db.scalar(
                    Int.self, sql: "SELECT count(*) FROM (SELECT 1 FROM \(fullTextTable) WHERE \(match.sql) LIMIT ?)",
                    arguments: match.arguments + [limit]) ?? 0
                if estimate >= limit || hasShortTerms {
                    var bound = Int.max
                    for gram in SearchPlan.pairs(of: term.folded) {
                        let count = try pairCounts[gram] ?? gramCount(gram, scope: scope, db)
                        if hasShortTerms { pairCounts[gram] = count }
                        bound = min(bound, count)
                    }
                    if estimate >= limit, bound < .max { estimate = max(estimate, bound) }
                }
            }
            if term.number != nil {
                for column in numberColumns {
                    estimate += try db.scalar(
                        Int.self, sql: "SELECT count(*) FROM (SELECT 1 FROM \(table) WHERE \(SQLText.identifier(column)) = ? LIMIT ?)",
                        arguments: [term.number!, cap]) ?? 0
                }
            }
            estimates[term.folded] = estimate
            rarest = min(rarest, estimate)
        }
        // (A short term's estimate stays its own: a number adds its rows in the number columns.)
        return estimates.merging(pairCounts) { term, _ in term }
    }

    /// A bound on the rows (within `scope`) holding the term of 3+ scalars `term`: the rows of its
    /// rarest 2-scalar gram without a space (each such row holds every gram of the term); nil with no
    /// grams index or no such gram.
    func gramBound(_ term: SearchTerm, scope: DatabaseValue?, _ db: Database) throws -> Int? {
        guard indexesShortTerms else { return nil }
        var bound: Int?
        for pair in SearchPlan.pairs(of: term.folded) {
            let count = try gramCount(pair, scope: scope, db)
            bound = min(bound ?? count, count)
        }
        return bound
    }

    /// The rows whose texts hold `gram` (1 or 2 scalars), per scope value, for the values that have
    /// any: one row each of ``gramCountsTable``.
    func gramCountsPerScope(_ gram: String, _ db: Database) throws -> [(scope: DatabaseValue, count: Int)] {
        guard let gramCountsTable, let scopeColumn else { preconditionFailure("per-scope gram counts need a grams index and a scope") }
        return try db.fetchAll(
            sql: "SELECT \(scopeColumn), count FROM \(gramCountsTable) WHERE gram = ? AND count > 0", arguments: [gram]
        ) { row in (row.databaseValue(at: 0), try row.decode(Int.self, at: 1)) }
    }

    /// The rows whose texts hold `gram` (1 or 2 scalars), within `scope`.
    func gramCount(_ gram: String, scope: DatabaseValue?, _ db: Database) throws -> Int {
        guard let gramCountsTable else { preconditionFailure("gram counts need a grams index") }
        if let scope, let scopeColumn {
            return try db.scalar(
                Int.self, sql: "SELECT count FROM \(gramCountsTable) WHERE gram = ? AND \(scopeColumn) = ?",
                arguments: [gram, scope]) ?? 0
        }
        return try db.scalar(
            Int.self, sql: "SELECT coalesce(sum(count), 0) FROM \(gramCountsTable) WHERE gram = ?", arguments: [gram]) ?? 0
    }
}
