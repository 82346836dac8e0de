import SQLiteStore
import TextSearch

/// How one search runs on PostgreSQL: which term reaches the rows through an index (the driver), and
/// the conditions the executor's SQL is built from.
///
/// Terms all of 1-2 characters (none a number) are found together and exactly through the grams
/// index: a pair as a key; a character through every key that holds it (which the gram counts list),
/// or, when it is in many more rows than a rarer term (``frequentCharacters``), checked with `strpos`
/// on the rows the other keys find. Terms all of 3+ characters are found together through the
/// `pg_trgm` indexes (which PostgreSQL rechecks on each row); one term through its own index.
/// Otherwise (several terms of both lengths, or a number among them) the grams index finds the rows
/// holding every plain term's grams (a long term's pairs) in one scan, which intersects their rows,
/// and every term is checked on those (`strpos`); a numeric term joins them when its number columns
/// hold few rows (those rows added), or when no term is plain. When every short term is a frequent
/// character (checked on the rows either way), the long terms' `pg_trgm` indexes find the rows
/// instead.
struct PostgreSQLSearchPlan {
    let search: PostgreSQLTextSearch
    /// The terms, each once, without those implied by a longer one (`SearchQuery.decidingTerms`).
    let terms: [SearchTerm]
    /// The scope value the rows must have; nil for every row.
    let scope: DatabaseValue?
    /// Whether some term can match no row, so that the search matches nothing.
    let matchesNothing: Bool
    /// The term whose index finds the rows, when one drives alone: the longest plain term, else the
    /// longest numeric one.
    let driver: SearchTerm?
    /// The rarest term's estimated rows (`estimates`), when estimates were read.
    let driverEstimate: Int?
    /// Every term's estimated rows, rarest first, when estimates were read.
    let termEstimates: [Int]
    /// The numeric terms whose grams join the plain terms' in ``candidates(alias:)``, their number
    /// columns' rows added: those in `fewRows` rows or fewer of the number columns (`numberRows`),
    /// else, when no term is plain, the driver.
    let joinedNumbers: [SearchTerm]
    /// The terms of one character in more than ``frequentCharacterRatio`` times the rows of the
    /// rarest other term (`estimates`): ``grams(_:alias:)`` checks them on the rows its other keys
    /// find, rather than joining every key that holds them.
    let frequentCharacters: Set<String>
    /// How many times the rows of the rarest other term a character's rows must exceed to be checked
    /// on the rows: the union of every key that holds such a character then costs more than checking
    /// it (W3 on PostgreSQL, the rows of 2, 4 and 8: `x øre 2`, its `x` in 7.7 times the rows of
    /// `øre`, costs less through the keys; `pro f`, `lens j` and `2 4`, 2.5-4 times, too; `xl e`, 45
    /// times, costs less checked: W1b on PostgreSQL, "Price on the search side").
    static let frequentCharacterRatio = 8

    init(
        _ query: SearchQuery, _ search: PostgreSQLTextSearch, scope: DatabaseValue?, estimates: [String: Int]? = nil,
        numberRows: [String: Int] = [:], fewRows: Int = SearchCosts.standard.fewRows
    ) {
        self.search = search
        self.scope = scope
        let numeric = { (term: SearchTerm) in !search.description.numberColumns.isEmpty && term.number != nil }
        terms = query.decidingTerms(isNumeric: numeric)
        matchesNothing = query.terms.contains { !$0.canMatchText }
        let plain = terms.filter { !numeric($0) }
        driver = (plain.isEmpty ? terms : plain).min { $0.length > $1.length }
        let terms = terms
        termEstimates = estimates.map { estimates in terms.compactMap { estimates[$0.folded] }.sorted() } ?? []
        driverEstimate = termEstimates.first
        let few = terms.filter { numeric($0) && numberRows[$0.folded].map { $0 <= fewRows } ?? false }
        joinedNumbers = few.isEmpty && plain.isEmpty ? [driver].compactMap { $0 } : few
        frequentCharacters = Set(terms.filter { term in
            guard term.length == 1, let rows = estimates?[term.folded],
                  let rarest = terms.filter({ $0 != term }).compactMap({ estimates?[$0.folded] }).min()
            else { return false }
            return rows > rarest * Self.frequentCharacterRatio
        }.map(\.folded))
    }

