/// The search's cost model: the named costs and bounds that choose between the executor's
/// strategies, each with the benchmark row that justifies its value (Benchmarks/README.md).
///
/// They change only how fast a search runs, never its result: every strategy gives the same rows,
/// total and order (the differential tests run with extreme values to prove it).
public struct SearchThresholds: Sendable, Hashable {
    /// The rarest term's estimated rows from which its matches are dense: a page in list order is
    /// then found by walking the list index rather than by sorting the driver's rows (W3 3+ chars).
    public var orderedScanThreshold: Int
    /// How many list index entries a walk may read per row of `offset + limit` (W3 1-2 chars).
    public var orderedScanEntriesPerRow: Int
    /// The fewest entries a walk in list order may read, so that small pages of fairly common terms
    /// still walk (W3 `x in`).
    public var orderedScanMinimumBudget: Int
    /// The driver's estimated rows from which a search's condition for other SQL checks every term on
    /// the row rather than reaching the rows through the driver's index (W3 controller, 1-2 chars).
    public var rowCheckThreshold: Int
    /// The rarest term's estimated rows from which short and long terms drive together through both
    /// indexes rather than the rarest alone with the others checked on its rows (W3 `pro pa`, `touch s`).
    public var intersectionThreshold: Int
    /// How many list index entries walked cost as much as one match read by its id and sorted: what
    /// chooses between the two when the scope's rows are counted (browse-bench, W3 `x in`).
    public var entriesPerRowRead: Int

    /// The values the benchmark rows named on each parameter were measured with (1,000,000 products).
    public static let standard = SearchThresholds(
        orderedScanThreshold: 4_000, orderedScanEntriesPerRow: 400, orderedScanMinimumBudget: 10_000,
        rowCheckThreshold: 100_000, intersectionThreshold: 5_000, entriesPerRowRead: 25)

    /// Thresholds; tests pass extreme ones to force each strategy.
    public init(
        orderedScanThreshold: Int, orderedScanEntriesPerRow: Int, orderedScanMinimumBudget: Int, rowCheckThreshold: Int = 100_000,
        intersectionThreshold: Int = 5_000, entriesPerRowRead: Int = 25
    ) {
        self.orderedScanThreshold = orderedScanThreshold
        self.orderedScanEntriesPerRow = orderedScanEntriesPerRow
        self.orderedScanMinimumBudget = orderedScanMinimumBudget
        self.rowCheckThreshold = rowCheckThreshold
        self.intersectionThreshold = intersectionThreshold
        self.entriesPerRowRead = entriesPerRowRead
    }

    /// Whether the first `depth` rows (`offset + limit`) in list order of `matches` rows among the
    /// `scopeRows` rows of their scope are expected to cost less found by walking the list index
    /// (``expectedListWalk(depth:matches:scopeRows:)`` entries) than by reading every match by its id
    /// and sorting them (``rowReadCost(matches:)`` entries).
    func walksListIndex(depth: Int, matches: Int, scopeRows: Int) -> Bool {
        guard let expected = expectedListWalk(depth: depth, matches: matches, scopeRows: scopeRows) else { return false }
        return expected <= rowReadCost(matches: matches)
    }

    /// The entries a walk in list order is expected to read before it finds the first `depth` of
    /// `matches` rows among `scopeRows`: ``listWalkClustering`` × `depth × scopeRows / matches`; nil
    /// when there is no match or the product overflows.
    func expectedListWalk(depth: Int, matches: Int, scopeRows: Int) -> Int? {
        guard matches > 0 else { return nil }
        let (walked, overflow) = depth.multipliedReportingOverflow(by: scopeRows)
        let (clustered, clusteredOverflow) = (walked / matches).multipliedReportingOverflow(by: Self.listWalkClustering)
        return overflow || clusteredOverflow ? nil : clustered
    }

    /// How much farther into the list index than an even spread a page's last match is expected,
    /// names clustering (browse-bench, W3 `touch s`).
    static let listWalkClustering = 3

    /// How many times its expected length a walk in list order reads before the matches are read by
    /// id instead: matches sorting later are skewed, not clustered (browse-bench, seeded file).
    static let listWalkGiveUp = 2

