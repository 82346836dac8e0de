import SQLiteStore

extension PageRead {
    /// ``PageStrategy/readMatches(_:)``: the matches read through the indexes, sorted, and the page
    /// taken; each by its id (`NOT INDEXED`: not an index in the page's order, which SQLite would walk
    /// until the page is found, far when the matches are sparse in it), sorted as SQLite finds them,
    /// or with the rows that hold a numeric term only as a number.
    func readMatches<Entity>(_ read: PageStrategy.MatchRead, _ db: Database, decode: (Row) throws -> Entity) throws -> SearchPage<Entity> {
        guard total != nil || !countsMatches else { preconditionFailure("matches are read once counted") }
        let total = total ?? 0
        switch read {
        case .byID:
            return SearchPage(records: try rows(matchesCondition, byID: true, db, decode: decode), totalCount: total)
        case .sorted:
            return SearchPage(records: try rows(matchesCondition, db, decode: decode), totalCount: total)
        case .addingNumberOnlyRows(let textWalk):
            return try readAddingNumberOnlyRows(textWalk: textWalk, db, decode: decode)
        }
    }
}
