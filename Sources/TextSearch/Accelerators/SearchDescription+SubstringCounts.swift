import SQLiteStore

extension SearchDescription {
    /// The fewest rows a substring of 3+ scalars must be in, when the set of ``substringCountsTable``
    /// is chosen, to be kept there, unless a description says otherwise
    /// (``substringCountMinimumRows``): 2,000. A term it leaves out is counted in the trigram index,
    /// which for so few rows costs under a millisecond (W3 3+ chars).
    public static let standardSubstringCountMinimumRows = 2_000

    /// The most scalars of a substring ``substringCountsTable`` holds: 8, the longest as-you-type
    /// prefix the benchmark searches (W3). A longer term is counted in the trigram index. Each row's
    /// texts are matched against the table at each position, up to this length, by the triggers
    /// and the bulk insert.
    public static let substringCountMaximumLength = 8

    /// The rows holding `term` (of 3 to ``substringCountMaximumLength`` scalars) per scope value (or
    /// under NULL without a scope column), values counting 0 left out, from ``substringCountsTable``;
    /// nil when the table does not hold the term.
    func substringCounts(_ term: String, _ db: Database) throws -> [DatabaseValue: Int]? {
        guard let substringCountsTable, (3...Self.substringCountMaximumLength).contains(term.unicodeScalars.count)
        else { return nil }
        let rows = try db.cachedStatement(
            sql: "SELECT \(scopeColumn ?? "NULL"), count FROM \(substringCountsTable) WHERE substring = ?"
        ).fetchAll(arguments: [term]) { row in (row.databaseValue(at: 0), try row.decode(Int.self, at: 1)) }
        guard !rows.isEmpty else { return nil }
        return Dictionary(rows.filter { $0.1 > 0 }, uniquingKeysWith: +)
    }

    /// The rows holding `term` within `scope` (every row: nil), from ``substringCountsTable``; nil
    /// when the table does not hold the term.
    func substringCount(_ term: String, scope: DatabaseValue?, _ db: Database) throws -> Int? {
        guard let counts = try substringCounts(term, db) else { return nil }
        guard let scope else { return counts.values.reduce(0, +) }
        return counts[scope] ?? 0
    }
}

extension SearchDescription {
    /// The SQL that creates ``substringCountsTable``, empty: for a migration, followed by
    /// ``refreshSubstringCounts(_:)``, which chooses the substrings it holds; the triggers of
    /// ``triggersSQL`` keep each of its counts exact as rows are inserted, updated and deleted (by any
    /// writer: they are SQL). Empty without ``substringCountsTable``.
    ///
    /// ```swift
    /// try db.execute(sql: films.substringCountsSQL)  // in a migration
    /// try films.refreshSubstringCounts(db)
    /// ```
    ///
    /// The table holds rows `(substring, scope value, count)`: `count` is the number of rows of the
    /// scope value whose texts hold `substring` at least once. A row inserted adds 1 to the count of
    /// each distinct substring the table holds that its texts contain (the count of its scope value,
    /// created at 1 when missing); a row deleted subtracts 1 (a count that falls to 0 stays); an
    /// update does both. No trigger adds a substring: only ``refreshSubstringCounts(_:)`` chooses
    /// them.
    public var substringCountsSQL: String {
        guard let substringCountsTable else { return "" }
        return """
            CREATE TABLE \(substringCountsTable) (
                substring TEXT NOT NULL,
            \(scopeColumn.map { "    \($0) ANY,\n" } ?? "")    count INTEGER NOT NULL,
                PRIMARY KEY (substring\(scopeColumn.map { ", \($0)" } ?? ""))
            ) STRICT, WITHOUT ROWID;

            """
    }

    /// The statement of the triggers (``triggersSQL``) that adds `new.change` (1 or -1) to the counts
    /// of the row `new`: empty without ``substringCountsTable``.
    var substringCountsChangedRowSQL: [String] {
        guard let substringCountsTable else { return [] }
        let scope = scopeColumn.map { ", \($0)" } ?? ""
        return ["    INSERT INTO \(substringCountsTable)(substring\(scope), count) "
            + "SELECT DISTINCT substring\(scopeColumn.map { ", new.\($0)" } ?? ""), new.change FROM (\(heldSubstrings(substringCountsTable))) "
            + "WHERE true ON CONFLICT (substring\(scope)) DO UPDATE SET count = count + excluded.count;"]
    }

    /// The substrings `table` holds that the texts of the row `new` contain, as `substring` (each
    /// once per position that holds it). They are found, at each position, in one range of the
    /// table's key: those from the 3-scalar substring to the ``substringCountMaximumLength``-scalar
    /// one there, that are a prefix of the text from that position.
    private func heldSubstrings(_ table: String) -> String {
        "SELECT c.substring FROM (\(positions("new")) SELECT t, n FROM p) JOIN \(table) AS c "
            + "ON c.substring >= substr(t, n, 3) AND c.substring <= substr(t, n, \(Self.substringCountMaximumLength)) "
            + "AND c.substring = substr(t, n, length(c.substring))"
    }
}