    /// The share (one in this many) of reading the matches by id that a walk in list order may always
    /// read, however short its expected length (browse-bench, seeded file: `st`, `z`, `str`).
    static let listWalkReadShare = 20

    /// The largest share (one in this many) of the matches that may lie outside the range of texts
    /// beginning with the longest term for a page to be read from that range (browse-bench, seeded `mac`).
    static let anchoredOthersShare = 4

    /// SQLite virtual machine instructions per list index entry walked, which turn a walk's budget of
    /// entries into the instruction limit that stops it (an entry failing the first term's check).
    static let listWalkInstructionsPerEntry = 5

    /// What reading `matches` rows by id and sorting them costs, in index entries walked:
    /// `matches` × ``entriesPerRowRead`` (`.max` on overflow).
    func rowReadCost(matches: Int) -> Int {
        let (cost, overflow) = matches.multipliedReportingOverflow(by: entriesPerRowRead)
        return overflow ? .max : cost
    }

    /// The most entries a walk in list order chosen by ``walksListIndex(depth:matches:scopeRows:)``
    /// reads: ``listWalkGiveUp`` times its expected length, ``listWalkReadShare``'s share of
    /// reading the matches by id or ``orderedScanMinimumBudget``, whichever is most, and never more than that read costs
    /// (``rowReadCost(matches:)``), so that a walk that falls short (the matches sort late) and the
    /// read that follows cost at most twice the cheaper of the two, and mostly little more than the
    /// read.
    func listWalkBudget(depth: Int, matches: Int, scopeRows: Int) -> Int {
        let readCost = rowReadCost(matches: matches)
        guard let expected = expectedListWalk(depth: depth, matches: matches, scopeRows: scopeRows) else { return readCost }
        let (giveUp, overflow) = expected.multipliedReportingOverflow(by: Self.listWalkGiveUp)
        return overflow ? readCost : min(max(giveUp, readCost / Self.listWalkReadShare, orderedScanMinimumBudget), readCost)
    }

    /// How many index entries a walk in list order may read for a page of `limit` rows after `offset`.
    func orderedScanBudget(limit: Int, offset: Int) -> Int {
        let (product, overflow) = (limit + offset).multipliedReportingOverflow(by: orderedScanEntriesPerRow)
        return overflow ? .max : max(product, orderedScanMinimumBudget)
    }

    /// The driver's estimated rows up to which a page and its total are read in one pass over the
    /// driver's rows, and up to which matches that sort late are sorted rather than walked (W3 Japanese).
    public static let onePassLimit = 60_000

    /// The most matches whose sections a fetched-results controller reads whole, each as one page,
    /// when the search counted its sections (W3 controller rows).
    public static let wholeSectionsLimit = 1_000

    /// Whether a controller whose sections the search counted (`total` matches, with their ids when
    /// counting read them: `idsRead`) reads only its first batch (`batchSize` rows) in its fetch,
    /// rather than each section whole: above ``wholeSectionsLimit`` matches, or, when the ids were
    /// read, above one batch (a page of known ids searches nothing, so reading the other sections
    /// whole would only add their rows).
    public func readsFirstBatchOnly(total: Int, idsRead: Bool, batchSize: Int) -> Bool {
        total > (idsRead ? min(batchSize, Self.wholeSectionsLimit) : Self.wholeSectionsLimit)
    }

    /// How far a long term of a search of several terms is counted in the trigram index to choose the
    /// driver; past it, its rarest 2-scalar gram's count bounds it (W3 3+ chars).
    static let driverCountLimit = 100_000

    /// The fewest doclist entries, in the scope value where the first term is most common, from which
    /// that value's count comes from the gram bits instead (W3 `3 a`).
    static let gramBitsCountMinimumEntries = 100_000

    /// The most match ids read into a list whose rows are then read by id: below the 32,766 bound
    /// values SQLite allows a statement (`SQLITE_MAX_VARIABLE_NUMBER`).
    static let idListLimit = 30_000

    /// The most rows a numeric term may find by its number alone for its page to be read as its text
    /// matches plus those rows (W3 numbers).
    static let numericTermNumberLimit = 1_000

    /// The deepest page (`offset + limit`) read that way.
    static let numericTermDepthLimit = 10_000
}
