import SQLiteStore

/// How many entities match a search text in each section, as the entity's search counts them
/// (``FetchableEntity/searchCounts(for:sectionExpression:_:)``), and which when counting them read
/// their ids.
public struct SearchSectionCounts: Sendable, Hashable {
    /// The number of matching entities per section key; keys missing count 0.
    public var counts: [DatabaseValue: Int]
    /// The matching entities' ids per section key, in any order, when counting them read them; nil
    /// otherwise. A controller then reads its pages of the same read from them
    /// (``FetchableEntity/searchPage(for:sectionExpression:sectionKey:orderSQL:limit:offset:count:ids:_:)``),
    /// not by searching again.
    public var ids: [DatabaseValue: [Int64]]?

    /// Counts per section key, with the ids when they were read.
    public init(counts: [DatabaseValue: Int], ids: [DatabaseValue: [Int64]]? = nil) {
        self.counts = counts
        self.ids = ids
    }
}