    /// The matches expected among `rows` rows, the terms' rows taken as independent of one another:
    /// the rarest term's estimate times every other term's share of `rows`; nil without estimates.
    func expectedMatches(rows: Int) -> Int? {
        guard let driverEstimate, rows > 0 else { return nil }
        return Int(termEstimates.dropFirst().reduce(Double(driverEstimate)) { $0 * min(1, Double($1) / Double(rows)) })
    }

    /// Whether the term also matches by the number columns.
    func isNumeric(_ term: SearchTerm) -> Bool {
        !search.description.numberColumns.isEmpty && term.number != nil
    }

    /// Whether one index query of all terms finds exactly the matches: several terms, none numeric,
    /// all of 1-2 characters (the grams index) or all of 3+ (the trigram indexes).
    var hasAllTermsIndex: Bool {
        terms.count > 1 && !terms.contains(where: isNumeric)
            && (terms.allSatisfy(\.isShort) || !terms.contains(where: \.isShort))
    }

    /// Whether the grams index finds rows that hold every plain term's grams, each term then checked
    /// on them: several terms, not all served exactly by one index (``hasAllTermsIndex``, or all of
    /// 1-2 characters and plain). No index counts these matches: they are read to be counted.
    var checksCandidates: Bool {
        terms.count > 1 && !matchesNothing && !hasAllTermsIndex && (terms.contains(where: isNumeric) || !terms.allSatisfy(\.isShort))
    }

    /// Whether the total is one row of the gram counts: a single term of 1-2 characters, not numeric.
    var countsOneGram: Bool {
        terms.count == 1 && terms[0].isShort && !isNumeric(terms[0]) && !matchesNothing
    }

    /// The one term of 3+ characters, not numeric, whose rows are the matches: its total may be one
    /// row of the substring counts.
    var countedLongTerm: SearchTerm? {
        terms.count == 1 && !terms[0].isShort && !isNumeric(terms[0]) && !matchesNothing ? terms[0] : nil
    }

    /// The one numeric term whose rows are the matches: its total may be its text's kept count (gram
    /// or substring counts) and the rows its number columns add (``numberRows(_:alias:)``).
    var countedNumber: SearchTerm? {
        terms.count == 1 && isNumeric(terms[0]) && !matchesNothing ? terms[0] : nil
    }

    /// The conditions whose rows' counts add up to the rows whose number columns hold `term`'s number
    /// (scope included), each column's rows without those of the columns before it: without a scope,
    /// the first is counted from its index alone (an index-only scan, no row read).
    func numberRows(_ term: SearchTerm, alias: String) -> [SQLFragment] {
        guard let number = term.number else { return [] }
        let columns = search.description.numberColumns.map { Self.equals("\(alias).\(SQLText.identifier($0))", number) }
        return columns.indices.map { index in
            let before = columns[..<index].map { SQLFragment(sql: "NOT coalesce(\($0.sql), FALSE)", arguments: $0.arguments) }
            return scoped(SQLFragment(joining: [columns[index]] + before, separator: " AND "), alias: alias)
        }
    }

    /// The condition of the rows whose number columns and texts both hold `term` (scope included),
    /// the text through its index, so that PostgreSQL reads only the rows both indexes find.
    func numberAndTextRows(_ term: SearchTerm, alias: String) -> SQLFragment {
        guard let number = term.number else { return SQLFragment(sql: "FALSE") }
        let columns = search.description.numberColumns.map { Self.equals("\(alias).\(SQLText.identifier($0))", number) }
        let inNumbers = SQLFragment(joining: columns, separator: " OR ").parenthesized
        return scoped(inNumbers && self.term(term, alias: alias, indexed: true, byNumber: false), alias: alias)
    }

