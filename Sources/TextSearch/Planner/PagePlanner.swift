/// The choice of a page's strategy: a pure function of what is known of the request (``PageFacts``)
/// and the cost model (``SearchThresholds``), unit-tested as a table.
public enum PagePlanner {
    /// The strategy for a page of a search whose facts are `facts`.
    ///
    /// In order: without a total, ``PageStrategy/scan(onePass:)``; a numeric condition read,
    /// ``PageStrategy/readMatches(_:)`` of it; when the scope's rows are counted and the order is the
    /// list index's, the cheaper by expected cost of walking the list index and reading the matches
    /// by id; else few matches (below ``SearchThresholds/orderedScanThreshold``) are read by id (with
    /// an index of all terms), dense ones walked in list order or in the order's index, and the rest
    /// sorted.
    public static func strategy(for facts: PageFacts, costs: SearchThresholds) -> PageStrategy {
        guard let total = facts.total else {
            let onePass = (!facts.isDense || facts.driverEstimate.map { $0 <= SearchThresholds.onePassLimit } == true) && facts.limit > 0
            return .scan(onePass: onePass)
        }
        if facts.hasNumericCondition { return .readMatches(.numeric) }
        // By expected costs, when the scope's rows are counted.
        var walkBudget: Int?
        var readsByID = false
        if facts.walksInListOrder, let scopeRows = facts.scopeRows {
            let depth = facts.offset.addingReportingOverflow(facts.limit)
            if !depth.overflow, costs.walksListIndex(depth: depth.partialValue, matches: total, scopeRows: scopeRows) {
                walkBudget = costs.listWalkBudget(depth: depth.partialValue, matches: total, scopeRows: scopeRows)
            } else {
                readsByID = true
            }
        } else if facts.hasAllTermsIndex && total <= costs.orderedScanThreshold {
            readsByID = true
        } else if facts.isDense && facts.walksInListOrder {
            walkBudget = costs.orderedScanBudget(limit: facts.limit, offset: facts.offset)
        }
        if readsByID { return .readMatches(.byID) }
        let afterWalk: PageStrategy = facts.isDense ? .walkOrderIndex : .readMatches(.sorted)
        if let walkBudget {
            // Matches that sort late: sorting up to a one pass's rows beats walking on.
            return .walkListIndex(budget: walkBudget, fallback: total <= SearchThresholds.onePassLimit ? .readMatches(.sorted) : afterWalk)
        }
        return afterWalk
    }
}
