/// Where a row belongs in a result now: its section and its sort key.
public struct RowPlacement<SortKey>: Sendable where SortKey: Sendable {
    /// The name of the row's section.
    public var sectionName: String
    /// The row's sort key, ordered by ``RowPlacing/precedes(_:_:)``.
    public var sortKey: SortKey

    /// Creates a placement.
    public init(sectionName: String, sortKey: SortKey) {
        self.sectionName = sectionName
        self.sortKey = sortKey
    }
}

/// What the incremental update of a snapshot needs to know about the result's rows: a query's view of
/// them, asked only about the rows that changed and the rows the search for their places probes, a
/// round of probes at a time.
public protocol RowPlacing {
    /// A row's position in the order of the result, with the id as the last component so the order is total.
    associatedtype SortKey: Sendable

    /// The placement of each of `ids` that is in the result now; ids not in the result are absent.
    func placements(of ids: [Int64]) throws -> [Int64: RowPlacement<SortKey>]

    /// The sort keys of rows that are in the result now and did not change, read together; an id
    /// missing from the answer is no longer in the table.
    func sortKeys(of ids: [Int64]) throws -> [Int64: SortKey]

    /// Whether `lhs` comes before `rhs` in the result.
    func precedes(_ lhs: SortKey, _ rhs: SortKey) -> Bool
}