    /// The condition on the row named `alias` that holds exactly when it matches (scope included):
    /// the indexed terms as their indexes serve them, the others checked on the row.
    func condition(alias: String) -> SQLFragment {
        if terms.isEmpty { return scoped(SQLFragment(sql: "TRUE"), alias: alias) }
        if matchesNothing { return SQLFragment(sql: "FALSE") }
        if !terms.contains(where: isNumeric) && terms.allSatisfy(\.isShort) {
            return scoped(grams(terms.map(\.folded), alias: alias), alias: alias)
        }
        if hasAllTermsIndex {
            return scoped(SQLFragment(joining: terms.map { term($0, alias: alias, indexed: true) }, separator: " AND "), alias: alias)
        }
        if checksCandidates && drivesByLongTerms {
            return scoped(SQLFragment(joining: terms.map { term($0, alias: alias, indexed: !$0.isShort) }, separator: " AND "), alias: alias)
        }
        if checksCandidates { return candidates(alias: alias) }
        let parts = terms.map { term($0, alias: alias, indexed: $0 == driver) }
        return scoped(SQLFragment(joining: parts, separator: " AND "), alias: alias)
    }

    /// Whether the long terms find the rows through their `pg_trgm` indexes, every other term
    /// checked on them: no numeric term, and every short term one of ``frequentCharacters``, which
    /// the grams index would not find either. The trigram index finds no more rows than the long
    /// terms' pairs do, for less: its keys are rarer (W3 on PostgreSQL: `studio e`, `panel c`).
    var drivesByLongTerms: Bool {
        !terms.contains(where: isNumeric) && terms.allSatisfy { !$0.isShort || frequentCharacters.contains($0.folded) }
    }

    /// ``checksCandidates``'s condition: the rows whose grams hold every plain term's (a short term,
    /// a long one's pairs) and the ``joinedNumbers``', or whose number columns hold a joined number,
    /// found in one scan of the grams index (and the number columns' indexes): a row that matches
    /// holds every joined number in its text, or one in a number column. Every term is checked on
    /// each of them, so that the condition is exact; a frequent character only there, so that what
    /// the indexes find is the bitmap scan's own condition, which PostgreSQL does not evaluate again
    /// on each row (within an `OR`, a check beside the grams made it repeat the grams' expression on
    /// every row: W3 on PostgreSQL, `3 a`, `15 p`).
    func candidates(alias: String) -> SQLFragment {
        let indexed = terms.filter { !isNumeric($0) } + joinedNumbers
        var found = grams(indexed.flatMap { $0.isShort ? [$0.folded] : Self.pairs(of: $0.folded) }, alias: alias, checksFrequent: false)
        let numbers = joinedNumbers.compactMap(\.number).flatMap { number in
            search.description.numberColumns.map { Self.equals("\(alias).\(SQLText.identifier($0))", number) }
        }
        if !numbers.isEmpty { found = SQLFragment(joining: [found] + numbers, separator: " OR ").parenthesized }
        return scoped(found && filterCondition(alias: alias, scoped: false), alias: alias)
    }

    /// The condition of every term checked on the row named `alias` (scope included), which no
    /// search index serves: for walks in an index's order.
    func filterCondition(alias: String, scoped isScoped: Bool = true) -> SQLFragment {
        if matchesNothing { return SQLFragment(sql: "FALSE") }
        let parts = terms.map { term($0, alias: alias, indexed: false) }
        let condition = parts.isEmpty ? SQLFragment(sql: "TRUE") : SQLFragment(joining: parts, separator: " AND ")
        return isScoped ? scoped(condition, alias: alias) : condition
    }

    /// `condition AND alias.scope = ?` within a scope.
    func scoped(_ condition: SQLFragment, alias: String) -> SQLFragment {
        guard let scope, let column = search.description.scopeColumn else { return condition }
        return SQLFragment(sql: "(\(condition.sql)) AND \(alias).\(column) = ?", arguments: condition.arguments + [scope])
    }

