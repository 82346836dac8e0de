import SQLiteStore
import TextSearch

extension PostgreSQLTextSearch {
    /// The table of how many rows hold each frequent substring of 3 to
    /// `SearchDescription.substringCountMaximumLength` characters, per scope value:
    /// `(substring, scope, count)`, when the description declares the `.substringCounts` accelerator
    /// (as on SQLite). It answers the total of such a term in one row each, where the `pg_trgm` index
    /// rechecks every matching row (W3 on PostgreSQL, 3+ chars); nil without the accelerator.
    public var substringCountsTable: String? {
        description.accelerators.contains { $0 is SubstringCountsAccelerator } ? description.table + "_substring_counts" : nil
    }

    /// The trigger function that keeps ``substringCountsTable``.
    var substringCountsTrigger: String { description.table + "_substring_counts_keep" }

    /// The SQL that creates ``substringCountsTable`` empty and the triggers that keep each of its
    /// counts exact as rows are inserted, updated and deleted (empty without the table). No trigger
    /// adds a substring: ``refreshSubstringCounts(_:)`` chooses them.
    var substringCountsSQL: String {
        guard let table = substringCountsTable else { return "" }
        return keptCountsSQL(table, of: "substring", collated: " COLLATE \"C\"", by: substringCountsTrigger, held: heldSubstrings)
    }

    /// The distinct substrings ``substringCountsTable`` holds that the texts of the row `row` (`NEW`
    /// or `OLD`) contain, as `substring`: at each position of each text, the table's substrings
    /// from the 3-character one there to the longest, that are a prefix of the text from there.
    private func heldSubstrings(_ row: String) -> String {
        let texts = description.textColumns.map { Self.qualified($0, row) }.joined(separator: ", ")
        let longest = SearchDescription.substringCountMaximumLength
        return """
            SELECT DISTINCT c.substring FROM unnest(ARRAY[\(texts)]::text[]) AS texts(t), generate_series(1, char_length(t)) AS n, \
            \(substringCountsTable ?? "") AS c \
            WHERE c.substring >= substr(t, n, 3) COLLATE "C" AND c.substring <= substr(t, n, \(longest)) COLLATE "C" \
            AND c.substring = substr(t, n, char_length(c.substring))
            """
    }

    /// Chooses again which substrings ``substringCountsTable`` counts, and counts them: every
    /// substring of 3 to `SearchDescription.substringCountMaximumLength` characters without a space
    /// that at least the description's `substringCountMinimumRows` rows hold, with its rows per scope
    /// value, as the SQLite engine chooses them (TextSearch's `SubstringCounter`, two passes over the
    /// rows' texts in Swift). Run it in a write after ``installSQL`` and a bulk load; the triggers
    /// keep the counts exact in between whatever it chose. Does nothing without the table.
    ///
    /// - Throws: what the connection throws.
    public func refreshSubstringCounts(_ db: some SQLConnection) throws {
        guard substringCountsTable != nil else { return }
        let trigrams = SubstringCounter(.trigrams)
        try forEachRowTexts(db) { texts, scope in trigrams.add(texts, scope: scope) }
        try refreshSubstringCounts(db, trigrams: trigrams)
    }

    /// ``refreshSubstringCounts(_:)`` after its first pass: `trigrams` has counted every row's
    /// trigrams; the second pass reads the rows' texts.
    func refreshSubstringCounts(_ db: some SQLConnection, trigrams: SubstringCounter) throws {
        guard substringCountsTable != nil else { return }
        try storeSubstringCounts(secondPass(trigrams) { body in try forEachRowTexts(db, body) }, db)
    }

    /// The substring counts' second pass: the substrings made of the trigrams `trigrams` counted in
    /// enough rows, counted over the rows `rows` gives to its argument (each row's texts and scope
    /// value); nil when no trigram is frequent.
    func secondPass(_ trigrams: SubstringCounter, rows: ((RowScalars, DatabaseValue) -> Void) throws -> Void) throws -> SubstringCounter? {
        let frequentTrigrams = trigrams.substrings(inAtLeast: description.substringCountMinimumRows)
        guard !frequentTrigrams.isEmpty else { return nil }
        let substrings = SubstringCounter(.madeOf(frequentTrigrams: frequentTrigrams))
        try rows { texts, scope in substrings.add(texts, scope: scope) }
        return substrings
    }

