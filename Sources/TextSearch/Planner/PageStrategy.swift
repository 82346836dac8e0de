/// How the executor reads a page of a search's matches: one of four strategies, chosen by
/// ``PagePlanner/strategy(for:costs:)`` from what ``PageFacts`` says, with no database.
///
/// See the TextSearch article "How a search runs" for what each reads.
public indirect enum PageStrategy: Sendable, Hashable {
    /// No index counts the matches: the driver's rows are checked one by one; read once for the page
    /// and the total (a window function) when `onePass`, else counted, then the page read.
    case scan(onePass: Bool)
    /// The matches are read through the indexes, then sorted, and the page taken: how depends on
    /// ``MatchRead``.
    case readMatches(MatchRead)
    /// The list index walked in order with every term checked on its text, at most `budget` entries
    /// (from the start of the scope, then the range of the texts that begin with the longest term);
    /// when that falls short, `fallback`.
    case walkListIndex(budget: Int, fallback: PageStrategy)
    /// SQLite walks the index of the page's order, probing each entry in the driver's rows, and stops
    /// at the page: for dense matches in an order other than the list index's.
    case walkOrderIndex

    /// How ``readMatches(_:)`` reads the matches.
    public enum MatchRead: Sendable, Hashable {
        /// Those with every term in their text from one index, and the few rows that hold a number
        /// only as a number column's value.
        case numeric
        /// Each match read by its id (no other index of the table used), then sorted.
        case byID
        /// The matches sorted by SQLite as it finds them (through their driver's index).
        case sorted
    }
}

/// What the planner knows of one page request: plain values the executor reads before planning
/// (estimates, counts), so that the choice itself reads nothing.
public struct PageFacts: Sendable, Hashable {
    /// The rows asked for.
    public var limit: Int
    /// The matching rows skipped before the page.
    public var offset: Int
    /// How many rows match, when known or counted from an index; nil when only a scan counts them.
    public var total: Int?
    /// Whether the rarest term's estimated rows reached ``SearchThresholds/orderedScanThreshold``.
    public var isDense: Bool
    /// The rarest term's estimated rows, when estimates were read.
    public var driverEstimate: Int?
    /// Whether one index query of all terms finds exactly the matches (all long terms, all short
    /// ones, or both kinds common).
    public var hasAllTermsIndex: Bool
    /// Whether the page's order is the list index's and no term matches by number: a walk of the
    /// list index can find the page.
    public var walksInListOrder: Bool
    /// The rows of the scope, counted (`SectionCounts`), when a walk in list order can be costed
    /// against reading the matches by id; nil otherwise.
    public var scopeRows: Int?
    /// Whether a condition of numeric terms' few number-only rows was read (several terms, some
    /// numeric, few matches).
    public var hasNumericCondition: Bool

    /// Facts.
    public init(
        limit: Int, offset: Int, total: Int?, isDense: Bool, driverEstimate: Int? = nil, hasAllTermsIndex: Bool = false,
        walksInListOrder: Bool = false, scopeRows: Int? = nil, hasNumericCondition: Bool = false
    ) {
        self.limit = limit
        self.offset = offset
        self.total = total
        self.isDense = isDense
        self.driverEstimate = driverEstimate
        self.hasAllTermsIndex = hasAllTermsIndex
        self.walksInListOrder = walksInListOrder
        self.scopeRows = scopeRows
        self.hasNumericCondition = hasNumericCondition
    }
}
