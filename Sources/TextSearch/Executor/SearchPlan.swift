import SQLiteStore

/// How one search runs on one table: which term reaches the matching rows through an index (the
/// driver), and which are then checked on each row it yields (the filters).
///
/// The one SQL builder of search: the executor's counts and pages and
/// ``SearchDescription/condition(for:scope:alias:_:)`` all take their conditions from here.
///
/// - With a grams index: several terms, none a number, all of 1-2 scalars (or all of 3+) drive
///   together, in one query of the grams (trigram) index, which finds exactly the matches. Terms of
///   both kinds, none a number, drive together through both indexes when even the rarest term is
///   common (``SearchCosts/denseRows``): the short terms' tokens and each long term's
///   rarest 2-scalar gram in the grams index, intersected with the long terms' phrases in the
///   trigram index, which also finds exactly the matches, without reading a table row.
///   Otherwise one term drives, through its token in the grams index (1-2 scalars) or its phrase in
///   the trigram index (3+), and through the number columns too when it reads as a number: the term
///   with the fewest estimated rows, numbers included (without estimates: the longest plain term).
/// - Without: terms of 3+ scalars are looked up together in the trigram index (one FTS5 query of
///   quoted phrases joined by AND); shorter terms are checked row by row (a small table).
public struct SearchPlan: Sendable {
    /// What reaches the matching rows through an index.
    public enum Driver: Sendable, Equatable {
        /// These terms' phrases, all in one FTS5 query.
        case fullText([SearchTerm])
        /// These short terms' tokens, all in one FTS5 query of the grams index.
        case grams([SearchTerm])
        /// One term: its grams token (1-2 scalars) or trigram phrase (3+), or its number in the number columns.
        case term(SearchTerm)
        /// Short and long terms together: the rows of the grams index holding the `short` terms' tokens
        /// and the `narrowing` grams (2-scalar grams of the long terms: rows holding a long term hold
        /// them too, so they only narrow), that the trigram index also finds with every `long` term's
        /// phrase. The grams index proves the short terms, the trigram index the long ones.
        case gramsAndFullText(short: [SearchTerm], long: [SearchTerm], narrowing: [String])
    }

    /// The search.
    public let query: SearchQuery
    /// The scope value the rows must have, which the drivers' index queries narrow to where their
    /// index tells scopes apart (the grams index's scope token, the trigram index's rowid range);
    /// nil for every row. (The caller's condition still checks the scope column.)
    public let scope: DatabaseValue?
    /// What is searched.
    public let description: SearchDescription
    /// The terms, each once, without those implied by a longer one.
    public let terms: [SearchTerm]
    /// Whether some term can match no row, so that the search matches nothing.
    public let matchesNothing: Bool
    /// The indexed part; nil when there is no term, or when only short terms remain without a grams index.
    public let driver: Driver?
    /// The terms checked row by row.
    public let filters: [SearchTerm]
    /// Whether the driver's estimated rows reached ``SearchCosts/denseRows``: a page in list order is
    /// then cheaper to find by walking the list index than by sorting the driver's rows.
    public let isDense: Bool
    /// The driver's estimated rows, when the planner had estimates.
    public let driverEstimate: Int?
    /// Whether a numeric term also matches by its number columns (false: the planner checked, within
    /// one read, that no row has such a number without the term in its text).
    public let matchesNumbers: Bool

    /// Plans a search.
    ///
    /// - Parameters:
    ///   - estimates: rows of each folded term, to drive with the rarest one; nil plans without them.
    ///   - denseRows: the estimate from which ``isDense`` holds, and from which, for the rarest term,
    ///     short and long terms drive together through both indexes
    ///     (``Driver/gramsAndFullText(short:long:narrowing:)``): ``SearchCosts/denseRows``.
    ///   - matchesNumbers: false when no row matches a numeric term by number alone, so that numeric
    ///     terms are planned as plain ones (only valid within the read that checked it).
    ///   - scope: the scope value the rows must have, nil for every row.
    init(
        _ query: SearchQuery, _ description: SearchDescription, estimates: [String: Int]? = nil,
        denseRows: Int = .max, matchesNumbers: Bool = true,
        scope: DatabaseValue? = nil
    ) {
        self.query = query
        self.scope = scope
        self.description = description
        self.matchesNumbers = matchesNumbers
        matchesNothing = query.terms.contains { !$0.canMatchText }
        let isNumeric = { (term: SearchTerm) in matchesNumbers && !description.numberColumns.isEmpty && term.number != nil }
        let terms = query.decidingTerms(isNumeric: isNumeric)
        self.terms = terms
        // A numeric term also finds rows by number: it drives through the union of its text index
        // and the number columns' indexes, and its estimate is the sum. No gram holds a space: a
        // short term whose folding holds one is only checked row by row.
        let facts = terms.map { term in
            TermFacts(
                isShort: term.isShort, isIndexable: Self.isIndexable(term), isNumeric: isNumeric(term), length: term.length,
                rows: estimates?[term.folded])
        }
        let hasGramsIndex = description.gramsTable != nil
        let rarest = hasGramsIndex ? PagePlanner.rarestTerm(of: facts, estimated: estimates != nil).map { terms[$0] } : nil
        switch PagePlanner.driver(for: facts, estimated: estimates != nil, hasGramsIndex: hasGramsIndex, denseRows: denseRows) {
        case .allTerms:
            driver = terms.allSatisfy(\.isShort) ? .grams(terms) : .fullText(terms)
            filters = []
        case .bothIndexes:
            // Each long term narrowed in the grams index by its rarest 2-scalar gram (the estimates
            // hold their gram counts).
            let long = terms.filter { !$0.isShort }
            let narrowing = long.compactMap { term in
                Self.pairs(of: term.folded).min { estimates?[$0] ?? .max < estimates?[$1] ?? .max }
            }
            driver = .gramsAndFullText(short: terms.filter(\.isShort), long: long, narrowing: narrowing)
            filters = []
        case .term(let index):
            driver = .term(terms[index])
            filters = terms.filter { $0 != terms[index] }
        case .longTerms:
            let plainLong = terms.filter { !$0.isShort && !isNumeric($0) }
            driver = .fullText(plainLong)
            filters = terms.filter { $0.isShort || isNumeric($0) }
        case .none:
            driver = nil
            filters = terms
        }
        driverEstimate = rarest.flatMap { estimates?[$0.folded] }
        isDense = driverEstimate.map { $0 >= denseRows } ?? false
    }

