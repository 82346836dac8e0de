/// The numbers that choose between the executor's strategies, each with where its value comes from.
///
/// They change only how fast a search runs, never its result: every strategy gives the same rows,
/// total and order (the differential tests run with extreme values to prove it).
public struct SearchThresholds: Sendable, Hashable {
    /// The estimated rows of the rarest term from which a page in list order is looked for by walking
    /// the list index, and a common term's total is counted in the trigram index. Below it, sorting
    /// the driver's rows (one table lookup each) is cheaper than walking about
    /// `limit × rows / matches` index entries; measured on 1,000,000 products, the two meet between
    /// 2,000 and 5,000 rows: 4,000. (When the rows of the scope are counted and the number of
    /// matches is known, ``entriesPerRowRead`` chooses instead, from both expected costs.)
    public var orderedScanThreshold: Int
    /// How many index entries a walk in list order may read per row of `offset + limit`: 400, enough
    /// for matches spread evenly among 1,000,000 products at ``orderedScanThreshold``'s density
    /// (1 in 250), with room; clustered matches fall back to the driver's rows.
    public var orderedScanEntriesPerRow: Int
    /// The least a walk in list order may read: 10,000 entries (a few milliseconds), so small pages
    /// of moderately common terms still walk. A walk chosen from the scope's counted rows
    /// (`walksListIndex(depth:matches:scopeRows:)`) may read as many too, up to the read by id's
    /// cost: on a `catalog seed --count 1000000` database the first match of `x in` within Desktop
    /// (1,827 matches) is its 3,012th entry, 16 times deeper than an even spread and past both twice
    /// the expected walk (1,096) and a twentieth of the read (2,283), and walking to it takes about a
    /// millisecond where reading the matches by id and sorting them took 10 ms.
    public var orderedScanMinimumBudget: Int

    /// The driver's estimated rows from which a search's condition for other SQL
    /// (``SearchDescription/condition(for:scope:alias:_:)``) checks every term on the row instead of
    /// reaching the rows through the driver's index: 100,000. SQLite reads the driver's rows into a
    /// list before the first row (a page of 50 waits for all of it), at about 1-2 µs of CPU per
    /// matching row; checking the terms on a row as an index is walked costs about 0.1-0.2 µs per row,
    /// and the walk stops at a page. Measured on 1,000,000 products with the suffix index this
    /// module had before the grams index (CPU time, cold cache): `pa` (49,000 rows) counted by type
    /// through its suffix range 0.06 s, `a` (618,000) 1.35 s, every row checked with `instr`
    /// 0.10-0.19 s; they meet near 100,000. Not measured again with the grams index.
    public var rowCheckThreshold: Int

    /// The estimated rows of the rarest term of a search mixing terms of 1-2 scalars with longer ones
    /// (none a number) from which all its terms drive together through both indexes (the short terms
    /// and each long term's rarest 2-scalar gram in the grams index, intersected with the long terms'
    /// phrases in the trigram index: ``SearchPlan/Driver/gramsAndFullText(short:long:narrowing:)``),
    /// rather than the rarest term alone with the others checked on each of its rows. The
    /// intersection reads doclists (milliseconds whatever the result: 3-10 ms for `zoe sl`, `touch s`,
    /// `pro pa` on 1,000,000 products, each long term in about 18,000 rows; 15-20 ms for `strasse c`,
    /// `c` being in 431,191 names; sqlite3, load average 2), a row check about 0.9 µs per driver row
    /// (16 ms for 18,000), and for a rare driver (`graphite g`, 300 rows) the row check wins (under
    /// 4 ms against 9): they meet near 5,000 rows. A controller's counts of such a search
    /// (``SearchDescription/matchesPerScope(_:_:)``) use it on exact rows instead: a short term in
    /// fewer rows (its gram count) drives; long terms in fewer rows (their rowids, read from the
    /// trigram index) are each read by id and checked, about 2.0-2.8 µs a row (C against
    /// libsqlite3, 1,000,000 products, a fresh connection: 5,000 rows of `uber` checked for `c` in
    /// 13-14 ms), where merging them with the grams index's rows of `c` and `ub` read 29,243 rows in
    /// 7.4-7.6 ms: for so common a short term the two meet nearer 3,000 rows (the value is kept,
    /// not measured for other short terms); in more, they are merged.
    public var intersectionThreshold: Int

