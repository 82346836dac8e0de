import SQLiteStore

extension SearchDescription {
    /// Chooses again the substrings ``substringCountsTable`` counts (when `substringCounts`, as
    /// ``refreshSubstringCounts(_:)`` does), the grams ``gramBitsTable`` holds (when `gramBits`, as
    /// ``refreshGramBits(_:)`` does), or both, to the same tables as the two refreshes one after the
    /// other, with one pass over the table's texts fewer: one pass feeds both the counts' first pass
    /// (every 3-scalar substring) and the bits, each row's texts read to scalars once for both
    /// (``RowScalars``); the counts' second pass reads them again. Both for a bulk load that chooses
    /// the sets again (``build(forRowsAfter:_:)``).
    ///
    /// The grams with bits are chosen from ``gramCountsTable`` before the pass, so it must be up to
    /// date (as after a build).
    ///
    /// - Throws: `DatabaseError`.
    func refreshChosenSets(substringCounts: Bool, gramBits: Bool, _ db: Database) throws {
        let trigrams = substringCounts ? try startSubstringCountsRefresh(db) : nil
        let bits = gramBits ? try startGramBitsRefresh(db) : nil
        if trigrams != nil || bits != nil {
            // In id order when bits are set: each of their chunks filled once.
            try forEachRowScalars(inIDOrder: bits != nil, db) { id, scalars, scope in
                trigrams?.add(scalars, scope: scope)
                bits?.add(id: id, scalars.values)
            }
        }
        if let trigrams { try finishSubstringCountsRefresh(trigrams, db) }
        if let bits { try add(bits, db) }
    }

    /// Calls `body` with each row's id, texts (read to scalars; a NULL adds none) and scope value (NULL
    /// without a scope column), in id order when `inIDOrder`, else in the table's.
    func forEachRowScalars(
        inIDOrder: Bool, _ db: Database, _ body: (Int64, RowScalars, DatabaseValue) throws -> Void
    ) throws {
        let columns = ([idColumn, scopeColumn ?? "NULL"] + textColumns.map { "CAST(\($0) AS TEXT)" }).joined(separator: ", ")
        let scalars = RowScalars()
        try db.makeStatement(sql: "SELECT \(columns) FROM \(table)" + (inIDOrder ? " ORDER BY \(idColumn)" : "")).forEachRow { row in
            scalars.load(try textColumns.indices.map { row.isNull(at: 2 + $0) ? nil : try row.decode(String.self, at: 2 + $0) })
            try body(try row.decode(Int64.self, at: 0), scalars, row.databaseValue(at: 1))
        }
    }
}
