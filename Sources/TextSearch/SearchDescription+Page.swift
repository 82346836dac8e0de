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
    /// With a grams index the rarest term drives (its gram count for 1-2 scalars, or its rows in the
    /// trigram index counted up to a cap, tells how rare; a number adds its rows in the number columns). The total comes from
    /// an index when one gives it (``count(_:scope:_:)``), and otherwise from the driver's rows with the
    /// other terms checked on them, read once for the total and the page. When even the rarest term
    /// is common and the order is the list index's, the page is found by walking that index in order
    /// for a bounded number of entries; when that falls short (the matches sort late) and a term has
    /// 3+ scalars, from the range of the list index whose texts begin with the longest such term and
    /// the few matches outside it (`anchoredIDsInListOrder`); else from one index of all terms
    /// (trigram phrases or grams tokens) or the driver's rows.
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
    ///   - thresholds: the strategies' thresholds (tests force each strategy with extreme ones).
    ///   - db: the connection, in a read.
    ///   - decode: makes a record of a row of `selection`.
    /// - Throws: `DatabaseError`, or what `decode` throws.
    public func page<Record>(
        _ query: SearchQuery, scope: DatabaseValue? = nil, order: SearchOrder, limit: Int, offset: Int = 0,
        totalCount: Int? = nil, matchIDs: [Int64]? = nil, selection: String, thresholds: SearchThresholds = .standard,
        _ db: Database, decode: (Row) throws -> Record
    ) throws -> SearchResultPage<Record> {
        precondition(limit >= 0 && offset >= 0 && (totalCount ?? 0) >= 0)
        precondition(matchIDs == nil || totalCount == nil || totalCount == matchIDs?.count)
        let totalCount = matchIDs?.count ?? totalCount
        let budget = thresholds.orderedScanBudget(limit: limit, offset: offset)
        let plan = try matchIDs.map { knownMatchesPlan(query, scope: scope, matches: $0.count, thresholds: thresholds) }
            ?? plan(query, scope: scope, thresholds: thresholds, totalCount: totalCount, db)
        func fetch(_ condition: SQLFragment, byID: Bool = false) throws -> [Record] {
            try rows(condition, byID: byID, order: order, limit: limit, offset: offset, selection: selection, db, decode: decode)
        }
        if let page = try intersectionPage(
            plan, scope: scope, order: order, limit: limit, offset: offset, totalCount: totalCount, matchIDs: matchIDs,
            thresholds: thresholds, budget: budget, selection: selection, db, decode: decode) {
            return page
        }
        if let page = try numericTermPage(
            plan, scope: scope, order: order, limit: limit, offset: offset, totalCount: totalCount, thresholds: thresholds,
            budget: budget, selection: selection, db, decode: decode) {
            return page
        }
        let condition = scoped(plan.condition(alias: table), scope: scope, alias: table)
        // The driver's rows, sorted: the scope checked on each of them.
        let driverCondition = scoped(plan.condition(alias: table), scope: scope, alias: table, checkedOnRows: true)
        guard let total = try totalCount ?? indexedCount(plan, scope: scope, db) else {
            if !plan.isDense || plan.driverEstimate.map({ $0 <= SearchThresholds.onePassLimit }) == true, limit > 0 {
                // The total needs the driver's rows checked one by one: read them once, for the page
                // and (with a window function, in the last column) the total.
                var total = 0
                let records = try db.fetchAll(
                    sql: "SELECT \(selection), count(*) OVER () FROM \(table) WHERE \(driverCondition.sql)"
                        + " ORDER BY \(order.terms.sql) LIMIT ? OFFSET ?",
                    arguments: driverCondition.arguments + order.terms.arguments + [limit, offset]
                ) { row in
                    total = try row.decode(Int.self, at: row.count - 1)
                    return try decode(row)
                }
                if !records.isEmpty { return SearchResultPage(records: records, totalCount: total) }
            }
            let total = try scannedCount(plan, scope: scope, db)
            let records = min(limit, max(0, total - offset)) == 0 ? [] : try fetch(condition)
            return SearchResultPage(records: records, totalCount: total)
        }
        let wanted = min(limit, max(0, total - offset))
        if wanted == 0 { return SearchResultPage(records: [], totalCount: total) }
        // Few matches of several terms, some numeric: those with every term in the text, from one
        // index, and the few rows holding a number only as a year or price.
        if total <= thresholds.orderedScanThreshold, let numeric = try numericTermsCondition(plan, scope: scope, db) {
            return SearchResultPage(records: try fetch(numeric), totalCount: total)
        }
        // Terms all in one index: its rows of all of them are the matches (in the scope), `total` rows.
        let allTerms = plan.terms.count > 1 ? plan.allTermsCondition(alias: table) : nil
        // Walk the list index or read the matches by id, by their expected costs when the scope's
        // rows are counted; else by the threshold of the rarest term's rows.
        let route = try listPageRoute(
            plan, scope: scope, order: order, limit: limit, offset: offset, matches: total, thresholds: thresholds, db)
        if let allTerms, route == .readByID || (route == nil && total <= thresholds.orderedScanThreshold) {
            // Few rows: each read by its id, then sorted (an index in the page's order would be
            // walked until the page is found, far when the matches are sparse in it).
            return SearchResultPage(
                records: try fetch(scoped(allTerms, scope: scope, alias: table, checkedOnRows: true), byID: true), totalCount: total)
        }
        // The driver's rows (or all terms' index rows), sorted.
        let sorted = allTerms.map { scoped($0, scope: scope, alias: table, checkedOnRows: true) } ?? driverCondition
        if route == .readByID { return SearchResultPage(records: try fetch(sorted, byID: true), totalCount: total) }
        let walkBudget: Int? = switch route {
        case .walk(let budget)?: budget
        case .readByID?: nil
        case nil: plan.isDense && order.isListIndexOrder && !plan.terms.contains(where: plan.isNumeric) ? budget : nil
        }
        if let walkBudget {
            // The walk from the start of the scope, else, when the matches sort late, the range of the
            // texts that begin with a long term and the few matches outside it.
            if let ids = try idsInListOrder(plan, scope: scope, wanted: wanted, offset: offset, budget: walkBudget, db)
                ?? anchoredIDsInListOrder(plan, scope: scope, wanted: wanted, offset: offset, matches: total, budget: walkBudget, db) {
                return SearchResultPage(records: try records(ids: ids, selection: selection, db, decode: decode), totalCount: total)
            }
            // Both fell short: the matches sort late. Up to a one pass's rows, sorting them (1-2 µs
            // each) beats walking on, every entry of the scope probed up to the page: `mac` within a
            // type of 333,000 products whose 50th match is its 125,000th entry, 30 ms walked, 14 ms
            // sorting its 8,490 matches.
            if total <= SearchThresholds.onePassLimit {
                return SearchResultPage(records: try fetch(sorted), totalCount: total)
            }
        }
        // Dense: SQLite walks the order's index, each entry probed in the driver's rows.
        if plan.isDense {
            return SearchResultPage(records: try fetch(allTerms.map { scoped($0, scope: scope, alias: table) } ?? condition), totalCount: total)
        }
        return SearchResultPage(records: try fetch(sorted), totalCount: total)
    }

    /// The rows that meet `condition`, in `order`, `LIMIT limit OFFSET offset`; with `byID`, each row
    /// the condition's ids name is read by its id (`NOT INDEXED`: no other index of the table is
    /// used, so not one whose order SQLite would walk until the page is found).
    ///
    /// Related SQLite documentation: <https://www.sqlite.org/lang_indexedby.html>
    private func rows<Record>(
        _ condition: SQLFragment, byID: Bool = false, order: SearchOrder, limit: Int, offset: Int, selection: String,
        _ db: Database, decode: (Row) throws -> Record
    ) throws -> [Record] {
        try db.fetchAll(
            sql: "SELECT \(selection) FROM \(table)\(byID ? " NOT INDEXED" : "") WHERE \(condition.sql)"
                + " ORDER BY \(order.terms.sql) LIMIT ? OFFSET ?",
            arguments: condition.arguments + order.terms.arguments + [limit, offset], decode)
    }

    /// The rows with these ids, in this order.
    func records<Record>(ids: [Int64], selection: String, _ db: Database, decode: (Row) throws -> Record) throws -> [Record] {
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
