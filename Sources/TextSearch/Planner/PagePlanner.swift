/// The choice of a page's strategy: a pure function of what is known of the request (``PageFacts``)
/// and the cost model (``SearchCosts``), unit-tested as a table.
public enum PagePlanner {
    /// The strategy for a page of a search whose facts are `facts`.
    ///
    /// In order: not counting the matches (``PageFacts/countsMatches``), dense matches in list order
    /// walked for `SearchCosts.uncountedWalkBudget` entries, else (and after that walk) the
    /// matches sorted; without a total, ``PageStrategy/scan(onePass:)`` (one pass unless the driver has
    /// more than ``SearchCosts/onePassRows``, or dense matches are expected in list order); with listed number-only rows,
    /// ``PageStrategy/MatchRead/addingNumberOnlyRows(textWalk:)``; in list order with the scope's rows
    /// counted, the cheaper by expected cost of walking the list index and reading the matches by id;
    /// else listed matches, or few (``SearchCosts/denseRows``) of an index of all terms, read by id,
    /// dense ones walked in list order or in the order's index, and the rest sorted.
    public static func strategy(for facts: PageFacts, costs: SearchCosts) -> PageStrategy {
        guard let total = facts.total else {
            if !facts.countsMatches {
                guard facts.walksInListOrder, costs.isDense(facts.driverRows) else { return .readMatches(.sorted) }
                return .walkListIndex(budget: costs.uncountedWalkBudget, fallback: .readMatches(.sorted))
            }
            // Dense matches expected in list order: counted alone, the page then walked, rather than
            // every match read and sorted for the page (W3 on PostgreSQL: `studio e`).
            let walksAfterCounting = facts.walksInListOrder && costs.isDense(facts.expectedMatches)
            return .scan(onePass: facts.limit > 0 && !walksAfterCounting && facts.driverRows.map { $0 <= costs.onePassRows } ?? true)
        }
        let isDense = costs.isDense(facts.driverRows)
        let depth = facts.offset.addingReportingOverflow(facts.limit)
        if let numberOnlyRows = facts.numberOnlyRows {
            // The text matches' first rows, walked in list order when that is expected to cost less.
            let textMatches = max(0, total - numberOnlyRows)
            let textWalk = facts.inListOrder && !depth.overflow ? walkBudget(
                depth: depth.partialValue, matches: textMatches, scopeRows: facts.scopeRows, isDense: isDense, costs: costs) : nil
            return .readMatches(.addingNumberOnlyRows(textWalk: textWalk))
        }
        let readsByID = facts.matchesListed || facts.hasAllTermsIndex && total <= costs.denseRows
        var budget: Int?
        if facts.walksInListOrder, !depth.overflow, facts.scopeRows != nil || !readsByID {
            budget = walkBudget(depth: depth.partialValue, matches: total, scopeRows: facts.scopeRows, isDense: isDense, costs: costs)
            if budget == nil, facts.scopeRows != nil { return .readMatches(.byID) }
        }
        let afterWalk: PageStrategy = readsByID ? .readMatches(.byID) : isDense ? .walkOrderIndex : .readMatches(.sorted)
        guard let budget else { return afterWalk }
        // Matches that sort late: reading up to a one pass's rows beats walking on.
        let fallback: PageStrategy = readsByID || total > costs.onePassRows ? afterWalk : .readMatches(.sorted)
        return .walkListIndex(budget: budget, fallback: fallback)
    }

    /// The strategy for the page of a ``PageStrategy/scan(onePass:)`` that counted `total` matches
    /// first (PostgreSQL): planned again with the total known, the driver's rows no more than it, so
    /// that a dense driver with few matches has them read and sorted, never an index walked for them.
    public static func strategy(afterCounting total: Int, _ facts: PageFacts, costs: SearchCosts) -> PageStrategy {
        var counted = facts
        counted.total = total
        counted.driverRows = min(facts.driverRows ?? total, total)
        return strategy(for: counted, costs: costs)
    }

    /// The most entries a walk in list order reads for the first `depth` of `matches` rows, or nil
    /// when reading the matches is expected to cost less: with the scope's rows counted, by expected
    /// costs; without, dense matches only, for `SearchCosts.uncountedWalkBudget`.
    static func walkBudget(depth: Int, matches: Int, scopeRows: Int?, isDense: Bool, costs: SearchCosts) -> Int? {
        guard let scopeRows else { return isDense ? costs.uncountedWalkBudget : nil }
        guard costs.walksListIndex(depth: depth, matches: matches, scopeRows: scopeRows) else { return nil }
        return costs.listWalkBudget(depth: depth, matches: matches, scopeRows: scopeRows)
    }
}
