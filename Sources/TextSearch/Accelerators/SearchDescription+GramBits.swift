import SQLiteStore

extension SearchDescription {
    /// How small a share of the rows a 1-scalar gram must be in, when the set of ``gramBitsTable``
    /// is chosen (``refreshGramBits(_:)``), to be held there: one sixteenth. A bit per id costs less
    /// than the grams index's entry of each row holding the gram from about that share on, and a
    /// rarer short term's doclist is read quickly enough (Footprint; W3 `3 a`).
    public static let gramBitsMinimumShare = 16

    /// The bits of ``gramBitsTable``'s row `(gram, chunk)`: 4 integers of 64 bits, the ids
    /// `chunk × 256` to `chunk × 256 + 255`; id `i` is bit `i & 63` of word `(i >> 6) & 3`. Four words
    /// a row take 45 bytes for 256 ids where one word a row takes about 20 bytes for 64 (SQLite's
    /// integers are 64 bits).
    static let gramBitsWords = 4

    /// The columns of the words of ``gramBitsTable``: `w0`, `w1`…
    static let gramBitsWordColumns = (0..<gramBitsWords).map { "w\($0)" }

    /// log₂ of the ids of one row of ``gramBitsTable``: 8 (``gramBitsWords`` × 64 = 256 ids).
    static let gramBitsChunkShift: Int64 = 8

    /// The SQL that creates ``gramBitsTable``, empty: for a migration, followed by
    /// ``refreshGramBits(_:)``, which chooses the grams it holds; the triggers of ``triggersSQL`` keep
    /// its bits exact as rows are inserted, updated and deleted (by any writer: they are SQL). Empty
    /// without ``gramBitsTable``.
    ///
    /// ```swift
    /// try db.execute(sql: films.gramBitsSQL)  // in a migration
    /// try films.refreshGramBits(db)
    /// ```
    ///
    /// The table holds rows `(gram, chunk, w0, w1, w2, w3)`: for each gram it holds (a 1-scalar text,
    /// not a space) and each `chunk`, bit `i & 63` of word `(i >> 6) & 3` is set exactly when the row of
    /// id `i` (with `i >> 8` = `chunk`) holds the gram in one of its texts (read up to a U+0000, as
    /// `substr()` reads it). A row inserted sets its bit in the rows of each gram it holds that the
    /// table holds (an upsert with SQLite's `|`, `<<`); a row deleted clears it (`&`, `~`), and a
    /// row of bits that falls to 0 stays, so that the grams the table holds are those with a row in
    /// it; an update does both. No trigger adds a gram: only ``refreshGramBits(_:)`` chooses them.
    public var gramBitsSQL: String {
        guard let gramBitsTable else { return "" }
        return """
            CREATE TABLE \(gramBitsTable) (
                gram TEXT NOT NULL,
                chunk INTEGER NOT NULL,
            \(Self.gramBitsWordColumns.map { "    \($0) INTEGER NOT NULL,\n" }.joined())    PRIMARY KEY (gram, chunk)
            ) STRICT, WITHOUT ROWID;

            """
    }

    /// The statement of the triggers (``triggersSQL``) that sets the bits of the row `new` when
    /// `new.change` is 1 and clears them when it is -1: empty without ``gramBitsTable``. The upsert
    /// makes each word `w & ~bit | bit` (set) or `w & ~bit | 0` (cleared), the row's bit in
    /// `excluded`; a row of bits is always there to clear (set with the row it clears).
    var gramBitsChangedRowSQL: [String] {
        guard let gramBitsTable else { return [] }
        let words = Self.gramBitsWordColumns
        let id = "new.\(idColumn)"
        let bits = words.indices.map { "((\(id) >> 6) & \(Self.gramBitsWords - 1) = \($0)) << (\(id) & 63)" }
        return ["    INSERT INTO \(gramBitsTable)(gram, chunk, \(words.joined(separator: ", "))) "
            + "SELECT DISTINCT g, \(id) >> \(Self.gramBitsChunkShift), \(bits.joined(separator: ", ")) "
            + "FROM (\(positions("new")) SELECT substr(t, n, 1) AS g FROM p WHERE substr(t, n, 1) <> ' ') "
            + "WHERE g IN (SELECT gram FROM \(gramBitsTable)) ON CONFLICT (gram, chunk) DO UPDATE SET "
            + words.map { "\($0) = \($0) & ~excluded.\($0) | excluded.\($0) * (new.change > 0)" }.joined(separator: ", ") + ";"]
    }