    /// The condition on a row of the table, named `alias`, that holds exactly when the row matches.
    public func condition(alias: String) -> SQLFragment {
        if query.isEmpty { return .alwaysTrue }
        if matchesNothing { return .alwaysFalse }
        var parts: [SQLFragment] = []
        if let driver { parts.append(indexed(driver, alias: alias)) }
        parts += filters.map { filter($0, alias: alias) }
        return SQLFragment(joining: parts, separator: " AND ")
    }

    /// With a grams index, when no term is numeric and the terms are all of 3+ scalars, or all of 1-2
    /// scalars without a space: the condition that finds the rows through one query of all terms in
    /// one index (the trigram index's phrases, or the grams index's tokens, joined by AND), which
    /// reads the index's doclists and only the matching rows. Nil otherwise.
    func allTermsCondition(alias: String) -> SQLFragment? {
        guard description.gramsTable != nil, !query.isEmpty, !matchesNothing, !terms.isEmpty,
              !terms.contains(where: isNumeric)
        else { return nil }
        if terms.allSatisfy({ !$0.isShort }) {
            return rows(alias: alias, fullTextIDs(terms))
        } else if terms.allSatisfy({ $0.isShort && Self.isIndexable($0) }) {
            return rows(alias: alias, gramsIDs(terms))
        } else if case .gramsAndFullText(let short, let long, let narrowing)? = driver {
            return rows(alias: alias, intersectionIDs(short: short, long: long, narrowing: narrowing))
        }
        return nil
    }

    /// The condition that the row named `alias` is one of `ids` (a `SELECT` of ids).
    private func rows(alias: String, _ ids: SQLFragment) -> SQLFragment {
        SQLFragment(sql: "\(alias).\(description.idColumn) IN (\(ids.sql))", arguments: ids.arguments)
    }

    /// A `SELECT` of the ids of the rows holding every short term in the grams index, within the
    /// scope's rowid range when the rowids carry it, else with the scope's token when it has one.
    private func gramsIDs(_ terms: [SearchTerm]) -> SQLFragment {
        let table = description.gramsTable!
        if description.rowIDsCarryScope {
            return description.indexIDs(table, matching: Self.gramsPattern(terms)!, scope: scope)
        }
        let pattern = Self.gramsPattern(terms, scope: scope) ?? Self.gramsPattern(terms)!
        return SQLFragment(sql: "SELECT rowid FROM \(table) WHERE \(table) MATCH ?", arguments: [pattern])
    }

    /// A `SELECT` of the ids of the rows holding every short term and the narrowing grams in the grams
    /// index and every long term in the trigram index (``Driver/gramsAndFullText(short:long:narrowing:)``),
    /// within the scope as ``gramsIDs(_:)`` narrows to it.
    private func intersectionIDs(short: [SearchTerm], long: [SearchTerm], narrowing: [String]) -> SQLFragment {
        description.intersectionIDs(grams: short.map(\.folded) + narrowing, long: long, scope: scope, exact: false)!
    }

    /// A `SELECT` of the ids of the rows holding every term of 3+ scalars in the trigram index, within
    /// the scope's rowid range when the index's rowids carry it.
    private func fullTextIDs(_ terms: [SearchTerm]) -> SQLFragment {
        description.fullTextIDs(matching: Self.fullTextPattern(terms), scope: scope)
    }

    /// The condition of all terms checked on the text columns of `alias` (for walks in an index's order).
    func filterCondition(ofAllTermsOn alias: String) -> SQLFragment {
        if query.isEmpty { return .alwaysTrue }
        if matchesNothing { return .alwaysFalse }
        return SQLFragment(joining: terms.map { filter($0, alias: alias) }, separator: " AND ")
    }

