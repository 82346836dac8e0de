import SQLiteStore

/// One page request being read: the plan, the page asked for, and the conditions the strategies read
/// through. ``run(_:_:decode:)`` reads it as a ``PageStrategy`` says, each strategy in a file of its own.
struct PageRead {
    let description: SearchDescription
    let plan: SearchPlan
    let scope: DatabaseValue?
    let order: SearchOrder
    let limit: Int
    let offset: Int
    /// The matches, when known or counted from an index.
    let total: Int?
    /// The condition of one index query of all terms, when there is one.
    let allTerms: SQLFragment?
    /// The condition of the matches with every term in their text and the few that hold a number only
    /// as a number column's value, when it was read.
    let numeric: SQLFragment?
    /// The columns read for each record.
    let selection: String

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
    /// order only where ``PageFacts/walksInListOrder``, the numeric read only with its condition.
    func feasible(_ strategy: PageStrategy, _ facts: PageFacts) -> PageStrategy {
        switch strategy {
        case .walkListIndex(_, let fallback) where !facts.walksInListOrder: feasible(fallback, facts)
        case .walkListIndex(let budget, let fallback): .walkListIndex(budget: budget, fallback: feasible(fallback, facts))
        case .readMatches(.numeric) where numeric == nil: .readMatches(.sorted)
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

    /// The matches through one index of all terms when there is one, else through the driver's, the
    /// scope checked on each row found (`+scope = ?`).
    var matchesCondition: SQLFragment {
        description.scoped(allTerms ?? plan.condition(alias: description.table), scope: scope, alias: description.table, checkedOnRows: true)
    }
}
