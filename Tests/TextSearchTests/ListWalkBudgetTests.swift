import TestSupport
import Testing
@testable import TextSearch

/// How far a walk in list order may read before it gives up and the matches are read by id, against
/// its definition (TextSearch's articles): twice its expected length (3 × depth × rows ÷ matches) or
/// a twentieth of the read by id (of 5,000 rows' read when the matches are fewer), whichever is more,
/// never more than that read.
struct ListWalkBudgetTests {
    /// The definition, in floating point.
    static func reference(depth: Int, matches: Int, scopeRows: Int, entriesPerRowRead: Int) -> Double {
        let read = Double(matches) * Double(entriesPerRowRead)
        let expected = 3 * (Double(depth) * Double(scopeRows) / Double(matches)).rounded(.down)
        return min(max(2 * expected, max(read, 5_000 * Double(entriesPerRowRead)) / 20), read)
    }

    @Test func theBudgetIsTwiceTheExpectedWalkOrATwentiethOfTheReadAtMostTheRead() {
        var random = SplitMix64(seed: 0xB0D6E7)
        for _ in 0..<2_000 {
            var costs = SearchCosts.standard
            costs.entriesPerRowRead = [0, 1, 7, 25, 1_000][Int.random(in: 0..<5, using: &random)]
            let scopeRows = 1 + Int.random(in: 0..<2_000_000, using: &random)
            let matches = 1 + Int.random(in: 0..<scopeRows, using: &random)
            let depth = 1 + Int.random(in: 0..<200, using: &random)
            let budget = costs.listWalkBudget(depth: depth, matches: matches, scopeRows: scopeRows)
            let expected = Self.reference(
                depth: depth, matches: matches, scopeRows: scopeRows, entriesPerRowRead: costs.entriesPerRowRead)
            // (Integer division: the twentieth may be rounded down.)
            #expect(abs(Double(budget) - expected) < 1, "depth \(depth), \(matches) of \(scopeRows): \(budget), expected \(expected)")
        }
    }

    /// Measured within Desktop (333,784 products) of a `catalog seed --count 1000000` database: where
    /// the 50th match of a term is in the type's list order, and its matches there.
    @Test func clusteredManyMatchesAreWalkedToAndSkewedFewMatchesGiveUpEarly() {
        let desktop = 333_784
        let costs = SearchCosts.standard
        for (term, matches, fiftieth) in [("st", 32_460, 6_352), ("z", 24_626, 7_622), ("str", 16_600, 16_822)] {
            #expect(costs.walksListIndex(depth: 50, matches: matches, scopeRows: desktop), "\(term)")
            #expect(costs.listWalkBudget(depth: 50, matches: matches, scopeRows: desktop) >= fiftieth, "\(term)")
        }
        for (term, matches, fiftieth) in [("東", 8_276, 317_303), ("カ", 8_309, 292_528), ("zenit", 8_410, 267_307), ("mac", 8_490, 125_353)] {
            let budget = costs.listWalkBudget(depth: 50, matches: matches, scopeRows: desktop)
            // Twice the expected walk, which is more than a twentieth of the read: about 12,000 entries.
            #expect(budget == 2 * 3 * (50 * desktop / matches) && budget < 12_500 && budget < fiftieth, "\(term)")
        }
    }

    /// Measured within Desktop of the same database: the first match of `x in` (1,827 matches) is
    /// its 3,012th entry, past twice the expected walk and a twentieth of the read; the walk of a
    /// page of one row reaches it.
    @Test func aFirstRowAFewThousandEntriesDeepIsWalkedTo() {
        let costs = SearchCosts.standard
        #expect(costs.walksListIndex(depth: 1, matches: 1_827, scopeRows: 333_784))
        #expect(costs.listWalkBudget(depth: 1, matches: 1_827, scopeRows: 333_784) >= 3_012)
    }
}
