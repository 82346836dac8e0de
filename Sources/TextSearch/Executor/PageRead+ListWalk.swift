import SQLiteStore

extension PageRead {
    /// ``PageStrategy/walkListIndex(budget:fallback:)``: the page's ids found by walking the list index
    /// from the start of the scope, else, when the matches sort late, from the range of the texts that
    /// begin with the longest term and the few matches outside it, each walk at most `budget` entries;
    /// the page's records read by id. Nil when both fall short.
    ///
    /// A one-term search with its scope's rows counted walks from the start only twice the expected
    /// length (``SearchCosts/expectedListWalk(depth:matches:scopeRows:)``) before its range: a range that
    /// holds only matches, each entry read without a check, costs less than the rest of a walk that
    /// the matches' clustering has already defeated (`東京`, `mac`: every match begins with the term,
    /// after 125,000-317,000 names without it); then the walk's full budget.
    func walkListIndex<Entity>(budget: Int, _ db: Database, decode: (Row) throws -> Entity) throws -> SearchPage<Entity>? {
        guard total != nil || !countsMatches else { preconditionFailure("the list index is walked once the matches are counted") }
        let wanted = total.map { min(limit, max(0, $0 - offset)) } ?? limit
        func walked(_ budget: Int) throws -> [Int64]? {
            try description.idsInListOrder(plan, scope: scope, wanted: wanted, offset: offset, budget: budget, db)
        }
        func anchored() throws -> [Int64]? {
            // The range of the texts that begin with the longest term is costed by the matches' number.
            guard let total else { return nil }
            return try description.anchoredIDsInListOrder(
                plan, scope: scope, wanted: wanted, offset: offset, matches: total, budget: budget, othersLimit: costs.fewRows, db)
        }
        let (depth, overflow) = offset.addingReportingOverflow(wanted)
        let probe = plan.terms.count == 1 && !overflow ? scopeRows.flatMap { scopeRows in total.flatMap {
            costs.expectedListWalk(depth: depth, matches: $0, scopeRows: scopeRows) }
        }.map { $0.multipliedReportingOverflow(by: 2) } : nil
        let ids: [Int64]?
        if let probe, !probe.overflow, probe.partialValue < budget {
            ids = try walked(probe.partialValue) ?? anchored() ?? walked(budget)
        } else {
            ids = try walked(budget) ?? anchored()
        }
        guard let ids else { return nil }
        return SearchPage(records: try description.records(ids: ids, selection: selection, db, decode: decode), totalCount: total ?? 0)
    }
}