    /// How many entries of the list index walked in order (``SearchDescription/listIndex``, its own
    /// text checked by `instr`) cost as much as one match read by its id and sorted: 25. It chooses,
    /// when the rows of the scope are counted (`SectionCounts`), how a page in list order of a
    /// known number of matches is read (`walksListIndex(depth:matches:scopeRows:)`), and bounds
    /// such a walk (`listWalkBudget(depth:matches:scopeRows:)`). Measured on 1,000,000 products with `catalog`'s
    /// SQL trace (16 MiB page cache, the rows a search reads not in it): walks of 17,283-20,000
    /// entries of one type took 0.23-0.31 µs per entry (`touch s`, `mac`); the 2,469 matches of
    /// `touch s` and the 3,500 of `x in` within that type read by id and sorted took 5.7 and 7.8 µs
    /// per match. (With those rows already in SQLite's cache, as when one query is repeated, a
    /// match costs 1.1-1.5 µs, about 7 entries: a walk that falls short then costs up to about 3.5
    /// times the read that follows it.)
    public var entriesPerRowRead: Int

    /// The values measured on the benchmark's 1,000,000 products.
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

    /// How much farther into the list index than an even spread of the matches a page's last match
    /// is expected, names clustering: 3. Measured within one type of 1,000,000 products, the 50th
    /// match of `touch s` is its 17,968th entry, 2.7 times the 6,747 of an even spread; `x in` 2.8,
    /// `core m` 2.7, `panel g` 2.0, `charger` 1.3; Japanese names sort after every Latin one
    /// (`炊飯器 g`: none in the first 24,375 entries).
    static let listWalkClustering = 3

    /// How many times its expected length (``expectedListWalk(depth:matches:scopeRows:)``) a walk in
    /// list order reads before it gives up and the matches are read by id: 2, room for twice the
    /// clustering measured on the benchmark's names. Matches that sort far later than that are
    /// skewed, not clustered: on a `catalog seed --count 1000000` database, whose names repeat
    /// the seed's words, `東`, `ｶ`, `zenit` and `straße` within one type have 8,000-8,500 matches in
    /// list-index order after 205,000-210,000 entries; walking that far took 49-167 ms before the read
    /// by id (25-60 ms) that followed, when the walk was bounded by the read's cost alone.
    static let listWalkGiveUp = 2

    /// What share of reading the matches by id (``rowReadCost(matches:)``) a walk in list order may
    /// always read, however short its expected length: one twentieth (1.25 entries a match at 25).
    /// Many matches make a long read, and their page may lie far deeper than ``listWalkGiveUp`` times
    /// the expected walk while a walk there costs little next to the read: on a `catalog seed
    /// --count 1000000` database, within one type (333,784 rows), the 50th match of `st` (32,460
    /// matches) is its 6,352nd entry, of `z` (24,626) its 7,622nd, of `str` (16,600) its 16,822nd,
    /// 11-17 times an even spread (past the 3,084-6,030 entries of twice the expected walk), while
    /// reading them by id and sorting took 44-62 ms (browse-bench, 07:05, load average 1) and walking
    /// to them takes 2-5 ms. A walk that still falls short (matches that sort at the end) then adds at
    /// most a twentieth of the read's modelled cost, a fifth to a third of it when the rows are in
    /// SQLite's cache (0.23-0.31 µs per entry against 1.1-1.5 µs per match), or, when that is less,
    /// ``orderedScanMinimumBudget``'s 10,000 entries (2-3 ms, never more than the read); the skewed terms of
    /// about 8,300 matches there (`東`, `ｶ`, `zenit`, `mac`: their 50th match past the 125,000th
    /// entry) keep twice their expected walk, about 12,000 entries, which is more.
    static let listWalkReadShare = 20

