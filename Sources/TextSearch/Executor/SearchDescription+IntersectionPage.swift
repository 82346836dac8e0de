import SQLiteStore

extension SearchDescription {
    /// A search whose terms of both lengths drive together through both indexes
    /// (``SearchPlan/Driver/gramsAndFullText(short:long:narrowing:)``), or whose matches' ids the
    /// caller read in this read (`matchIDs`, from ``matchesPerScope(_:_:)``): the matches' ids, read
    /// once from the two indexes (or given), give the total and the page — walked in list order when
    /// that is expected to cost less (``listPageRoute(_:scope:order:limit:offset:matches:thresholds:_:)``;
    /// without counts of the scope's rows, when they are more than
    /// ``SearchThresholds/orderedScanThreshold`` and the order is the list index's; when the walk falls
    /// short, from the range of the texts that begin with a long term and the few matches outside it,
    /// ``anchoredIDsInListOrder(_:scope:wanted:offset:matches:budget:_:)``), else (or when both fall
    /// short) read by id and sorted. `totalCount`, when given, is the total in this read:
    /// the walk is then tried before any id is read. Nil when it does not apply: another plan without
    /// `matchIDs`, a scope the indexes do not tell apart, or more matches than
    /// ``SearchThresholds/idListLimit``.
    func intersectionPage<Entity>(
        _ plan: SearchPlan, scope: DatabaseValue?, order: SearchOrder, limit: Int, offset: Int, totalCount: Int?,
        matchIDs: [Int64]?, thresholds: SearchThresholds, budget: Int, selection: String, _ db: Database,
        decode: (Row) throws -> Entity
    ) throws -> SearchPage<Entity>? {
        // The walk in list order for a page of `total` matches, or nil: by expected costs when the
        // scope's rows are counted, else past the threshold for a dense plan.
        func walkedPage(total: Int) throws -> SearchPage<Entity>? {
            let budget: Int? = switch try listPageRoute(
                plan, scope: scope, order: order, limit: limit, offset: offset, matches: total, thresholds: thresholds, db) {
            case .walk(let budget)?: budget
            case .readByID?: nil
            case nil:
                total > thresholds.orderedScanThreshold && plan.isDense && order.isListIndexOrder
                    && !plan.terms.contains(where: plan.isNumeric) ? budget : nil
            }
            let wanted = min(limit, max(0, total - offset))
            guard let budget, let walked = try idsInListOrder(plan, scope: scope, wanted: wanted, offset: offset, budget: budget, db)
                ?? anchoredIDsInListOrder(plan, scope: scope, wanted: wanted, offset: offset, matches: total, budget: budget, db)
            else { return nil }
            return SearchPage(records: try records(ids: walked, selection: selection, db, decode: decode), totalCount: total)
        }
        let ids: [Int64]
        if let matchIDs {
            ids = matchIDs
        } else {
            guard let matches = exactIntersectionIDs(plan, scope: scope) else { return nil }
            if let totalCount, let walked = try walkedPage(total: totalCount) { return walked }
            ids = try db.fetchAll(
                sql: matches.sql + " LIMIT ?", arguments: matches.arguments + [SearchThresholds.idListLimit + 1]
            ) { try $0.decode(Int64.self, at: 0) }
            guard ids.count <= SearchThresholds.idListLimit else { return nil }
        }
        let total = ids.count
        if min(limit, max(0, total - offset)) == 0 { return SearchPage(records: [], totalCount: total) }
        if matchIDs != nil || totalCount == nil, let walked = try walkedPage(total: total) { return walked }
        // Each match read by its id (`NOT INDEXED`: SQLite would otherwise walk an index in the page's
        // order until the page is found, far when the matches are sparse in it), then sorted.
        let idList = SQLFragment.list(ids)
        let sorted = try db.fetchAll(
            sql: "SELECT \(selection) FROM \(table) NOT INDEXED WHERE \(table).\(idColumn) IN \(idList.sql)"
                + " ORDER BY \(order.terms.sql) LIMIT ? OFFSET ?",
            arguments: idList.arguments + order.terms.arguments + [limit, offset], decode)
        return SearchPage(records: sorted, totalCount: total)
    }
}