    /// Whether the terms are of both kinds: some of 1-2 scalars, some of 3+.
    var mixesLengths: Bool {
        terms.contains(where: \.isShort) && terms.contains(where: { !$0.isShort })
    }

    /// Whether the term also matches by number in this plan.
    func isNumeric(_ term: SearchTerm) -> Bool {
        matchesNumbers && !description.numberColumns.isEmpty && term.number != nil
    }

    /// An FTS5 query that finds the rows holding every term as a phrase: `"t1" AND "t2"`, each term
    /// quoted, its double quotes doubled, so that no character of it is FTS5 syntax.
    ///
    /// Related SQLite documentation: <https://www.sqlite.org/fts5.html#fts5_strings>
    static func fullTextPattern(_ terms: [SearchTerm]) -> String {
        terms.map { phrase($0.folded) }.joined(separator: " AND ")
    }

    /// `text` as one FTS5 phrase: in double quotes, its double quotes doubled.
    static func phrase(_ text: String) -> String {
        // Scalar by scalar: a quote followed by a combining mark is one Character, but still a quote to FTS5.
        var quoted = String.UnicodeScalarView(["\""])
        for scalar in text.unicodeScalars {
            quoted.append(scalar)
            if scalar == "\"" { quoted.append(scalar) }
        }
        quoted.append("\"")
        return String(quoted)
    }

    /// Whether a term can be looked up in the indexes: a long term always (the trigram index holds
    /// spaces), a short one when it holds no space (no gram of the grams index does).
    static func isIndexable(_ term: SearchTerm) -> Bool {
        !term.isShort || !term.folded.unicodeScalars.contains(" ")
    }

    /// An FTS5 query of the grams index (``SearchDescription/gramsTable``) that finds the rows holding
    /// every short term, within `scope` when given: `"61" AND "6970" AND "x…"`, each token the
    /// hexadecimal of a term's UTF-8 bytes (or `x` and that of the scope value's text). Nil when the
    /// scope value has no token: NULL (which no row's scope equals), a REAL (whose text SQLite renders
    /// its own way) or a BLOB.
    static func gramsPattern(_ terms: [SearchTerm], scope: DatabaseValue? = nil) -> String? {
        gramsPattern(terms.map(\.folded), scope: scope)
    }

    /// ``gramsPattern(_:scope:)`` of grams given as folded texts of 1-2 scalars without a space.
    static func gramsPattern(_ grams: [String], scope: DatabaseValue? = nil) -> String? {
        var tokens = grams.map { hexadecimal(Array($0.utf8)) }
        switch scope {
        case nil: break
        case .text(let text)?: tokens.append("x" + hexadecimal(Array(text.utf8)))
        case .integer(let value)?: tokens.append("x" + hexadecimal(Array(String(value).utf8)))
        case .null?, .real?, .blob?: return nil
        }
        return tokens.map { "\"\($0)\"" }.joined(separator: " AND ")
    }

    /// Bytes as SQLite's `hex()` writes them: two uppercase digits each.
    private static func hexadecimal(_ bytes: [UInt8]) -> String {
        let digits = Array("0123456789ABCDEF".utf8)
        return String(decoding: bytes.flatMap { [digits[Int($0 >> 4)], digits[Int($0 & 15)]] }, as: UTF8.self)
    }

    /// The distinct 2-scalar grams of `folded` that hold no space (those the grams index holds).
    static func pairs(of folded: String) -> [String] {
        let scalars = Array(folded.unicodeScalars)
        guard scalars.count > 1 else { return [] }
        var seen = Set<String>()
        return (0..<(scalars.count - 1)).compactMap { start in
            let pair = scalars[start...start + 1]
            guard !pair.contains(" ") else { return nil }
            let gram = String(String.UnicodeScalarView(pair))
            return seen.insert(gram).inserted ? gram : nil
        }
    }

    // MARK: - Term conditions

    private func indexed(_ driver: Driver, alias: String) -> SQLFragment {
        switch driver {
        case .fullText(let terms):
            return rows(alias: alias, fullTextIDs(terms))
        case .grams(let terms):
            return rows(alias: alias, gramsIDs(terms))
        case .term(let term):
            let text = rows(alias: alias, term.isShort ? gramsIDs([term]) : fullTextIDs([term]))
            return SQLFragment(joining: [text] + numberConditions(term, alias: alias), separator: " OR ").parenthesized
        case .gramsAndFullText(let short, let long, let narrowing):
            return rows(alias: alias, intersectionIDs(short: short, long: long, narrowing: narrowing))
        }
    }

    func filter(_ term: SearchTerm, alias: String, numbers: Bool = true) -> SQLFragment {
        let parts = description.textColumns.map { SQLFragment(sql: "instr(\(alias).\($0), ?) > 0", arguments: [term.folded]) }
            + (numbers ? numberConditions(term, alias: alias) : [])
        return SQLFragment(joining: parts, separator: " OR ").parenthesized
    }

    private func numberConditions(_ term: SearchTerm, alias: String) -> [SQLFragment] {
        guard isNumeric(term), let number = term.number else { return [] }
        return description.numberColumns.map { SQLFragment(sql: "\(alias).\(SQLText.identifier($0)) = ?", arguments: [number]) }
    }
}
