import SQLiteStore

extension SearchDescription {
    /// Chooses again the substrings ``substringCountsTable`` counts (when `substringCounts`, as
    /// ``refreshSubstringCounts(_:)`` does), the grams ``gramBitsTable`` holds (when `gramBits`, as
    /// ``refreshGramBits(_:)`` does), or both, to the same tables as the two refreshes one after the
    /// other, with one pass over the table's texts fewer: the counts' first pass (every 3-scalar
    /// substring) reads them alone, and their second pass sets the bits too
    /// (``finishChosenSets(trigrams:gramBits:_:)``).
    ///
    /// The grams with bits are chosen from ``gramCountsTable`` after the first pass, so it must be up
    /// to date (as after a build).
    ///
    /// - Throws: `DatabaseError`.
    func refreshChosenSets(substringCounts: Bool, gramBits: Bool, _ db: Database) throws {
        let trigrams = substringCounts ? try startSubstringCountsRefresh(db) : nil
        if let trigrams {
            try forEachRowScalars(inIDOrder: false, db) { _, scalars, scope in trigrams.add(scalars, scope: scope) }
        }
        try finishChosenSets(trigrams: trigrams, gramBits: gramBits, db)
    }

    /// Ends choosing the sets again once `trigrams` (from ``startSubstringCountsRefresh(_:)``; nil: the
    /// substring counts are not chosen again) counted every row: one pass over the texts, each row's
    /// read to scalars once (``RowScalars``), counts the substrings made of the frequent trigrams and,
    /// when `gramBits`, sets the bits of the grams chosen from ``gramCountsTable`` (as
    /// ``startGramBitsRefresh(_:)`` chooses them); the frequent substrings and the bits are added to
    /// their tables after. A bulk build that chooses the sets again counts the trigrams while it
    /// makes the grams documents (``build(forRowsAfter:_:)``), and then runs this pass only.
    ///
    /// - Throws: `DatabaseError`.
    func finishChosenSets(trigrams: SubstringCounter?, gramBits: Bool, _ db: Database) throws {
        let frequentTrigrams = trigrams?.substrings(inAtLeast: substringCountMinimumRows) ?? []
        let substrings = frequentTrigrams.isEmpty ? nil : SubstringCounter(.madeOf(frequentTrigrams: frequentTrigrams))
        let bits = gramBits ? try startGramBitsRefresh(db) : nil
        if substrings != nil || bits != nil {
            // In id order when bits are set: each of their chunks filled once.
            try forEachRowScalars(inIDOrder: bits != nil, db) { id, scalars, scope in
                substrings?.add(scalars, scope: scope)
                bits?.add(id: id, scalars.values)
            }
        }
        if let substrings {
            let kept = substrings.substrings(inAtLeast: substringCountMinimumRows)
            try add(substrings.counts.lazy.filter { kept.contains($0.substring) }.map { ($0.substring.text, $0.scope, $0.count) }, db)
        }
        if let bits { try add(bits, db) }
    }

    /// Calls `body` with each row's id, texts (read to scalars; a NULL adds none) and scope value (NULL
    /// without a scope column), in id order when `inIDOrder`, else in the table's; only the rows whose
    /// id is `id` or below when `id` is given.
    func forEachRowScalars(
        inIDOrder: Bool, through id: Int64? = nil, _ db: Database, _ body: (Int64, RowScalars, DatabaseValue) throws -> Void
    ) throws {
        let columns = ([idColumn, scopeColumn ?? "NULL"] + textColumns.map { "CAST(\($0) AS TEXT)" }).joined(separator: ", ")
        let scalars = RowScalars()
        let condition = id.map { " WHERE \(idColumn) <= \($0)" } ?? ""
        try db.makeStatement(sql: "SELECT \(columns) FROM \(table)" + condition + (inIDOrder ? " ORDER BY \(idColumn)" : "")).forEachRow { row in
            scalars.load(try textColumns.indices.map { row.isNull(at: 2 + $0) ? nil : try row.decode(String.self, at: 2 + $0) })
            try body(try row.decode(Int64.self, at: 0), scalars, row.databaseValue(at: 1))
        }
    }
}
