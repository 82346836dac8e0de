/// What the planner knows of one term of a search: plain values, no database.
public struct TermFacts: Sendable, Hashable {
    /// Whether it has 1-2 scalars (the grams index's), rather than 3+ (the trigram index's).
    public var isShort: Bool
    /// Whether an index holds it: a long term always, a short one without a space.
    public var isIndexable: Bool
    /// Whether it also matches by a number column.
    public var isNumeric: Bool
    /// Its scalars.
    public var length: Int
    /// Its estimated rows, when estimates were read and hold it.
    public var rows: Int?

    /// Facts of a term.
    public init(isShort: Bool, isIndexable: Bool, isNumeric: Bool, length: Int, rows: Int? = nil) {
        self.isShort = isShort
        self.isIndexable = isIndexable
        self.isNumeric = isNumeric
        self.length = length
        self.rows = rows
    }
}

/// Which index reaches a search's matches: chosen by ``PagePlanner/driver(for:estimated:hasGramsIndex:denseRows:)``.
public enum DriverChoice: Sendable, Hashable {
    /// One query of every term in one index: all of 3+ scalars (the trigram index) or all of 1-2
    /// (the grams index), none numeric; it finds exactly the matches.
    case allTerms
    /// Short and long terms together through both indexes, none numeric, the rarest in
    /// ``SearchCosts/denseRows`` rows or more; it finds exactly the matches.
    case bothIndexes
    /// The term at this position drives through its index (and its number columns when numeric);
    /// the others are checked on its rows.
    case term(Int)
    /// Without a grams index: the plain terms of 3+ scalars together in the trigram index, the others
    /// checked on their rows.
    case longTerms
    /// No index reaches the matches: every term is checked on every row.
    case none
}

extension PagePlanner {
    /// The term that drives when one term does: with estimates, the indexable term in the fewest
    /// rows (the first of equals; a term the estimates lack counts 0); without, the longest plain
    /// indexable term, a numeric one only when no plain one is indexable. Nil when none is indexable.
    public static func rarestTerm(of terms: [TermFacts], estimated: Bool) -> Int? {
        let indexable = terms.indices.filter { terms[$0].isIndexable }
        if estimated { return indexable.min { terms[$0].rows ?? 0 < terms[$1].rows ?? 0 } }
        let plain = indexable.filter { !terms[$0].isNumeric }
        return (plain.isEmpty ? indexable : plain).min { terms[$0].length > terms[$1].length }
    }

    /// What reaches the matches of a search of `terms` (each once, none implied by another).
    public static func driver(for terms: [TermFacts], estimated: Bool, hasGramsIndex: Bool, denseRows: Int) -> DriverChoice {
        guard hasGramsIndex else { return terms.contains { !$0.isShort && !$0.isNumeric } ? .longTerms : .none }
        let plain = !terms.contains(where: \.isNumeric)
        if plain, terms.count > 1, terms.allSatisfy({ $0.isShort && $0.isIndexable }) || terms.allSatisfy({ !$0.isShort }) {
            return .allTerms
        }
        guard let rarest = rarestTerm(of: terms, estimated: estimated) else { return .none }
        if plain, estimated, terms[rarest].rows ?? 0 >= denseRows, terms.allSatisfy(\.isIndexable),
           terms.contains(where: \.isShort), terms.contains(where: { !$0.isShort }) {
            return .bothIndexes
        }
        return .term(rarest)
    }
}