    /// Replaces what ``substringCountsTable`` holds with the substrings `substrings` counted in
    /// enough rows (none when nil).
    func storeSubstringCounts(_ substrings: SubstringCounter?, _ db: some SQLConnection) throws {
        guard let table = substringCountsTable else { return }
        try db.execute(sql: "DELETE FROM \(table)", values: [])
        guard let substrings else { return }
        let kept = substrings.substrings(inAtLeast: description.substringCountMinimumRows)
        try db.copy(
            into: table, columns: ["substring", "scope", "count"],
            rows: substrings.counts.lazy.filter { kept.contains($0.substring) }.map { [.text($0.substring.text), $0.scope, .integer(Int64($0.count))] })
    }

    /// Calls `body` with each row's texts and scope value, read in one statement whose rows stream.
    private func forEachRowTexts(_ db: some SQLConnection, _ body: (RowScalars, DatabaseValue) -> Void) throws {
        let table = description.table
        let columns = ([scope(table)] + description.textColumns.map { Self.qualified($0, table) }).joined(separator: ", ")
        let texts = RowScalars()
        try db.forEachRow(sql: "SELECT \(columns) FROM \(table)", values: []) { _, row in
            texts.load(row.dropFirst().map { value in if case .text(let text) = value { text } else { nil } })
            body(texts, row[0])
        }
    }

    /// The rows holding `term` within `scope` (every row: nil) from ``substringCountsTable``, as one
    /// value: NULL when the table does not hold the term. Nil when the table cannot hold it (none,
    /// or a term of another length).
    func substringCount(_ term: SearchTerm, scope: DatabaseValue?) -> SQLFragment? {
        guard let table = substringCountsTable,
            (3...SearchDescription.substringCountMaximumLength).contains(term.folded.unicodeScalars.count)
        else { return nil }
        guard let scope, description.scopeColumn != nil else {
            return SQLFragment(sql: "(SELECT sum(count) FROM \(table) WHERE substring = ?)", arguments: [term.folded])
        }
        return SQLFragment(
            sql: "(SELECT CASE WHEN count(*) > 0 THEN coalesce(sum(count) FILTER (WHERE scope = ?), 0) END FROM \(table) WHERE substring = ?)",
            arguments: [scope, term.folded])
    }

    /// The rows holding `term` per scope value (values counting 0 left out), from
    /// ``substringCountsTable``; nil when the table does not hold the term.
    func substringCounts(_ term: SearchTerm, _ db: some SQLConnection) throws -> [DatabaseValue: Int]? {
        guard let table = substringCountsTable,
            (3...SearchDescription.substringCountMaximumLength).contains(term.folded.unicodeScalars.count)
        else { return nil }
        let rows = try db.fetchRows(sql: "SELECT scope, count FROM \(table) WHERE substring = ?", values: [.text(term.folded)])
        guard !rows.isEmpty else { return nil }
        return Dictionary(rows.map { ($0[0], Self.int($0[1])) }.filter { $0.1 > 0 }, uniquingKeysWith: +)
    }

    /// How many counts of ``substringCountsTable`` differ from the rows' (0 without the table).
    func substringCountProblems(_ db: some SQLConnection) throws -> Int {
        guard let table = substringCountsTable else { return 0 }
        let holds = description.textColumns.map { "strpos(\(Self.qualified($0, description.table)), chosen.substring) > 0" }
            .joined(separator: " OR ")
        return Self.int(try db.fetchRows(
            sql: """
                WITH chosen AS (SELECT DISTINCT substring FROM \(table)),
                actual AS (
                    SELECT chosen.substring, \(scope(description.table)) AS scope, count(*) AS count
                    FROM chosen JOIN \(description.table) ON \(holds) GROUP BY 1, 2)
                SELECT count(*) FROM actual FULL JOIN \(table) AS kept
                    ON kept.substring = actual.substring AND kept.scope IS NOT DISTINCT FROM actual.scope
                WHERE coalesce(kept.count, 0) <> coalesce(actual.count, 0)
                """, values: []).first?.first ?? .null)
    }
}
