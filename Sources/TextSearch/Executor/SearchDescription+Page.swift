import SQLiteStore

extension SearchDescription {
    /// A page of the rows that match `query` within `scope`, in `order`, and how many match in all,
    /// read in the current read (call it inside one, so that both come from one snapshot).
    ///
    /// ```swift
    /// let page = try films.page(
    ///     SearchQuery("ring"), order: SearchOrder(SQLFragment(sql: "films.title_folded, films.id")), limit: 50,
    ///     selection: "films.id, films.title", db) { row in (try row.decode(Int64.self, at: 0), try row.decode(String.self, at: 1)) }
    /// ```
    ///
    /// One step reads what the planner needs (the terms' estimates, the total when an index gives it,
    /// the scope's rows, the few rows a number finds alone: ``PageFacts``); ``PagePlanner`` chooses
    /// the strategy from those values; the executor reads the page as it says. The article "How a
    /// search runs" tabulates the strategies.
    ///
    /// - Parameters:
    ///   - query: the search.
    ///   - scope: the scope column's value the rows must have; nil for every row.
    ///   - order: the page's order.
    ///   - limit: the most rows read.
    ///   - offset: the matching rows skipped before the page.
    ///   - totalCount: how many rows match `query` within `scope` in this read, when the caller knows
    ///     it (from ``countsPerScope(_:_:)`` in the same read, as a fetched-results controller's
    ///     sections do): the page then does not count them again. Nil (the default) counts them.
    ///   - matchIDs: the ids of exactly the rows that match `query` within `scope` in this read, in any
    ///     order, when the caller read them (``matchesPerScope(_:_:)``'s ids, in the same read): the
    ///     page is then read from them (or by walking the list index, when that is expected to cost
    ///     less), not searched again, and `totalCount` is their number. Nil (the default) searches.
    ///   - selection: the columns `decode` reads, from column 0, qualified with the table's name.
    ///   - costs: the cost model that chooses the strategy (tests force each one with extreme values).
    ///   - db: the connection, in a read.
    ///   - decode: makes a record of a row of `selection`.
    /// - Throws: `DatabaseError`, or what `decode` throws.
    /// - Precondition: `limit` and `offset` are not negative: a mistake of the calling code, which
    ///   checks a number a user typed before it asks for a page (an offset past the matches is no
    ///   mistake: its page is empty).
    public func page<Entity>(
        _ query: SearchQuery, scope: DatabaseValue? = nil, order: SearchOrder, limit: Int, offset: Int = 0,
        totalCount: Int? = nil, matchIDs: [Int64]? = nil, selection: String, costs: SearchCosts = .standard,
        _ db: Database, decode: (Row) throws -> Entity
    ) throws -> SearchPage<Entity> {
        var page = try page(
            query, scope: scope, order: order, limit: limit, offset: offset, totalCount: totalCount, matchIDs: matchIDs,
            selection: selection, costs: costs, forcing: nil, countsMatches: true, db, decode: decode)
        (page.query, page.offset) = (query, offset)
        return page
    }

    /// The row at `offset` among the rows that match `query` within `scope`, in `order`, read without
    /// counting the matches: a page of one read from the scope's matches listed from the search
    /// indexes when they are at most ``SearchCosts/fewRows``, else planned with no total
    /// (``PageFacts/countsMatches``); nil when fewer rows match. What shows one row of a result whose
    /// counts nobody reads.
    public func row<Entity>(
        at offset: Int, of query: SearchQuery, scope: DatabaseValue? = nil, order: SearchOrder, selection: String,
        costs: SearchCosts = .standard, _ db: Database, decode: (Row) throws -> Entity
    ) throws -> Entity? {
        try page(
            query, scope: scope, order: order, limit: 1, offset: offset, totalCount: nil, matchIDs: nil, selection: selection,
            costs: costs, forcing: nil, countsMatches: false, db, decode: decode
        ).records.first
    }

