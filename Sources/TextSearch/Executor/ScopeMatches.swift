import SQLiteStore

/// The rows that match a search in each value of a description's scope column, as
/// ``SearchDescription/matchesPerScope(_:_:)`` reads them: how many, and which when the count
/// read their ids, so that pages of the same read need not search again
/// (``SearchDescription/page(_:scope:order:limit:offset:totalCount:matchIDs:selection:costs:_:decode:)``).
public struct ScopeMatches: Sendable, Hashable {
    /// The number of matching rows per scope value; values counting 0 are left out.
    public let counts: [DatabaseValue: Int]
    /// The matching rows' ids per scope value, in no particular order, when the count read them
    /// (at most 30,000 in all); nil otherwise.
    public let ids: [DatabaseValue: [Int64]]?
}