    /// What share of the matches, at most, may lie outside the range of the list index whose texts
    /// begin with a long term (the anchor) for a page to be read from that range and those few
    /// others (`anchoredIDsInListOrder(_:scope:wanted:offset:matches:budget:_:)`), once a walk from
    /// the start of the scope fell short: one quarter. The others are read by id (as every match
    /// would be otherwise), so the page costs at most about a quarter of that read, plus a count of
    /// the range on the list index (whose texts all hold the anchor), its first rows, and, when some
    /// matches lie outside it, one query of the trigram index for them (`("mac") NOT ^"mac"`, about
    /// 1.5 ms for 8,490 rows, warm). Chosen, not measured at the edge: the skew it is for
    /// (a common word that begins the names holding it) leaves no others at all (`mac`, 8,490 matches
    /// in a type of a `catalog seed --count 1000000` database, all beginning with it), and the
    /// benchmark's names, where `mac` is inside many names (4,146 of 6,196 within a type), find their
    /// page by the walk first.
    static let anchoredOthersShare = 4

    /// How many SQLite virtual machine instructions a walk in list order
    /// (`idsInListOrder(_:scope:wanted:offset:budget:_:)`) runs per entry, to turn its budget of
    /// entries into the instruction limit that stops it: 5, an entry whose text fails the first
    /// term's check (`IdxGT`, `Column`, `Function`, `Le`, `Next` in its `EXPLAIN`); measured, 128,469
    /// instructions for the 25,443 entries of one type up to the 50th match of `core m` (5.05).
    /// Entries that pass a check cost 3 more per further term, so a walk whose first term is common
    /// stops after fewer entries: a bound on its work, as the budget is.
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

    /// The driver's estimated rows up to which, when the total needs every driver row checked, the
    /// page and the total are read in one pass over them (a window function), rather than a count
    /// then a walk in list order that may fall back to a second pass: 60,000, where on 1,000,000
    /// products one pass (about 30 ms) still beats a count plus a walk.
    static let onePassLimit = 60_000

    /// The most matches whose sections a fetched-results controller reads whole, each as one page,
    /// when the search counted its sections: 1,000, which cost about what planning one page does and
    /// ready the result for tracking (browse-bench rows). Above it, the first batch alone is read.
    public static let wholeSectionsLimit = 1_000

    /// Whether a controller whose sections the search counted (`total` matches, with their ids when
    /// counting read them: `idsRead`) reads only its first batch (`batchSize` rows) in its fetch,
    /// rather than each section whole: above ``wholeSectionsLimit`` matches, or, when the ids were
    /// read, above one batch (a page of known ids searches nothing, so reading the other sections
    /// whole would only add their rows).
    public func readsFirstBatchOnly(total: Int, idsRead: Bool, batchSize: Int) -> Bool {
        total > (idsRead ? min(batchSize, Self.wholeSectionsLimit) : Self.wholeSectionsLimit)
    }

    /// How many rows of the trigram index a long term of a search of several terms is counted up to,
    /// to choose the driver: past 100,000 rows a term is common whichever it is, and its 2-gram bound decides.
    static let driverCountLimit = 100_000


    /// How many entries the grams index's doclists of the terms hold within the scope value where the
    /// first term is most common, at least, for that value's count to be found from
    /// ``SearchDescription/gramBitsTable`` instead (`gramBitsCountsPerScope(_:minimumEntries:_:)`): 100,000.
    /// The count reads those doclists, about 30 ns an entry (`3` and `a` within one type of a `catalog
    /// seed --count 1000000` database: 337,000 entries, 9.6 ms of CPU in `sqlite3`), where each
    /// term's bits are 3,907 rows on 1,000,000 rows, read in about 1 ms: at 100,000 entries (3 ms) two
    /// terms' bits cost less than the count they replace.
    static let gramBitsCountMinimumEntries = 100_000

    /// The most ids of matches read into a list whose rows are then read by id: 30,000, below the
    /// 32,766 bound values SQLite allows a statement by default (`SQLITE_MAX_VARIABLE_NUMBER`).
    static let idListLimit = 30_000

    /// The most rows a numeric term may find by its numbers alone (not in the text) for its page to be
    /// read as its text matches plus those rows: 1,000 (an id list that SQLite reads in well under a
    /// millisecond).
    static let numericTermNumberLimit = 1_000

    /// The deepest page (`offset + limit`) read that way: 10,000 rows of text matches at most.
    static let numericTermDepthLimit = 10_000
}