    /// ``page(_:scope:order:limit:offset:totalCount:matchIDs:selection:costs:_:decode:)`` read with
    /// `strategy` rather than the planner's choice (tests check every strategy against a reference):
    /// the matches counted by a scan when no index counts them, a walk in list order only where the
    /// order is the list index's and no term is numeric (else its fallback), a numeric condition's
    /// read only where one was read (else the matches sorted).
    @_spi(Testing)
    public func page<Entity>(
        _ query: SearchQuery, scope: DatabaseValue? = nil, order: SearchOrder, limit: Int, offset: Int = 0,
        selection: String, forcing strategy: PageStrategy, _ db: Database, decode: (Row) throws -> Entity
    ) throws -> SearchPage<Entity> {
        var page = try page(
            query, scope: scope, order: order, limit: limit, offset: offset, totalCount: nil, matchIDs: nil,
            selection: selection, costs: .standard, forcing: strategy, countsMatches: true, db, decode: decode)
        (page.query, page.offset) = (query, offset)
        return page
    }

    private func page<Entity>(
        _ query: SearchQuery, scope: DatabaseValue?, order: SearchOrder, limit: Int, offset: Int,
        totalCount: Int?, matchIDs: [Int64]?, selection: String, costs: SearchCosts, forcing: PageStrategy?,
        countsMatches: Bool, _ db: Database, decode: (Row) throws -> Entity
    ) throws -> SearchPage<Entity> {
        precondition(limit >= 0 && offset >= 0, "a search page's limit and offset are not negative, not \(limit) and \(offset)")
        precondition((totalCount ?? 0) >= 0, "a total count is not negative")
        precondition(matchIDs == nil || totalCount == nil || totalCount == matchIDs?.count)
        // What the planner needs to know, read now; then the strategy, chosen without the database.
        var page = try PageRead(
            self, query: query, scope: scope, order: order, limit: limit, offset: offset, totalCount: totalCount,
            matchIDs: matchIDs, selection: selection, costs: costs, countsMatches: countsMatches, db)
        if forcing.map({ if case .scan = $0 { false } else { true } }) == true, page.total == nil {
            page.total = try scannedCount(page.plan, scope: scope, db)
        }
        if let total = page.total, min(limit, max(0, total - offset)) == 0 { return SearchPage(records: [], totalCount: total) }
        return try page.run(forcing.map(page.feasible) ?? PagePlanner.strategy(for: page.facts, costs: costs), db, decode: decode)
    }

    /// The rows that meet `condition`, in `order`, `LIMIT limit OFFSET offset`; with `byID`, each row
    /// the condition's ids name is read by its id (`NOT INDEXED`: no other index of the table is
    /// used, so not one whose order SQLite would walk until the page is found).
    ///
    /// Related SQLite documentation: <https://www.sqlite.org/lang_indexedby.html>
    func rows<Entity>(
        _ condition: SQLFragment, byID: Bool = false, order: SearchOrder, limit: Int, offset: Int, selection: String,
        _ db: Database, decode: (Row) throws -> Entity
    ) throws -> [Entity] {
        try db.fetchAll(
            sql: "SELECT \(selection) FROM \(table)\(byID ? " NOT INDEXED" : "") WHERE \(condition.sql)"
                + " ORDER BY \(order.terms.sql) LIMIT ? OFFSET ?",
            arguments: condition.arguments + order.terms.arguments + [limit, offset], decode)
    }

    /// The rows with these ids, in this order.
    func records<Entity>(ids: [Int64], selection: String, _ db: Database, decode: (Row) throws -> Entity) throws -> [Entity] {
        let idList = SQLFragment.list(ids)
        // The id in the last column, after the ones `decode` reads.
        let rows = try db.fetchAll(
            sql: "SELECT \(selection), \(table).\(idColumn) FROM \(table) WHERE \(table).\(idColumn) IN \(idList.sql)",
            arguments: idList.arguments
        ) { row in (id: try row.decode(Int64.self, at: row.count - 1), record: try decode(row)) }
        let byID = Dictionary(rows.map { ($0.id, $0.record) }, uniquingKeysWith: { first, _ in first })
        return ids.compactMap { byID[$0] }
    }
}
