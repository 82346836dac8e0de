import SQLiteStore

/// One page request being read: what the planner needs to know of it (``facts``), read in one step
/// before any strategy is chosen, and the conditions the strategies read through. ``run(_:_:decode:)``
/// reads it as a ``PageStrategy`` says, each strategy in a file of its own.
struct PageRead {
    let description: SearchDescription
    let plan: SearchPlan
    let scope: DatabaseValue?
    let order: SearchOrder
    let limit: Int
    let offset: Int
    /// The matches, when known or counted from an index; nil on a page that does not count them
    /// (whose `SearchPage/totalCount` is then 0, and not read).
    var total: Int?
    /// Whether the page's total is read: false for a row shown without its result's counts.
    let countsMatches: Bool
    /// The matches' ids, when the caller gave them or counting read them.
    let matchIDs: [Int64]?
    /// With numeric terms, the plan of the terms matched by their text alone and the ids of the few
    /// rows (within the scope) that hold a numeric term only as a number, when they were listed.
    let numberOnly: (textPlan: SearchPlan, ids: [Int64])?
    /// The rows of the scope, when a walk in list order can be costed against reading the matches.
    let scopeRows: Int?
    /// The columns read for each record.
    let selection: String
    /// The cost model the page is planned with.
    let costs: SearchCosts

    /// Reads what the planner needs for a page of `query` within `scope` (the terms' estimates, the
    /// total when an index gives it, the scope's rows, the few number-only rows): the one step of a
    /// page that reads statistics.
    ///
    /// - A caller's `matchIDs` are the matches; terms of both lengths driving together through both
    ///   indexes read theirs while counting them (at most ``SearchCosts/idListLimit``); a page that
    ///   counts nothing (`countsMatches` false) lists its scope's matches from the search indexes
    ///   when they are at most ``SearchCosts/fewRows``.
    /// - One numeric term (or several, the total known): the rows that hold one only as a number, when
    ///   at most ``SearchCosts/fewRows`` per term, and the total as the text matches' plus theirs.
    init(
        _ description: SearchDescription, query: SearchQuery, scope: DatabaseValue?, order: SearchOrder, limit: Int,
        offset: Int, totalCount: Int?, matchIDs givenIDs: [Int64]?, selection: String, costs: SearchCosts,
        countsMatches: Bool, _ db: Database
    ) throws {
        self.countsMatches = countsMatches
        self.description = description
        self.scope = scope
        self.order = order
        self.limit = limit
        self.offset = offset
        self.selection = selection
        self.costs = costs
        var matchIDs = givenIDs
        var total = givenIDs?.count ?? totalCount
        let plan = try givenIDs.map { description.knownMatchesPlan(query, scope: scope, matches: $0.count, costs: costs) }
            ?? description.plan(query, scope: scope, costs: costs, totalCount: total, db)
        // A page that counts nothing lists its scope's matches when they are few (the first
        // ``SearchCosts/fewRows`` + 1 the search indexes give, from both when the plan drives through
        // both, reading no table row): it is then read from them.
        if !countsMatches, matchIDs == nil, let scope, costs.fewRows < Int.max {
            let listed = try description.exactIntersectionIDs(plan, scope: scope, limit: costs.fewRows + 1, db)
                ?? description.indexedMatchIDs(plan, scope: scope, limit: costs.fewRows + 1, db)
            if let listed, listed.count <= costs.fewRows { (matchIDs, total) = (listed, listed.count) }
        }
        if countsMatches, total == nil,
           let ids = try description.exactIntersectionIDs(plan, scope: scope, limit: SearchCosts.idListLimit + 1, db),
           ids.count <= SearchCosts.idListLimit {
            (matchIDs, total) = (ids, ids.count)
        }
        var numberOnly: (textPlan: SearchPlan, ids: [Int64])?
        let (depth, overflow) = offset.addingReportingOverflow(limit)
        if countsMatches, matchIDs == nil, limit > 0, !overflow, depth <= SearchCosts.idListLimit - costs.fewRows,
           plan.terms.contains(where: plan.isNumeric), !plan.matchesNothing {
            if plan.terms.count == 1, let ids = try description.numberOnlyIDs(plan.terms[0], scope: scope, limit: costs.fewRows, db) {
                let textPlan = try description.plan(query, scope: scope, costs: costs, matchesNumbers: false, db)
                if total == nil { total = try description.count(textPlan, scope: scope, db) + ids.count }
                numberOnly = (textPlan, ids)
            } else if plan.terms.count > 1, total != nil,
                      let ids = try description.numberOnlyIDs(ofNumericTermsIn: plan, scope: scope, limit: costs.fewRows, db) {
                numberOnly = (SearchPlan(query, description, matchesNumbers: false, scope: scope), ids)
            }
        }
        if countsMatches, total == nil { total = try description.indexedCount(plan, scope: scope, db) }
        self.plan = plan
        self.total = total
        self.matchIDs = matchIDs
        self.numberOnly = numberOnly
        let costsListWalk = total != nil && order.isListIndexOrder && description.listIndex != nil
            && description.textColumns.count == 1 && plan.driver != nil
            && (numberOnly != nil || !plan.terms.contains(where: plan.isNumeric))
        scopeRows = costsListWalk ? try description.rowCount(scope: scope, db) : nil
    }

