import SQLiteStore

extension SearchDescription {
    /// Chooses again which substrings ``substringCountsTable`` counts, and counts them: every
    /// substring of 3 to ``substringCountMaximumLength`` scalars without a space that at least
    /// ``substringCountMinimumRows`` rows hold, with its rows per scope value (values with none left
    /// out). For a migration (after ``substringCountsSQL``), after loading many rows (a bulk insert
    /// that at least doubles the table does it: ``build(forRowsAfter:_:)``), or when the texts have
    /// changed much since; the counts stay exact in between whatever it chose.
    ///
    /// ```swift
    /// try films.refreshSubstringCounts(db)  // in a write
    /// ```
    ///
    /// Two passes over the table's texts, in Swift: the rows of each 3-scalar substring, then the
    /// rows of each longer substring whose 3-scalar substrings are all frequent (no substring is in
    /// more rows than its parts).
    /// A bulk load that chooses the sets again makes the second pass the one of ``refreshGramBits(_:)``
    /// too (`finishChosenSets(trigrams:gramBits:_:)`).
    ///
    /// - Complexity: O(n · L · ``substringCountMaximumLength``) for n rows of texts of L scalars;
    ///   memory O(distinct substrings made of frequent trigrams).
    /// - Throws: `DatabaseError`.
    public func refreshSubstringCounts(_ db: Database) throws {
        try refreshChosenSets(substringCounts: true, gramBits: false, db)
    }

    /// Empties ``substringCountsTable`` for ``refreshSubstringCounts(_:)``, and returns the counter
    /// of its first pass (every 3-scalar substring), to be given each row's texts; nil without the table.
    func startSubstringCountsRefresh(_ db: Database) throws -> SubstringCounter? {
        guard let substringCountsTable else { return nil }
        try db.execute(sql: "DELETE FROM \(substringCountsTable)")
        return SubstringCounter(.trigrams)
    }

    /// A counter of the substrings ``substringCountsTable`` holds, for a bulk insert's new rows and for
    /// ``indexProblems(foldedFrom:_:)``'s recount; nil without the table.
    func heldSubstringCounter(_ db: Database) throws -> HeldSubstringCounter? {
        guard let substringCountsTable else { return nil }
        return HeldSubstringCounter(try db.fetchAll(sql: "SELECT DISTINCT substring FROM \(substringCountsTable)") { row in
            try row.decode(String.self, at: 0)
        })
    }

    /// Adds `counts` (rows per substring and scope value) to ``substringCountsTable``.
    func add(_ counts: some Sequence<(substring: String, scope: DatabaseValue, count: Int)>, _ db: Database) throws {
        guard let substringCountsTable else { return }
        let columns = "substring" + (scopeColumn.map { ", \($0)" } ?? "")
        let add = try db.makeStatement(sql: """
            INSERT INTO \(substringCountsTable)(\(columns), count) VALUES (?, \(scopeColumn == nil ? "" : "?, ")?)
                ON CONFLICT (\(columns)) DO UPDATE SET count = count + excluded.count
            """)
        for (substring, scope, count) in counts {
            let arguments: StatementArguments = scopeColumn == nil ? [substring, count] : [substring, scope, count]
            try add.execute(arguments: arguments)
        }
    }

}
