/// What the planner knows of a search counted per value of the scope column (a fetched-results
/// controller's sections): plain values the executor reads before planning, no database.
public struct ScopeCountFacts: Sendable, Hashable {
    /// The terms, each once (none implied by another); a short term's ``TermFacts/rows`` is its gram
    /// count over every row, read when the terms are of both lengths.
    public var terms: [TermFacts]
    /// Whether no row can match (a term no text can hold).
    public var matchesNothing: Bool
    /// Whether the search indexes' rowids carry the scope: each scope value's rows are a rowid range.
    public var rowIDsCarryScope: Bool
    /// With numeric terms all of 3+ scalars: whether a number is the value of more than
    /// ``SearchCosts/fewRows`` rows of a number column (counted in its index, no row read).
    public var numberInManyRows: Bool
    /// With numeric terms: how many rows hold one only as a number, when they were listed (at most
    /// ``SearchCosts/fewRows`` per term); nil when more, or not read.
    public var numberOnlyRows: Int?

    /// Facts.
    public init(
        terms: [TermFacts], matchesNothing: Bool = false, rowIDsCarryScope: Bool = true, numberInManyRows: Bool = false,
        numberOnlyRows: Int? = nil
    ) {
        self.terms = terms
        self.matchesNothing = matchesNothing
        self.rowIDsCarryScope = rowIDsCarryScope
        self.numberInManyRows = numberInManyRows
        self.numberOnlyRows = numberOnlyRows
    }
}

/// How the executor counts a search's matches per scope value, chosen by
/// ``PagePlanner/scopeCounts(for:costs:)``; see the TextSearch article "How a search runs".
public indirect enum ScopeCountStrategy: Sendable, Hashable {
    /// No row can match: every count is 0, nothing read.
    case nothing
    /// One term of 1-2 scalars: its maintained gram counts, one row per scope value.
    case gramCounts
    /// Several terms of 1-2 scalars: the grams index's count of all their tokens, per scope value
    /// (its rowid range, or its token).
    case gramsIndex
    /// Several terms of one scalar: every scope value but the one with the most rows counted in the
    /// grams index, that one as the rows whose bits (the gram bits accelerator) hold every term, less
    /// the others; `fallback` when the accelerator does not hold them or their rows are fewer than
    /// ``SearchCosts/commonRows``.
    case gramBits(fallback: ScopeCountStrategy)
    /// One term of 3+ scalars: its maintained counts (the substring counts accelerator), one row per
    /// scope value; `fallback` when the accelerator does not hold it.
    case substringCounts(fallback: ScopeCountStrategy)
    /// Terms of 3+ scalars: the trigram index's count within each scope value's rowid range.
    case trigramRanges
    /// Several terms of 3+ scalars: their matches read in one pass of the trigram index, with their
    /// ids (a controller's pages are then read from them); `fallback` past 30,000 matches (the most
    /// ids one statement binds).
    case trigramPass(fallback: ScopeCountStrategy)
    /// Terms of both lengths, every short one common: the long terms' rows read from the trigram
    /// index, then intersected with the short terms as ``PagePlanner/bothIndexesRead(longRows:shortTermsOfOneScalar:costs:)`` says.
    case bothIndexes
    /// Numeric terms whose numbers few rows hold outside their text (listed): the text matches
    /// counted as `text` says, plus those rows, each read by id and checked.
    case addingNumberOnlyRows(text: ScopeCountStrategy)
    /// Numeric terms, all of 3+ scalars, whose numbers many rows hold: one intersection of ids read
    /// from the trigram index and the number columns' indexes, each match's scope read from its row.
    case numericIntersection
    /// No index counts the matches per scope value: the caller counts over the search's condition.
    case none
}

/// How ``ScopeCountStrategy/bothIndexes`` intersects the long terms' rows with the short terms.
public enum BothIndexesRead: Sendable, Hashable {
    /// Few long-term rows: each read by id and checked for every term.
    case checkLongRows
    /// Short terms of one scalar each: each long-term row's bit of each looked up in the gram bits
    /// accelerator (merged as ``mergeGrams`` when it does not hold them).
    case gramBits
    /// Merged in rowid order with the grams index's rows holding the short terms and each long term's
    /// rarest 2-scalar gram, reading no table row.
    case mergeGrams
}

