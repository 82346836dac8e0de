/// One page of a search's rows, in the requested order, and how many rows match in all: what the
/// executor returns, and what a store's search page and the as-you-type pipeline deliver.
///
/// ```swift
/// let page = try films.page(SearchQuery("ring"), order: order, limit: 50, selection: "films.id", db) { row in
///     try row.decode(Int64.self, at: 0)
/// }
/// print("\(page.totalCount) results")
/// ```
public struct SearchPage<Entity> {
    /// The search that gave the page.
    public var query: SearchQuery
    /// The page's rows, in the requested order (sections flattened).
    public var records: [Entity]
    /// The position of the page's first row in the whole result.
    public var offset: Int
    /// The number of rows in the whole result.
    public var totalCount: Int

    /// A page.
    public init(query: SearchQuery, records: [Entity], offset: Int, totalCount: Int) {
        self.query = query
        self.records = records
        self.offset = offset
        self.totalCount = totalCount
    }

    /// A page of the executor's, whose query and offset its entry point fills in.
    init(records: [Entity], totalCount: Int) {
        self.init(query: SearchQuery(""), records: records, offset: 0, totalCount: totalCount)
    }
}

extension SearchPage: Sendable where Entity: Sendable {}
extension SearchPage: Equatable where Entity: Equatable {}
extension SearchPage: Hashable where Entity: Hashable {}

extension SearchPage where Entity: Equatable {
    /// Whether the page shows the same rows and total as `other`, whatever the queries were.
    public func hasSameResults(as other: SearchPage) -> Bool {
        records == other.records && offset == other.offset && totalCount == other.totalCount
    }
}
