import SQLiteStore

extension SearchDescription {
    /// The matches per scope value of several terms of one scalar each, all held in
    /// ``gramBitsTable`` (`3 a`): every scope value but one counted in the grams index, as
    /// ``matchesPerScope(_:_:)`` counts short terms (an AND of their tokens within the value's rowid
    /// range), and the last one, the value where the first term is in the most rows, found as the
    /// total less the others, the total being the rows whose bits are set for every term
    /// (``GramBitset/intersectionCount(_:)``). Every row that matches holds the first term, so its
    /// scope value is one of those the first term's gram counts name. Nil for another plan, when the
    /// table does not hold every term, when the terms are in too few rows of that value for their bits
    /// to cost less than its count, or when a value is not one the grams index counts apart.
    ///
    /// The grams index's AND of two common grams reads both doclists within each range, where the two
    /// grams' rows of bits are read and merged in a fraction of that: one count of the three is saved
    /// (W3 `3 a`).
    ///
    /// - Parameter minimumEntries: the least number of entries the terms' doclists hold within that
    ///   last value (``SearchCosts/commonRows``; tests force the strategy with 0):
    ///   fewer are counted in the grams index as the others are (nil is returned).
    func gramBitsCountsPerScope(
        _ plan: SearchPlan, minimumEntries: Int, _ db: Database
    ) throws -> [DatabaseValue: Int]? {
        guard gramCountsTable != nil, scopeColumn != nil, let first = plan.terms.first,
              plan.terms.allSatisfy({ $0.folded.unicodeScalars.count == 1 && SearchPlan.isIndexable($0) && !plan.isNumeric($0) })
        else { return nil }
        let rows = try gramCountsPerScope(first.folded, db)
        guard let largest = rows.max(by: { $0.count < $1.count }) else { return [:] }
        let grams = Set(plan.terms.map(\.folded))
        var entries = 0
        for gram in grams { entries += try gramCount(gram, scope: largest.scope, db) }
        guard entries >= minimumEntries, let bitsets = try gramBitsets(grams, db),
              var counts = try gramsCounts(plan, scopes: rows.map(\.scope).filter { $0 != largest.scope }, db)
        else { return nil }
        let rest = GramBitset.intersectionCount(bitsets) - counts.values.reduce(0, +)
        if rest > 0 { counts[largest.scope] = rest }
        return counts
    }
}
