import SQLiteStore

extension SearchDescription {
    /// The condition on a row of the table, named `alias`, that holds exactly when the row matches
    /// `query` within `scope`: the plan the executor runs, estimates included, for embedding in other
    /// SQL (a fetch request's WHERE clause). Plan it inside the read that runs it.
    ///
    /// ```swift
    /// let condition = try films.condition(for: SearchQuery("kubrick odyssey"), alias: "films", db)
    /// let ids = try db.fetchAll(sql: "SELECT id FROM films WHERE \(condition.sql)", arguments: condition.arguments) {
    ///     try $0.decode(Int64.self, at: 0)
    /// }
    /// ```
    ///
    /// The condition is exact whatever the database holds later (the estimates only choose which
    /// term drives); user text only ever travels as bound values. No term gives `1`; a term that
    /// cannot match gives `0`. When even the rarest term is in ``SearchCosts/commonRows``
    /// rows or more, every term is checked on the row (`instr`), so that a page in an index's order
    /// walks that index and stops at the page; counts for such a term come from
    /// ``countsPerScope(_:_:)`` where it gives them.
    ///
    /// - Throws: `DatabaseError` when the estimates cannot be read.
    public func condition(
        for query: SearchQuery, scope: DatabaseValue? = nil, alias: String, _ db: Database
    ) throws -> SQLFragment {
        try condition(for: query, scope: scope, alias: alias, costs: .standard, db)
    }

    /// ``condition(for:scope:alias:_:)`` with the executor's cost model (tests force each form).
    @_spi(Testing)
    public func condition(
        for query: SearchQuery, scope: DatabaseValue? = nil, alias: String, costs: SearchCosts, _ db: Database
    ) throws -> SQLFragment {
        // One plain term of 3+ scalars drives whatever its estimate, which only tells whether it
        // reaches the row-check threshold: its rarest 2-scalar gram's rows bound it (one row of gram
        // counts, where counting its rows in the trigram index reads its doclists), and below the
        // threshold the bound gives the same condition as the count.
        let unestimated = SearchPlan(query, self, scope: scope)
        if unestimated.terms.count == 1, let term = unestimated.terms.first, !term.isShort, !unestimated.isNumeric(term),
           !unestimated.matchesNothing, let bound = try gramBound(term, scope: scope, db), bound < costs.commonRows {
            return scoped(unestimated.condition(alias: alias), scope: scope, alias: alias)
        }
        let plan = try plan(query, scope: scope, costs: costs, keepsNumbers: true, db)
        if let estimate = plan.driverEstimate, estimate >= costs.commonRows {
            return scoped(plan.filterCondition(ofAllTermsOn: alias), scope: scope, alias: alias)
        }
        return scoped(plan.condition(alias: alias), scope: scope, alias: alias)
    }
}
