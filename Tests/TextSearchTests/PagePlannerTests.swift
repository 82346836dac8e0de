import Testing

@testable import TextSearch

/// The page planner as a table: facts in, strategy out, no database. Each row says why.
struct PagePlannerTests {
    struct Row: CustomTestStringConvertible, Sendable {
        var why: String
        var facts: PageFacts
        var strategy: PageStrategy
        var testDescription: String { why }
    }

    static let costs = SearchThresholds.standard
    static let walk50 = costs.orderedScanBudget(limit: 50, offset: 0)

    static let rows: [Row] = [
        Row(why: "no index counts the matches; a rare driver: one pass",
            facts: PageFacts(limit: 50, offset: 0, total: nil, isDense: false, driverEstimate: 300),
            strategy: .scan(onePass: true)),
        Row(why: "no index counts; a dense driver past the one-pass limit: count, then the page",
            facts: PageFacts(limit: 50, offset: 0, total: nil, isDense: true, driverEstimate: 500_000),
            strategy: .scan(onePass: false)),
        Row(why: "no index counts; a count only (limit 0)",
            facts: PageFacts(limit: 0, offset: 0, total: nil, isDense: false, driverEstimate: 10),
            strategy: .scan(onePass: false)),
        Row(why: "several terms, some numeric, few matches: their numeric condition",
            facts: PageFacts(limit: 50, offset: 0, total: 40, isDense: false, hasNumericCondition: true),
            strategy: .readMatches(.numeric)),
        Row(why: "few matches of an index of all terms: each read by id",
            facts: PageFacts(limit: 50, offset: 0, total: 3_000, isDense: false, hasAllTermsIndex: true),
            strategy: .readMatches(.byID)),
        Row(why: "many matches of an index of all terms, another order: sorted",
            facts: PageFacts(limit: 50, offset: 0, total: 20_000, isDense: false, hasAllTermsIndex: true),
            strategy: .readMatches(.sorted)),
        Row(why: "a rare driver: its rows sorted",
            facts: PageFacts(limit: 50, offset: 0, total: 900, isDense: false),
            strategy: .readMatches(.sorted)),
        Row(why: "dense, another order than the list index's: the order's index walked",
            facts: PageFacts(limit: 50, offset: 0, total: 400_000, isDense: true),
            strategy: .walkOrderIndex),
        Row(why: "dense, list order, scope rows not counted: a walk by the page's budget, then the order's index",
            facts: PageFacts(limit: 50, offset: 0, total: 400_000, isDense: true, walksInListOrder: true),
            strategy: .walkListIndex(budget: walk50, fallback: .walkOrderIndex)),
        Row(why: "dense, list order, few enough to sort after a walk that falls short",
            facts: PageFacts(limit: 50, offset: 0, total: 30_000, isDense: true, walksInListOrder: true),
            strategy: .walkListIndex(budget: walk50, fallback: .readMatches(.sorted))),
        Row(why: "scope rows counted, matches spread: walking is cheaper than reading them by id",
            facts: PageFacts(limit: 50, offset: 0, total: 8_000, isDense: true, walksInListOrder: true, scopeRows: 333_000),
            strategy: .walkListIndex(
                budget: costs.listWalkBudget(depth: 50, matches: 8_000, scopeRows: 333_000), fallback: .readMatches(.sorted))),
        Row(why: "scope rows counted, very few matches: read by id",
            facts: PageFacts(limit: 50, offset: 0, total: 60, isDense: false, walksInListOrder: true, scopeRows: 333_000),
            strategy: .readMatches(.byID)),
        Row(why: "scope rows counted, a deep page: read by id",
            facts: PageFacts(limit: 50, offset: 5_000, total: 6_000, isDense: true, walksInListOrder: true, scopeRows: 333_000),
            strategy: .readMatches(.byID)),
    ]

    @Test(arguments: rows)
    func strategy(_ row: Row) {
        #expect(PagePlanner.strategy(for: row.facts, costs: Self.costs) == row.strategy)
    }

    /// Every strategy is some row's answer, so that the table covers the planner.
    @Test func everyStrategyIsPlanned() {
        let planned = Self.rows.map(\.strategy)
        #expect(planned.contains { if case .scan = $0 { true } else { false } })
        #expect(planned.contains { if case .readMatches = $0 { true } else { false } })
        #expect(planned.contains { if case .walkListIndex = $0 { true } else { false } })
        #expect(planned.contains(.walkOrderIndex))
    }
}
