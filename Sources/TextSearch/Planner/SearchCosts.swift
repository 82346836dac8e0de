/// The search's cost model: five named parameters that choose between the planner's strategies, each
/// with the benchmark row that justifies its value (Benchmarks/README.md, catalog-bench W3 at 1,000,000
/// products).
///
/// They change only how fast a search runs, never its result: every strategy gives the same rows,
/// total and order (the differential tests run with extreme values to prove it).
public struct SearchCosts: Sendable, Hashable {
    /// The rows from which a term's matches are dense: a page in list order is then found by walking
    /// the list index rather than by sorting them, and terms of both lengths are counted and driven
    /// together through both indexes rather than by the rarest alone (W3 3+ chars, `pro pa`, `touch s`).
    public var denseRows: Int
    /// The rows from which a term is common: its index's doclist costs more than checking every term
    /// on the rows an index in the page's order yields, a long term is bounded by its rarest 2-scalar
    /// gram rather than counted further, and several 1-scalar grams are counted by their bits (W3
    /// controller 1-2 chars, `3 a`).
    public var commonRows: Int
    /// The driver's rows up to which a page and its total are read in one pass over them, and up to
    /// which matches that sort late in list order are sorted rather than walked (W3 Japanese).
    public var onePassRows: Int
    /// How many list index entries walked cost as much as one match read by its id and sorted: what
    /// chooses between walking the list index and reading the matches (W3 `x in`, W3 whole process `mac`).
    public var entriesPerRowRead: Int
    /// The rows few enough to list by id and read one by one: the rows a numeric term finds by its
    /// number alone, the matches outside the range a walk from a term's first scalars finds, and the
    /// matches a controller reads section by section whole (W3 `2 le`, W3 controller rows).
    public var fewRows: Int

    /// The values the benchmark rows named on each parameter were measured with.
    public static let standard = SearchCosts(
        denseRows: 5_000, commonRows: 100_000, onePassRows: 60_000, entriesPerRowRead: 25, fewRows: 1_000)

    /// A cost model; tests pass extreme values to force each strategy.
    public init(denseRows: Int, commonRows: Int, onePassRows: Int, entriesPerRowRead: Int, fewRows: Int) {
        self.denseRows = denseRows
        self.commonRows = commonRows
        self.onePassRows = onePassRows
        self.entriesPerRowRead = entriesPerRowRead
        self.fewRows = fewRows
    }

    /// Whether a driver of `rows` estimated rows is dense (``denseRows``).
    func isDense(_ rows: Int?) -> Bool { rows.map { $0 >= denseRows } ?? false }

    /// What reading `matches` rows by id and sorting them costs, in list index entries walked:
    /// `matches` × ``entriesPerRowRead`` (`.max` on overflow).
    func rowReadCost(matches: Int) -> Int {
        let (cost, overflow) = matches.multipliedReportingOverflow(by: entriesPerRowRead)
        return overflow ? .max : cost
    }

    /// The entries a walk in list order is expected to read before it finds the first `depth` of
    /// `matches` rows among `scopeRows`: 3 × `depth × scopeRows / matches`, the matches clustering
    /// rather than spreading evenly; nil when there is no match or the product overflows.
    func expectedListWalk(depth: Int, matches: Int, scopeRows: Int) -> Int? {
        guard matches > 0 else { return nil }
        let (walked, overflow) = depth.multipliedReportingOverflow(by: scopeRows)
        let (clustered, clusteredOverflow) = (walked / matches).multipliedReportingOverflow(by: 3)
        return overflow || clusteredOverflow ? nil : clustered
    }

    /// Whether the first `depth` rows in list order of `matches` among `scopeRows` are expected to
    /// cost less found by walking the list index than by reading every match by id and sorting them.
    func walksListIndex(depth: Int, matches: Int, scopeRows: Int) -> Bool {
        guard let expected = expectedListWalk(depth: depth, matches: matches, scopeRows: scopeRows) else { return false }
        return expected <= rowReadCost(matches: matches)
    }

    /// The most entries a walk in list order chosen by ``walksListIndex(depth:matches:scopeRows:)``
    /// reads: twice its expected length, or a twentieth of reading the matches by id (of reading
    /// ``denseRows`` when they are fewer, so that a small page of fairly common terms still walks)
    /// when that is more, never more than the read itself; so a walk that falls short (the matches
    /// sort late) and the read that follows cost at most twice the cheaper of the two.
    func listWalkBudget(depth: Int, matches: Int, scopeRows: Int) -> Int {
        let readCost = rowReadCost(matches: matches)
        guard let expected = expectedListWalk(depth: depth, matches: matches, scopeRows: scopeRows) else { return readCost }
        let (twice, overflow) = expected.multipliedReportingOverflow(by: 2)
        let share = max(readCost, rowReadCost(matches: denseRows)) / 20
        return overflow ? readCost : min(max(twice, share), readCost)
    }

    /// The most entries a walk in list order reads when the scope's rows are not counted: what
    /// reading ``denseRows`` matches by id costs, the least a read of dense matches costs.
    var uncountedWalkBudget: Int { rowReadCost(matches: denseRows) }

    /// Whether a controller whose sections the search counted (`total` matches, with their ids when
    /// counting read them: `idsRead`) reads only its first batch (`batchSize` rows) in its fetch,
    /// rather than each section whole: above ``fewRows`` matches, or, when the ids were read, above
    /// one batch (a page of known ids searches nothing, so reading the other sections whole would
    /// only add their rows).
    public func readsFirstBatchOnly(total: Int, idsRead: Bool, batchSize: Int) -> Bool {
        total > (idsRead ? min(batchSize, fewRows) : fewRows)
    }

    /// The most match ids read into a list whose rows are then read by id: below the 32,766 bound
    /// values SQLite allows a statement (`SQLITE_MAX_VARIABLE_NUMBER`). A bound, not a cost.
    static let idListLimit = 30_000

    /// SQLite virtual machine instructions per list index entry walked, which turn a walk's budget of
    /// entries into the instruction limit that stops it (an entry failing the first term's check). A
    /// fact of SQLite's bytecode, not a cost.
    static let listWalkInstructionsPerEntry = 5
}