    /// One term on the row named `alias`: in a text (through its index when `indexed`, else by
    /// `strpos`), or, for a number (unless not `byNumber`), in a number column.
    func term(_ term: SearchTerm, alias: String, indexed: Bool, byNumber: Bool = true) -> SQLFragment {
        var parts: [SQLFragment]
        if indexed && term.isShort {
            parts = [grams([term.folded], alias: alias)]
        } else if indexed {
            let pattern = "%" + Self.likeEscaped(term.folded) + "%"
            parts = search.description.textColumns.map { SQLFragment(sql: "\(alias).\($0) LIKE ?", arguments: [pattern]) }
        } else {
            parts = search.description.textColumns.map { SQLFragment(sql: "strpos(\(alias).\($0), ?) > 0", arguments: [term.folded]) }
        }
        if byNumber, isNumeric(term), let number = term.number {
            parts += search.description.numberColumns.map { Self.equals("\(alias).\(SQLText.identifier($0))", number) }
        }
        return SQLFragment(joining: parts, separator: " OR ").parenthesized
    }

    /// The rows of `alias` whose texts hold every one of `grams` (texts of 1-2 characters, none a
    /// control character): exact, from the grams index. A pair is a key of the index; a character
    /// is in the rows whose keys include one that holds it, each of those listed by the gram counts
    /// (which hold every gram of the rows), or, among ``frequentCharacters``, checked on the rows the
    /// other grams find (unless not `checksFrequent`: the caller checks them).
    func grams(_ grams: [String], alias: String, checksFrequent: Bool = true) -> SQLFragment {
        let pairs = grams.filter { $0.unicodeScalars.count == 2 }
        let keys = search.grams(alias)
        var parts: [SQLFragment] = []
        if !pairs.isEmpty {
            let list = Array(repeating: "CAST(? AS text)", count: pairs.count).joined(separator: ", ")
            parts.append(SQLFragment(sql: "\(keys) @> ARRAY[\(list)]", arguments: StatementArguments(pairs.map { DatabaseValue.text($0) })))
        }
        // A character that a pair holds is implied by it.
        let characters = Set(grams.filter { $0.unicodeScalars.count == 1 }).filter { character in
            !pairs.contains { $0.unicodeScalars.contains(character.unicodeScalars.first!) }
        }
        var indexed = characters.subtracting(frequentCharacters)
        if pairs.isEmpty && indexed.isEmpty { indexed = characters }
        for character in indexed.sorted(by: { $0.unicodeScalars.first!.value < $1.unicodeScalars.first!.value }) {
            parts.append(SQLFragment(
                sql: "\(keys) && ARRAY(SELECT gram FROM \(search.gramCountsTable) WHERE strpos(gram, ?) > 0)", arguments: [character]))
        }
        for character in checksFrequent ? characters.subtracting(indexed).sorted() : [] {
            let texts = search.description.textColumns.map { SQLFragment(sql: "strpos(\(alias).\($0), ?) > 0", arguments: [character]) }
            parts.append(SQLFragment(joining: texts, separator: " OR ").parenthesized)
        }
        return parts.isEmpty ? SQLFragment(sql: "TRUE") : SQLFragment(joining: parts, separator: " AND ")
    }

    /// `column = number`: bound as an integer when the number is one, so that the column's type
    /// reads it and its index serves the comparison; else compared as a `double precision`.
    static func equals(_ column: String, _ number: Double) -> SQLFragment {
        if number.rounded() == number, abs(number) < 0x1p62 {
            return SQLFragment(sql: "\(column) = ?", arguments: [Int64(number)])
        }
        return SQLFragment(sql: "\(column) = CAST(? AS double precision)", arguments: [number])
    }

    /// The distinct substrings of 2 characters of `text`, in order.
    static func pairs(of text: String) -> [String] {
        let scalars = Array(text.unicodeScalars)
        var seen = Set<String>()
        return scalars.indices.dropLast().map { String(String.UnicodeScalarView(scalars[$0...($0 + 1)])) }.filter { seen.insert($0).inserted }
    }

    /// `text` with LIKE's wildcards and escape character escaped, so that it matches itself only.
    static func likeEscaped(_ text: String) -> String {
        var escaped = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            if scalar == "%" || scalar == "_" || scalar == "\\" { escaped.append("\\") }
            escaped.append(scalar)
        }
        return String(escaped)
    }
}
