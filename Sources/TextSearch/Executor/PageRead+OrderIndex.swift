import SQLiteStore

extension PageRead {
    /// ``PageStrategy/walkOrderIndex``: SQLite walks the index of the page's order, each entry probed
    /// in the matches (of one index of all terms, else of the driver), and stops at the page.
    func walkOrderIndex<Entity>(_ db: Database, decode: (Row) throws -> Entity) throws -> SearchPage<Entity> {
        guard let total else { preconditionFailure("an order's index is walked once the matches are counted") }
        let walked = allTerms.map { description.scoped($0, scope: scope, alias: description.table) } ?? condition
        return SearchPage(records: try rows(walked, db, decode: decode), totalCount: total)
    }
}