    /// The condition of one index query of all terms (or of the listed matches' ids), when there is
    /// one: built only when a strategy reads it (a list of thousands of ids costs more to bind than
    /// a walk that finds the page).
    var allTerms: SQLFragment? {
        if let matchIDs {
            let list = SQLFragment.list(matchIDs)
            return SQLFragment(sql: "\(description.table).\(description.idColumn) IN \(list.sql)", arguments: list.arguments)
        }
        return plan.terms.count > 1 ? plan.allTermsCondition(alias: description.table) : nil
    }

    /// Whether ``allTerms`` is one index query of all terms (or the listed matches' ids).
    var hasAllTerms: Bool { matchIDs != nil || plan.terms.count > 1 && plan.allTermsCondition(alias: description.table) != nil }

    /// What the planner knows of this page: plain values.
    var facts: PageFacts {
        PageFacts(
            limit: limit, offset: offset, total: total, countsMatches: countsMatches, driverRows: plan.driverEstimate, hasAllTermsIndex: hasAllTerms,
            matchesListed: matchIDs != nil, inListOrder: order.isListIndexOrder, hasNumericTerm: plan.terms.contains(where: plan.isNumeric),
            scopeRows: scopeRows, numberOnlyRows: numberOnly?.ids.count)
    }

    /// The page read as `strategy` says.
    func run<Entity>(_ strategy: PageStrategy, _ db: Database, decode: (Row) throws -> Entity) throws -> SearchPage<Entity> {
        switch strategy {
        case .scan(let onePass): try scan(onePass: onePass, db, decode: decode)
        case .readMatches(let read): try readMatches(read, db, decode: decode)
        case .walkListIndex(let budget, let fallback):
            try walkListIndex(budget: budget, db, decode: decode) ?? run(fallback, db, decode: decode)
        case .walkOrderIndex: try walkOrderIndex(db, decode: decode)
        }
    }

    /// `strategy` where it reads this page exactly, else the nearest one that does: a walk in list
    /// order only where ``PageFacts/walksInListOrder``, the number-only rows only where they were
    /// listed (their text walk only in list order).
    func feasible(_ strategy: PageStrategy) -> PageStrategy {
        switch strategy {
        case .walkListIndex(_, let fallback) where !facts.walksInListOrder: feasible(fallback)
        case .walkListIndex(let budget, let fallback): .walkListIndex(budget: budget, fallback: feasible(fallback))
        case .readMatches(.addingNumberOnlyRows) where numberOnly == nil: .readMatches(.sorted)
        case .readMatches(.addingNumberOnlyRows(textWalk: _?)) where !order.isListIndexOrder: .readMatches(.addingNumberOnlyRows(textWalk: nil))
        default: strategy
        }
    }

    /// The rows that meet `condition`, in the page's order, the page's `LIMIT` and `OFFSET`; with
    /// `byID`, each row read by its id (`NOT INDEXED`).
    func rows<Entity>(_ condition: SQLFragment, byID: Bool = false, _ db: Database, decode: (Row) throws -> Entity) throws -> [Entity] {
        try description.rows(
            condition, byID: byID, order: order, limit: limit, offset: offset, selection: selection, db, decode: decode)
    }

    /// The plan's condition within the scope (the driver's index, the scope checked as SQLite chooses).
    var condition: SQLFragment {
        description.scoped(plan.condition(alias: description.table), scope: scope, alias: description.table)
    }

    /// The matches through one index of all terms (or their listed ids) when there is one, else
    /// through the driver's, the scope checked on each row found (`+scope = ?`).
    var matchesCondition: SQLFragment {
        description.scoped(allTerms ?? plan.condition(alias: description.table), scope: scope, alias: description.table, checkedOnRows: true)
    }
}
