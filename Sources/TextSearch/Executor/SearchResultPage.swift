/// One page of a search's rows, in the requested order, and how many rows match in all.
public struct SearchResultPage<Record> {
    /// The page's rows.
    public var records: [Record]
    /// The number of rows in the whole result.
    public var totalCount: Int
}

extension SearchResultPage: Sendable where Record: Sendable {}
extension SearchResultPage: Equatable where Record: Equatable {}
