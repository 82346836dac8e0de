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

    static let costs = SearchCosts.standard
    /// A walk in list order when the scope's rows are not counted: what reading `denseRows` by id costs.
    static let uncounted = costs.uncountedWalkBudget
    static let desktop = 333_000

    static let rows: [Row] = [
        Row(why: "no index counts the matches; a rare driver: one pass",
            facts: PageFacts(limit: 50, offset: 0, total: nil, driverRows: 300),
            strategy: .scan(onePass: true)),
        Row(why: "no index counts; no estimate (no grams index): one pass",
            facts: PageFacts(limit: 50, offset: 0, total: nil),
            strategy: .scan(onePass: true)),
        Row(why: "no index counts; a driver past the one-pass rows: count, then the page",
            facts: PageFacts(limit: 50, offset: 0, total: nil, driverRows: 500_000),
            strategy: .scan(onePass: false)),
        Row(why: "no index counts; dense matches expected in list order (PostgreSQL `studio e`): count, then the page",
            facts: PageFacts(limit: 50, offset: 0, total: nil, driverRows: 18_223, inListOrder: true, expectedMatches: 15_034),
            strategy: .scan(onePass: false)),
        Row(why: "no index counts; few matches expected in list order (PostgreSQL `2000 gr`): one pass",
            facts: PageFacts(limit: 50, offset: 0, total: nil, driverRows: 18_231, inListOrder: true, expectedMatches: 724),
            strategy: .scan(onePass: true)),
        Row(why: "no index counts; dense matches expected in another order: one pass",
            facts: PageFacts(limit: 50, offset: 0, total: nil, driverRows: 18_223, expectedMatches: 15_034),
            strategy: .scan(onePass: true)),
        Row(why: "no index counts; a count only (limit 0)",
            facts: PageFacts(limit: 0, offset: 0, total: nil, driverRows: 10),
            strategy: .scan(onePass: false)),
        Row(why: "uncounted (one row shown); dense matches in list order: a walk, then the matches sorted",
            facts: PageFacts(limit: 1, offset: 3, total: nil, countsMatches: false, driverRows: 50_000, inListOrder: true),
            strategy: .walkListIndex(budget: uncounted, fallback: .readMatches(.sorted))),
        Row(why: "uncounted; sparse matches in list order: sorted",
            facts: PageFacts(limit: 1, offset: 0, total: nil, countsMatches: false, driverRows: 300, inListOrder: true),
            strategy: .readMatches(.sorted)),
        Row(why: "uncounted; dense matches, another order: sorted",
            facts: PageFacts(limit: 1, offset: 0, total: nil, countsMatches: false, driverRows: 50_000),
            strategy: .readMatches(.sorted)),
        Row(why: "uncounted; dense, in list order, a numeric term: sorted",
            facts: PageFacts(limit: 1, offset: 0, total: nil, countsMatches: false, driverRows: 50_000, inListOrder: true, hasNumericTerm: true),
            strategy: .readMatches(.sorted)),
        Row(why: "number-only rows listed, another order: the text matches' first rows sorted, with them",
            facts: PageFacts(limit: 50, offset: 0, total: 900, driverRows: 900, hasNumericTerm: true, numberOnlyRows: 3),
            strategy: .readMatches(.addingNumberOnlyRows(textWalk: nil))),
        Row(why: "number-only rows listed, list order, dense text matches spread in the scope: walked",
            facts: PageFacts(
                limit: 50, offset: 0, total: 80_003, driverRows: 80_003, inListOrder: true, hasNumericTerm: true, scopeRows: desktop,
                numberOnlyRows: 3),
            strategy: .readMatches(.addingNumberOnlyRows(
                textWalk: costs.listWalkBudget(depth: 50, matches: 80_000, scopeRows: desktop)))),
        Row(why: "number-only rows listed, list order, few text matches in a counted scope: sorted",
            facts: PageFacts(
                limit: 50, offset: 0, total: 12, driverRows: 12, inListOrder: true, hasNumericTerm: true, scopeRows: desktop,
                numberOnlyRows: 2),
            strategy: .readMatches(.addingNumberOnlyRows(textWalk: nil))),
        Row(why: "number-only rows listed, list order, dense text matches, scope not counted: the uncounted walk",
            facts: PageFacts(limit: 50, offset: 0, total: 9_000, driverRows: 9_000, inListOrder: true, hasNumericTerm: true, numberOnlyRows: 1),
            strategy: .readMatches(.addingNumberOnlyRows(textWalk: uncounted))),
        Row(why: "a numeric term without listed number-only rows, list order: no walk (the list index holds no number)",
            facts: PageFacts(limit: 50, offset: 0, total: 9_000, driverRows: 9_000, inListOrder: true, hasNumericTerm: true, scopeRows: desktop),
            strategy: .walkOrderIndex),
        Row(why: "one number counted from kept counts and its columns' indexes (PostgreSQL `2000`), dense: the order's index walked",
            facts: PageFacts(
                limit: 50, offset: 0, total: 39_715, driverRows: 39_715, inListOrder: true, hasNumericTerm: true, scopeRows: 1_000_000),
            strategy: .walkOrderIndex),
        Row(why: "few matches of an index of all terms: each read by id",
            facts: PageFacts(limit: 50, offset: 0, total: 3_000, hasAllTermsIndex: true),
            strategy: .readMatches(.byID)),
        Row(why: "many matches of an index of all terms, not dense, another order: sorted",
            facts: PageFacts(limit: 50, offset: 0, total: 20_000, driverRows: 3_000, hasAllTermsIndex: true),
            strategy: .readMatches(.sorted)),
        Row(why: "listed matches (ids read while counting both indexes), another order: read by id",
            facts: PageFacts(limit: 50, offset: 0, total: 20_000, driverRows: 20_000, hasAllTermsIndex: true, matchesListed: true),
            strategy: .readMatches(.byID)),
        Row(why: "listed matches, list order, scope not counted: read by id",
            facts: PageFacts(limit: 50, offset: 0, total: 20_000, driverRows: 20_000, hasAllTermsIndex: true, matchesListed: true, inListOrder: true),
            strategy: .readMatches(.byID)),
        Row(why: "listed matches spread in a counted scope, list order: walked, then read by id",
            facts: PageFacts(
                limit: 50, offset: 0, total: 18_000, driverRows: 18_000, hasAllTermsIndex: true, matchesListed: true, inListOrder: true,
                scopeRows: desktop),
            strategy: .walkListIndex(
                budget: costs.listWalkBudget(depth: 50, matches: 18_000, scopeRows: desktop), fallback: .readMatches(.byID))),
        Row(why: "a rare driver: its rows sorted",
            facts: PageFacts(limit: 50, offset: 0, total: 900, driverRows: 900),
            strategy: .readMatches(.sorted)),
        Row(why: "dense, another order than the list index's: the order's index walked",
            facts: PageFacts(limit: 50, offset: 0, total: 400_000, driverRows: 400_000),
            strategy: .walkOrderIndex),
        Row(why: "dense, list order, scope rows not counted, past the one-pass rows: walked, then the order's index",
            facts: PageFacts(limit: 50, offset: 0, total: 400_000, driverRows: 400_000, inListOrder: true),
            strategy: .walkListIndex(budget: uncounted, fallback: .walkOrderIndex)),
        Row(why: "dense, list order, scope rows not counted, few enough to sort after a walk that falls short",
            facts: PageFacts(limit: 50, offset: 0, total: 30_000, driverRows: 30_000, inListOrder: true),
            strategy: .walkListIndex(budget: uncounted, fallback: .readMatches(.sorted))),
        Row(why: "not dense, list order, scope rows not counted: sorted",
            facts: PageFacts(limit: 50, offset: 0, total: 900, driverRows: 900, inListOrder: true),
            strategy: .readMatches(.sorted)),
        Row(why: "scope rows counted, matches spread: walking is cheaper than reading them by id",
            facts: PageFacts(limit: 50, offset: 0, total: 8_000, driverRows: 8_000, inListOrder: true, scopeRows: desktop),
            strategy: .walkListIndex(
                budget: costs.listWalkBudget(depth: 50, matches: 8_000, scopeRows: desktop), fallback: .readMatches(.sorted))),
        Row(why: "scope rows counted, very few matches: read by id",
            facts: PageFacts(limit: 50, offset: 0, total: 60, driverRows: 60, inListOrder: true, scopeRows: desktop),
            strategy: .readMatches(.byID)),
        Row(why: "scope rows counted, a deep page: read by id",
            facts: PageFacts(limit: 50, offset: 5_000, total: 6_000, driverRows: 6_000, inListOrder: true, scopeRows: desktop),
            strategy: .readMatches(.byID)),
        Row(why: "scope rows counted, many matches past the one-pass rows: walked, then the order's index",
            facts: PageFacts(limit: 50, offset: 0, total: 200_000, driverRows: 200_000, inListOrder: true, scopeRows: desktop),
            strategy: .walkListIndex(
                budget: costs.listWalkBudget(depth: 50, matches: 200_000, scopeRows: desktop), fallback: .walkOrderIndex)),
    ]

    @Test(arguments: rows)
    func strategy(_ row: Row) {
        #expect(PagePlanner.strategy(for: row.facts, costs: Self.costs) == row.strategy)
    }

    /// The page of a scan that counted its matches first (PostgreSQL's terms checked on the grams
    /// index's candidates): the facts before the count, the total it gave, the strategy.
    struct CountedRow: CustomTestStringConvertible, Sendable {
        var why: String
        var facts: PageFacts
        var total: Int
        var strategy: PageStrategy
        var testDescription: String { why }
    }

    static let countedRows: [CountedRow] = [
        CountedRow(why: "a dense driver, few matches, a number among the terms: read and sorted, not the order's index walked (`x øre 2`)",
            facts: PageFacts(limit: 50, offset: 0, total: nil, driverRows: 80_000, inListOrder: true, hasNumericTerm: true),
            total: 66, strategy: .readMatches(.sorted)),
        CountedRow(why: "a dense driver, dense matches, a number among the terms: the order's index walked",
            facts: PageFacts(limit: 50, offset: 0, total: nil, driverRows: 300_000, inListOrder: true, hasNumericTerm: true),
            total: 90_000, strategy: .walkOrderIndex),
        CountedRow(why: "a dense driver, dense matches spread in a counted scope, list order: walked, then the order's index",
            facts: PageFacts(limit: 50, offset: 0, total: nil, driverRows: 300_000, inListOrder: true, scopeRows: 1_000_000),
            total: 90_000,
            strategy: .walkListIndex(
                budget: costs.listWalkBudget(depth: 50, matches: 90_000, scopeRows: 1_000_000), fallback: .walkOrderIndex)),
    ]

    @Test(arguments: countedRows)
    func strategyAfterCounting(_ row: CountedRow) {
        #expect(PagePlanner.strategy(afterCounting: row.total, row.facts, costs: Self.costs) == row.strategy)
    }

    /// Every strategy is some row's answer, so that the table covers the planner.
    @Test func everyStrategyIsPlanned() {
        let planned = Self.rows.map(\.strategy)
        #expect(planned.contains { if case .scan = $0 { true } else { false } })
        #expect(planned.contains(.readMatches(.byID)))
        #expect(planned.contains(.readMatches(.sorted)))
        #expect(planned.contains { if case .readMatches(.addingNumberOnlyRows) = $0 { true } else { false } })
        #expect(planned.contains { if case .walkListIndex = $0 { true } else { false } })
        #expect(planned.contains(.walkOrderIndex))
    }

    struct DriverRow: CustomTestStringConvertible, Sendable {
        var why: String
        var terms: [TermFacts]
        var estimated = true
        var hasGramsIndex = true
        var driver: DriverChoice
        var testDescription: String { why }
    }

    static func short(_ rows: Int? = nil, numeric: Bool = false, space: Bool = false) -> TermFacts {
        TermFacts(isShort: true, isIndexable: !space, isNumeric: numeric, length: 2, rows: rows)
    }

    static func long(_ rows: Int? = nil, numeric: Bool = false, length: Int = 4) -> TermFacts {
        TermFacts(isShort: false, isIndexable: true, isNumeric: numeric, length: length, rows: rows)
    }

    static let driverRows: [DriverRow] = [
        DriverRow(why: "several long terms: one query of the trigram index", terms: [long(10), long(90_000)], driver: .allTerms),
        DriverRow(why: "several short terms: one query of the grams index", terms: [short(500_000), short(9)], driver: .allTerms),
        DriverRow(why: "a short term with a space cannot be looked up: the other drives", terms: [short(500_000), short(space: true)],
                  driver: .term(0)),
        DriverRow(why: "both lengths, the rarest dense: through both indexes", terms: [short(300_000), long(18_000)], driver: .bothIndexes),
        DriverRow(why: "both lengths, the rarest below denseRows: it drives", terms: [short(300_000), long(900)], driver: .term(1)),
        DriverRow(why: "both lengths without estimates: the longest term drives", terms: [short(), long(), long(length: 6)],
                  estimated: false, driver: .term(2)),
        DriverRow(why: "a numeric term rarer than the other: it drives (its number too)", terms: [long(40, numeric: true), long(9_000)],
                  driver: .term(0)),
        DriverRow(why: "a numeric term without estimates: the plain term drives", terms: [long(numeric: true, length: 4), short()],
                  estimated: false, driver: .term(1)),
        DriverRow(why: "one term: it drives", terms: [short(618_000)], driver: .term(0)),
        DriverRow(why: "no grams index: the long terms together, the others checked", terms: [short(), long()],
                  estimated: false, hasGramsIndex: false, driver: .longTerms),
        DriverRow(why: "no grams index and no plain long term: every row checked", terms: [short(), long(numeric: true)],
                  estimated: false, hasGramsIndex: false, driver: .none),
        DriverRow(why: "no term indexable: every row checked", terms: [short(space: true)], driver: .none),
    ]

    @Test(arguments: driverRows)
    func driver(_ row: DriverRow) {
        let driver = PagePlanner.driver(
            for: row.terms, estimated: row.estimated, hasGramsIndex: row.hasGramsIndex, denseRows: Self.costs.denseRows)
        #expect(driver == row.driver)
    }

    struct ScopeCountRow: CustomTestStringConvertible, Sendable {
        var why: String
        var facts: ScopeCountFacts
        var strategy: ScopeCountStrategy
        var testDescription: String { why }
    }

    static func one(_ rows: Int? = nil) -> TermFacts { TermFacts(isShort: true, isIndexable: true, isNumeric: false, length: 1, rows: rows) }

    static let scopeCountRows: [ScopeCountRow] = [
        ScopeCountRow(why: "a term no text holds: nothing read", facts: ScopeCountFacts(terms: [long()], matchesNothing: true),
                      strategy: .nothing),
        ScopeCountRow(why: "one short term: its gram counts", facts: ScopeCountFacts(terms: [short()]), strategy: .gramCounts),
        ScopeCountRow(why: "several one-scalar terms: their bits, else the grams index", facts: ScopeCountFacts(terms: [one(), one()]),
                      strategy: .gramBits(fallback: .gramsIndex)),
        ScopeCountRow(why: "several short terms, one of two scalars: the grams index", facts: ScopeCountFacts(terms: [one(), short()]),
                      strategy: .gramsIndex),
        ScopeCountRow(why: "several short terms, one with a space: no index counts them",
                      facts: ScopeCountFacts(terms: [short(), short(space: true)]), strategy: .none),
        ScopeCountRow(why: "one long term: its substring counts, else the trigram index per rowid range",
                      facts: ScopeCountFacts(terms: [long()]), strategy: .substringCounts(fallback: .trigramRanges)),
        ScopeCountRow(why: "several long terms: one pass with their ids, else per rowid range",
                      facts: ScopeCountFacts(terms: [long(), long()]), strategy: .trigramPass(fallback: .trigramRanges)),
        ScopeCountRow(why: "one long term, rowids without the scope: its substring counts or nothing",
                      facts: ScopeCountFacts(terms: [long()], rowIDsCarryScope: false), strategy: .substringCounts(fallback: .none)),
        ScopeCountRow(why: "several long terms, rowids without the scope: no index counts them",
                      facts: ScopeCountFacts(terms: [long(), long()], rowIDsCarryScope: false), strategy: .none),
        ScopeCountRow(why: "both lengths, the short term common: both indexes",
                      facts: ScopeCountFacts(terms: [long(), short(300_000)]), strategy: .bothIndexes),
        ScopeCountRow(why: "both lengths, the short term below denseRows: no index counts them (it drives each page)",
                      facts: ScopeCountFacts(terms: [long(), short(900)]), strategy: .none),
        ScopeCountRow(why: "both lengths, rowids without the scope: no index counts them",
                      facts: ScopeCountFacts(terms: [long(), short(300_000)], rowIDsCarryScope: false), strategy: .none),
        ScopeCountRow(why: "a numeric long term whose number many rows hold: one intersection of ids",
                      facts: ScopeCountFacts(terms: [long(numeric: true), long()], numberInManyRows: true), strategy: .numericIntersection),
        ScopeCountRow(why: "a numeric long term, its number-only rows too many to list: one intersection of ids",
                      facts: ScopeCountFacts(terms: [long(numeric: true)]), strategy: .numericIntersection),
        ScopeCountRow(why: "a numeric short term, its number-only rows too many to list: no index counts them",
                      facts: ScopeCountFacts(terms: [short(numeric: true)]), strategy: .none),
        ScopeCountRow(why: "a numeric short term, few number-only rows: its gram counts plus them",
                      facts: ScopeCountFacts(terms: [short(numeric: true)], numberOnlyRows: 3), strategy: .addingNumberOnlyRows(text: .gramCounts)),
        ScopeCountRow(why: "a numeric term with a common short one, few number-only rows: both indexes plus them",
                      facts: ScopeCountFacts(terms: [long(numeric: true), short(300_000)], numberOnlyRows: 0),
                      strategy: .addingNumberOnlyRows(text: .bothIndexes)),
    ]

    @Test(arguments: scopeCountRows)
    func scopeCounts(_ row: ScopeCountRow) {
        #expect(PagePlanner.scopeCounts(for: row.facts, costs: Self.costs) == row.strategy)
    }

    /// Every count strategy is some row's answer (the fallbacks included).
    @Test func everyScopeCountStrategyIsPlanned() {
        var planned: [ScopeCountStrategy] = []
        func add(_ strategy: ScopeCountStrategy) {
            planned.append(strategy)
            switch strategy {
            case .gramBits(let fallback), .substringCounts(let fallback), .trigramPass(let fallback): add(fallback)
            case .addingNumberOnlyRows(let text): add(text)
            default: break
            }
        }
        Self.scopeCountRows.forEach { add($0.strategy) }
        for strategy: ScopeCountStrategy in [.nothing, .gramCounts, .gramsIndex, .trigramRanges, .bothIndexes, .numericIntersection, .none] {
            #expect(planned.contains(strategy), "\(strategy)")
        }
        #expect(planned.contains { if case .gramBits = $0 { true } else { false } })
        #expect(planned.contains { if case .substringCounts = $0 { true } else { false } })
        #expect(planned.contains { if case .trigramPass = $0 { true } else { false } })
        #expect(planned.contains { if case .addingNumberOnlyRows = $0 { true } else { false } })
    }

    struct ScopePresenceRow: CustomTestStringConvertible, Sendable {
        var why: String
        var facts: ScopeCountFacts
        var strategy: ScopePresenceStrategy
        var testDescription: String { why }
    }

    static let scopePresenceRows: [ScopePresenceRow] = [
        ScopePresenceRow(why: "a term no text holds: counted, nothing read",
                         facts: ScopeCountFacts(terms: [long()], matchesNothing: true), strategy: .counted(.nothing)),
        ScopePresenceRow(why: "one short term: its gram counts, no match read", facts: ScopeCountFacts(terms: [short()]),
                         strategy: .counted(.gramCounts)),
        ScopePresenceRow(why: "one long term: its substring counts, no match read", facts: ScopeCountFacts(terms: [long()]),
                         strategy: .counted(.substringCounts(fallback: .trigramRanges))),
        ScopePresenceRow(why: "several one-scalar terms: each scope's first match in the grams index",
                         facts: ScopeCountFacts(terms: [one(), one()]), strategy: .firstMatch),
        ScopePresenceRow(why: "several short terms: each scope's first match in the grams index",
                         facts: ScopeCountFacts(terms: [one(), short()]), strategy: .firstMatch),
        ScopePresenceRow(why: "several long terms: each scope's first match in the trigram index",
                         facts: ScopeCountFacts(terms: [long(), long()]), strategy: .firstMatch),
        ScopePresenceRow(why: "both lengths, the short term common: each scope's first long-term row holding it",
                         facts: ScopeCountFacts(terms: [long(), short(300_000)]), strategy: .firstMatch),
        ScopePresenceRow(why: "both lengths, the short term below denseRows: counted over the condition",
                         facts: ScopeCountFacts(terms: [long(), short(900)]), strategy: .counted(.none)),
        ScopePresenceRow(why: "several long terms, rowids without the scope: counted over the condition",
                         facts: ScopeCountFacts(terms: [long(), long()], rowIDsCarryScope: false), strategy: .counted(.none)),
        ScopePresenceRow(why: "several short terms, rowids without the scope: counted in the grams index",
                         facts: ScopeCountFacts(terms: [one(), short()], rowIDsCarryScope: false), strategy: .counted(.gramsIndex)),
        ScopePresenceRow(why: "a numeric term: counted",
                         facts: ScopeCountFacts(terms: [long(numeric: true)]), strategy: .counted(.numericIntersection)),
    ]

    @Test(arguments: scopePresenceRows)
    func scopePresence(_ row: ScopePresenceRow) {
        #expect(PagePlanner.scopePresence(for: row.facts, costs: Self.costs) == row.strategy)
    }

    @Test func bothIndexesReadTheLongRowsAsTheirNumberSays() {
        #expect(PagePlanner.bothIndexesRead(longRows: 300, shortTermsOfOneScalar: true, costs: Self.costs) == .checkLongRows)
        #expect(PagePlanner.bothIndexesRead(longRows: 18_000, shortTermsOfOneScalar: true, costs: Self.costs) == .gramBits)
        #expect(PagePlanner.bothIndexesRead(longRows: 18_000, shortTermsOfOneScalar: false, costs: Self.costs) == .mergeGrams)
        #expect(PagePlanner.bothIndexesRead(longRows: 4_999, shortTermsOfOneScalar: false, costs: Self.costs) == .checkLongRows)
    }

    /// The cost model's parameters are few, each named: the planner reads no other number.
    @Test func theCostModelIsFiveNamedParameters() {
        #expect(Mirror(reflecting: SearchCosts.standard).children.map(\.label) == [
            "denseRows", "commonRows", "onePassRows", "entriesPerRowRead", "fewRows",
        ])
    }
}
