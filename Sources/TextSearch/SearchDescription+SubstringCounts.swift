import SQLiteStore

extension SearchDescription {
    /// The fewest rows a substring of 3+ scalars must be in, when the set of ``substringCountsTable``
    /// is chosen, to be kept there, unless a description says otherwise
    /// (``substringCountMinimumRows``): 2,000. A term it leaves out is counted in the trigram index, at
    /// about 0.4 µs a matching row on 1,000,000 products (`charger`: 18,303 rows counted per type in
    /// 6-8 ms), so a term in fewer rows costs under a millisecond.
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
    /// The SQL that creates ``substringCountsTable``, empty, and the triggers that keep each of its
    /// counts exact as rows are inserted, updated and deleted (by any writer: they are SQL): for a
    /// migration, followed by ``refreshSubstringCounts(_:)``, which chooses the substrings it holds.
    /// Empty without ``substringCountsTable``.
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
    /// them. The substrings of a text the table holds are found, at each position, in one range of
    /// its key: those from the 3-scalar substring to the ``substringCountMaximumLength``-scalar one
    /// there, that are a prefix of the text from that position.
    public var substringCountsSQL: String {
        guard let substringCountsTable else { return "" }
        let scope = scopeColumn.map { ", \($0)" } ?? ""
        let held = { (row: String) in
            """
            SELECT DISTINCT counted.substring FROM (
                    \(positions(row))
                    SELECT text, n FROM positions
                    ) AS position JOIN \(substringCountsTable) AS counted
                        ON counted.substring >= substr(position.text, position.n, 3)
                        AND counted.substring <= substr(position.text, position.n, \(Self.substringCountMaximumLength))
                        AND counted.substring = substr(position.text, position.n, length(counted.substring))
            """
        }
        let insert = """
                INSERT INTO \(substringCountsTable)(substring\(scope), count)
                    SELECT substring\(scopeColumn.map { ", new.\($0)" } ?? ""), 1 FROM (
                    \(held("new"))
                    ) WHERE true
                    ON CONFLICT (substring\(scope)) DO UPDATE SET count = count + 1;
            """
        let delete = """
                UPDATE \(substringCountsTable) SET count = count - 1 WHERE substring IN (
                    \(held("old"))
                    )\(scopeColumn.map { " AND \($0) IS old.\($0)" } ?? "");
            """
        let watched = (textColumns + (scopeColumn.map { [$0] } ?? [])).joined(separator: ", ")
        return """
            CREATE TABLE \(substringCountsTable) (
                substring TEXT NOT NULL,
            \(scopeColumn.map { "    \($0) ANY,\n" } ?? "")    count INTEGER NOT NULL,
                PRIMARY KEY (substring\(scope))
            ) STRICT, WITHOUT ROWID;

            """ + maintainingTriggersSQL(named: Self.substringCountsName, insert: insert, delete: delete, watched: watched)
    }

    /// The name of the trigger of ``substringCountsSQL`` that counts an inserted row: the one a bulk
    /// insert drops, counting the new rows in Swift instead (``build(forRowsAfter:_:)``).
    public var substringCountsInsertTriggerName: String { maintainingTriggerName(Self.substringCountsName, after: "insert") }

    /// The name in the names of the triggers of ``substringCountsSQL``.
    private static let substringCountsName = "substring_counts"

    /// The SQL that drops ``substringCountsTable`` and its triggers; empty without it.
    public var dropSubstringCountsSQL: String {
        substringCountsTable.map { dropMaintainedTableSQL($0, named: Self.substringCountsName) } ?? ""
    }
}