    /// Chooses again which grams ``gramBitsTable`` holds, and sets their bits: every 1-scalar gram
    /// that is not a space and that at least one ``gramBitsMinimumShare``-th of the rows hold (and
    /// at least one), as ``gramCountsTable`` counts them. For a migration (after ``gramBitsSQL``),
    /// after loading many rows (a bulk insert that at least doubles the table does it:
    /// ``build(forRowsAfter:_:)``), or when the texts have changed much since; the bits stay exact in
    /// between whatever it chose.
    ///
    /// ```swift
    /// try films.refreshGramBits(db)  // in a write
    /// ```
    ///
    /// One pass over the table's texts in id order, in Swift, the bits written in the table's order.
    /// A bulk load that chooses the sets again makes it the second pass of the substring counts too
    /// (`finishChosenSets(trigrams:gramBits:_:)`).
    ///
    /// - Complexity: O(n · L) for n rows of texts of L scalars.
    /// - Throws: `DatabaseError`.
    public func refreshGramBits(_ db: Database) throws {
        try refreshChosenSets(substringCounts: false, gramBits: true, db)
    }

    /// Empties ``gramBitsTable`` for ``refreshGramBits(_:)``, chooses its grams from
    /// ``gramCountsTable``, and returns their bits, to be set from each row's texts and then added to
    /// the table; nil without either table or when no gram is chosen.
    func startGramBitsRefresh(_ db: Database) throws -> GramBits? {
        guard let gramBitsTable, let gramCountsTable else { return nil }
        try db.execute(sql: "DELETE FROM \(gramBitsTable)")
        let rows = try db.scalar(Int.self, sql: "SELECT count(*) FROM \(table)") ?? 0
        let minimum = max(1, (rows + Self.gramBitsMinimumShare - 1) / Self.gramBitsMinimumShare)
        let grams = try db.fetchAll(
            sql: "SELECT gram FROM \(gramCountsTable) WHERE length(gram) = 1 AND gram <> ' ' GROUP BY gram HAVING sum(count) >= ?",
            arguments: [minimum]
        ) { try $0.decode(String.self, at: 0) }
        guard !grams.isEmpty else { return nil }
        return GramBits(grams: grams.compactMap { $0.unicodeScalars.first?.value })
    }

    /// The grams ``gramBitsTable`` holds, as their scalars' values; empty without it.
    ///
    /// Each gram is found by one search of the table's primary key past the one before (the
    /// smallest gram above it), not by reading the table: it holds a row per gram and chunk of 256
    /// ids. The grams it holds are
    /// those with a row in it, whatever their bits (no trigger deletes a row); ``gramCountsTable``
    /// cannot name them, as its counts move on after the set is chosen.
    func heldGramBitsGrams(_ db: Database) throws -> [UInt32] {
        guard let gramBitsTable else { return [] }
        return try db.fetchAll(sql: """
            WITH RECURSIVE held(gram) AS (
                SELECT min(gram) FROM \(gramBitsTable)
                UNION ALL
                SELECT (SELECT min(gram) FROM \(gramBitsTable) WHERE gram > held.gram) FROM held WHERE held.gram IS NOT NULL
            )
            SELECT gram FROM held WHERE gram IS NOT NULL
            """) { try $0.decode(String.self, at: 0) }
            .compactMap { $0.unicodeScalars.first?.value }
    }

    /// Sets in ``gramBitsTable`` the bits `bits` collected, in the table's order.
    func add(_ bits: GramBits, _ db: Database) throws {
        guard let gramBitsTable else { return }
        let words = Self.gramBitsWordColumns
        let add = try db.makeStatement(sql: """
            INSERT INTO \(gramBitsTable)(gram, chunk, \(words.joined(separator: ", "))) VALUES (?, ?\(String(repeating: ", ?", count: words.count)))
                ON CONFLICT (gram, chunk) DO UPDATE SET \(words.map { "\($0) = \($0) | excluded.\($0)" }.joined(separator: ", "))
            """)
        for entry in bits.rows() {
            try add.execute(arguments: StatementArguments(
                [entry.gram as any DatabaseValueConvertible, entry.chunk] + entry.words.map { Int64(bitPattern: $0) }))
        }
    }
}
