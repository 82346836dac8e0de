import SQLiteStore

extension PageRead {
    /// ``PageStrategy/readMatches(_:)``: the matches read through the indexes, sorted, and the page
    /// taken; by their numeric condition, each by its id (`NOT INDEXED`: not an index in the page's
    /// order, which SQLite would walk until the page is found, far when the matches are sparse in it),
    /// or sorted as SQLite finds them.
    func readMatches<Entity>(_ read: PageStrategy.MatchRead, _ db: Database, decode: (Row) throws -> Entity) throws -> SearchPage<Entity> {
        guard let total else { preconditionFailure("matches are read once counted") }
        let records = switch read {
        case .numeric:
            try rows(numeric!, db, decode: decode)
        case .byID:
            try rows(matchesCondition, byID: true, db, decode: decode)
        case .sorted:
            try rows(matchesCondition, db, decode: decode)
        }
        return SearchPage(records: records, totalCount: total)
    }
}
