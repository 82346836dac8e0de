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
        /// Each match read by its id (no other index of the table used), then sorted.
        case byID
        /// The matches sorted by SQLite as it finds them (through their driver's index).
        case sorted
        /// The first `offset + limit` of the matches with every term in their text (found by walking
        /// the list index for at most `textWalk` entries when given, else sorted), with the few rows
        /// that hold a numeric term only as a number column's value, sorted together.
        case addingNumberOnlyRows(textWalk: Int?)
    }
}

/// What the planner knows of one page request: plain values the executor reads before planning
/// (counts, estimates), so that the choice itself reads nothing. No type of a database engine.
public struct PageFacts: Sendable, Hashable {
    /// The rows asked for.
    public var limit: Int
    /// The matching rows skipped before the page.
    public var offset: Int
    /// How many rows match, when known or counted from an index; nil when only a scan counts them,
    /// or when the page does not count them.
    public var total: Int?
    /// Whether the page's total is wanted: false for a row read without its result's counts (the
    /// matches are then not counted, and no strategy costed by their number is chosen).
    public var countsMatches: Bool
    /// The rarest term's estimated rows (the driver's), when estimates were read.
    public var driverRows: Int?
    /// Whether one index query of all terms finds exactly the matches (all long terms, all short
    /// ones, or both kinds common).
    public var hasAllTermsIndex: Bool
    /// Whether the matches' ids are listed (given by the caller, or read while counting them): reading
    /// them by id is one lookup each.
    public var matchesListed: Bool
    /// Whether the page's order is the list index's, whose walk checks the terms on its text.
    public var inListOrder: Bool
    /// Whether a term matches by number too (the list index holds no number).
    public var hasNumericTerm: Bool
    /// The rows of the scope, counted (`SectionCounts`), when a walk in list order can be costed
    /// against reading the matches by id; nil otherwise.
    public var scopeRows: Int?
    /// How many rows hold a numeric term only as a number column's value, when they were listed (at
    /// most ``SearchCosts/fewRows`` of them per term).
    public var numberOnlyRows: Int?
    /// The matches expected before they are counted, the terms' rows taken as independent of one
    /// another (the rarest term's rows times every other term's share of the scope's rows), when the
    /// executor estimated them (PostgreSQL); nil otherwise.
    public var expectedMatches: Int?

    /// Facts.
    public init(
        limit: Int, offset: Int, total: Int?, countsMatches: Bool = true, driverRows: Int? = nil, hasAllTermsIndex: Bool = false,
        matchesListed: Bool = false, inListOrder: Bool = false, hasNumericTerm: Bool = false, scopeRows: Int? = nil,
        numberOnlyRows: Int? = nil, expectedMatches: Int? = nil
    ) {
        self.limit = limit
        self.offset = offset
        self.total = total
        self.countsMatches = countsMatches
        self.driverRows = driverRows
        self.hasAllTermsIndex = hasAllTermsIndex
        self.matchesListed = matchesListed
        self.inListOrder = inListOrder
        self.hasNumericTerm = hasNumericTerm
        self.scopeRows = scopeRows
        self.numberOnlyRows = numberOnlyRows
        self.expectedMatches = expectedMatches
    }

    /// Whether a walk of the list index can find the page: its order, and no term matching by number.
    public var walksInListOrder: Bool { inListOrder && !hasNumericTerm }
}