extension PagePlanner {
    /// The strategy that counts a search per scope value, from `facts`: in order, nothing for a search
    /// that matches nothing; with numeric terms, the number-only rows added to the text's counts when
    /// listed, else an intersection of ids (all terms of 3+ scalars); then by the terms' lengths: one
    /// short term's gram counts, several short terms in the grams index (by their bits first when each
    /// is one scalar), long terms through the trigram index (one term's substring counts first, several
    /// in one pass first), both lengths through both indexes when every short term is in
    /// ``SearchCosts/denseRows`` rows or more. Scope values that are rowid ranges are needed by every
    /// strategy of long terms; without them, ``ScopeCountStrategy/none``.
    public static func scopeCounts(for facts: ScopeCountFacts, costs: SearchCosts) -> ScopeCountStrategy {
        if facts.matchesNothing { return .nothing }
        guard facts.terms.contains(where: \.isNumeric) else { return textCounts(of: facts.terms, facts: facts, costs: costs) }
        let allLong = facts.terms.allSatisfy { !$0.isShort }
        if allLong, facts.numberInManyRows { return .numericIntersection }
        guard facts.numberOnlyRows != nil else { return allLong ? .numericIntersection : .none }
        let text = textCounts(of: facts.terms.map { var term = $0; term.isNumeric = false; return term }, facts: facts, costs: costs)
        return text == .none ? .none : .addingNumberOnlyRows(text: text)
    }

    /// The strategy for terms matched by their text alone.
    private static func textCounts(of terms: [TermFacts], facts: ScopeCountFacts, costs: SearchCosts) -> ScopeCountStrategy {
        guard !terms.isEmpty else { return .none }
        let short = terms.filter(\.isShort)
        if short.isEmpty {
            guard facts.rowIDsCarryScope else { return terms.count == 1 ? .substringCounts(fallback: .none) : .none }
            return terms.count == 1 ? .substringCounts(fallback: .trigramRanges) : .trigramPass(fallback: .trigramRanges)
        }
        if short.count < terms.count {
            let common = short.allSatisfy { $0.isIndexable && $0.rows ?? 0 >= costs.denseRows }
            return facts.rowIDsCarryScope && common ? .bothIndexes : .none
        }
        if terms.count == 1 { return .gramCounts }
        guard terms.allSatisfy(\.isIndexable) else { return .none }
        return terms.allSatisfy({ $0.length == 1 }) ? .gramBits(fallback: .gramsIndex) : .gramsIndex
    }

    /// How ``ScopeCountStrategy/bothIndexes`` intersects `longRows` rows of the long terms with the
    /// short terms: each row checked when they are fewer than ``SearchCosts/denseRows`` (and at most
    /// 30,000, the most ids one statement binds); else by the short terms' bits when each is one scalar; else merged
    /// with the grams index.
    public static func bothIndexesRead(longRows: Int, shortTermsOfOneScalar: Bool, costs: SearchCosts) -> BothIndexesRead {
        if longRows < costs.denseRows, longRows <= SearchCosts.idListLimit { return .checkLongRows }
        return shortTermsOfOneScalar ? .gramBits : .mergeGrams
    }
}

/// How a search finds which scope values hold a match when only one row of its result is wanted (a
/// row shown at an index path, whose sections' counts nobody reads), chosen by
/// ``PagePlanner/scopePresence(for:costs:)``.
public enum ScopePresenceStrategy: Sendable, Hashable {
    /// The matches counted per scope value as the strategy says: maintained counts that read no
    /// match, or a search the search indexes' rowid ranges do not answer alone.
    case counted(ScopeCountStrategy)
    /// Each scope value's first match in its rowid range of the search indexes, in rowid order,
    /// `LIMIT 1`: the long terms' phrases in the trigram index, the short terms checked on the row
    /// each yields (or, all terms short, their tokens in the grams index); nothing counted.
    case firstMatch
}

extension PagePlanner {
    /// Whether a scope value holds a match is read from its counts when counting reads no match
    /// (``ScopeCountStrategy/nothing``, ``ScopeCountStrategy/gramCounts``,
    /// ``ScopeCountStrategy/substringCounts(fallback:)``) or cannot be done by the search indexes'
    /// rowid ranges (numeric terms, ``ScopeCountStrategy/none``); else, from each value's first match in
    /// its rowid range (``ScopePresenceStrategy/firstMatch``), which stops at one match where counting
    /// reads them all (`touch s`: 49,921 rows of the phrase `touch`).
    public static func scopePresence(for facts: ScopeCountFacts, costs: SearchCosts) -> ScopePresenceStrategy {
        let counting = scopeCounts(for: facts, costs: costs)
        switch counting {
        case .gramsIndex, .gramBits, .trigramRanges, .trigramPass, .bothIndexes:
            return facts.rowIDsCarryScope ? .firstMatch : .counted(counting)
        case .nothing, .gramCounts, .substringCounts, .addingNumberOnlyRows, .numericIntersection, .none:
            return .counted(counting)
        }
    }
}
