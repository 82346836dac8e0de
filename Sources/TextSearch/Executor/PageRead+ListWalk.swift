import SQLiteStore

extension PageRead {
    /// ``PageStrategy/walkListIndex(budget:fallback:)``: the page's ids found by walking the list index
    /// from the start of the scope, else, when the matches sort late, from the range of the texts that
    /// begin with the longest term and the few matches outside it, each walk at most `budget` entries;
    /// the page's records read by id. Nil when both fall short.
    func walkListIndex<Entity>(budget: Int, _ db: Database, decode: (Row) throws -> Entity) throws -> SearchPage<Entity>? {
        guard let total else { preconditionFailure("the list index is walked once the matches are counted") }
        let wanted = min(limit, max(0, total - offset))
        guard let ids = try description.idsInListOrder(plan, scope: scope, wanted: wanted, offset: offset, budget: budget, db)
            ?? description.anchoredIDsInListOrder(plan, scope: scope, wanted: wanted, offset: offset, matches: total, budget: budget,
                othersLimit: costs.fewRows, db)
        else { return nil }
        return SearchPage(records: try description.records(ids: ids, selection: selection, db, decode: decode), totalCount: total)
    }
}
