import TextSearch

/// One page of a search's result, with the number of records in the whole result.
///
/// ```swift
/// let page = try store.searchPage(ListRequest<Product>(searchText: "mac"), limit: 50)
/// print("\(page.totalCount) results; first: \(page.records.first?.name ?? "none")")
/// ```
public struct SearchPage<Record: CatalogRecord>: Sendable, Hashable {
    /// The search that gave the page.
    public var query: SearchQuery
    /// The records of the page, in the request's order (sections flattened).
    public var records: [Record]
    /// The position of the page's first record in the whole result.
    public var offset: Int
    /// The number of records in the whole result.
    public var totalCount: Int

    /// Creates a page.
    public init(query: SearchQuery, records: [Record], offset: Int, totalCount: Int) {
        self.query = query
        self.records = records
        self.offset = offset
        self.totalCount = totalCount
    }

    /// Whether the page shows the same records and total as `other`, whatever the queries were.
    public func hasSameResults(as other: SearchPage) -> Bool {
        records == other.records && offset == other.offset && totalCount == other.totalCount
    }
}
