import SQLiteStore
import TextSearch

extension CatalogMigrations {
    /// Migration 6: every name and maker folded again by ``TextFolding/fold(_:)`` (canonical
    /// equivalence, half-width voiced kana), and the search structures of migrations 1 and 2 replaced
    /// by those the search descriptions generated then (``suffixIndexSQL``), built in bulk after the
    /// new folding.
    ///
    /// Its revision is that SQL, frozen as it was applied; migration 7 replaces its suffix index.
    static let searchIndexes = Migration(
        version: 6, name: "search_refold_and_generated_indexes", revision: suffixIndexSQL
    ) { db in
        try db.execute(sql: legacySearchStructures.map { "DROP \($0.kind) IF EXISTS \($0.name);\n" }.joined())
        try refold(table: "products", columns: ["name"], db)
        try refold(table: "phones", columns: ["name", "maker"], db)
        try db.execute(sql: suffixIndexSQL)
    }

    /// Migration 7: the products' suffix index (about half of a large file) replaced in place by the
    /// grams index the products' search generated then (``SearchDescription/suffixIndexReplacementSQL``
    /// of ``gramsIndexSearch``), built in bulk in the migration's transaction; the trigram index and
    /// the gram counts stay.
    ///
    /// Its revision is that generated SQL: a change to what it generates makes databases that applied
    /// the old SQL report this migration as changed; freeze the old SQL (as migration 6 does) and add a
    /// migration instead.
    static let gramsIndex = Migration(
        version: 7, name: "search_grams_replace_suffixes", revision: gramsIndexSearch.suffixIndexReplacementSQL
    ) { db in
        try db.execute(sql: gramsIndexSearch.suffixIndexReplacementSQL)
    }

    /// Migration 8: the products' trigram index replaced in place by the one ``Product/searchDescription``
    /// generates (``SearchDescription/fullTextReplacementSQL``): a contentless table without column
    /// sizes whose rowids carry the type (``SearchDescription/indexRowID(of:)``), so that a term's
    /// count per type is read from the index alone; built in bulk in the migration's transaction.
    /// The grams index and the gram counts stay.
    ///
    /// Its revision is that SQL, frozen as it was applied (``scopedFullTextIndexSQL``); migration 9
    /// replaces its grams index.
    static let scopedFullTextIndex = Migration(
        version: 8, name: "search_trigram_rowids_carry_type", revision: scopedFullTextIndexSQL
    ) { db in
        try db.execute(sql: scopedFullTextIndexSQL)
    }

    /// Migration 9: the products' grams index replaced in place by the one ``Product/searchDescription``
    /// generates (``SearchDescription/gramsReplacementSQL``): its rowids carry the type as the trigram
    /// index's do (``SearchDescription/indexRowID(of:)``), and its documents no longer hold a type
    /// token, so that several short terms are counted per type in rowid ranges of the index; built in
    /// bulk in the migration's transaction. The trigram index and the gram counts stay.
    ///
    /// Its revision is the generated SQL (see ``gramsIndex``).
    static let scopedGramsIndex = Migration(
        version: 9, name: "search_grams_rowids_carry_type", revision: Product.searchDescription.gramsReplacementSQL
    ) { db in
        try db.execute(sql: Product.searchDescription.gramsReplacementSQL)
    }

    /// Migration 10: the counts of the products' frequent substrings (``SearchDescription/substringCountsSQL``
    /// of ``Product/searchDescription``: the table and its triggers), filled by
    /// ``SearchDescription/refreshSubstringCounts(_:)`` in the migration's transaction, so that a
    /// common term's count per type is one row each.
    ///
    /// Its revision is the generated SQL and the refresh's two parameters (see ``gramsIndex``).
    static let substringCounts = Migration(
        version: 10, name: "search_substring_counts",
        revision: Product.searchDescription.substringCountsSQL
            + "-- refreshSubstringCounts: at least \(Product.searchDescription.substringCountMinimumRows) rows, "
            + "at most \(SearchDescription.substringCountMaximumLength) scalars\n"
    ) { db in
        try db.execute(sql: Product.searchDescription.substringCountsSQL)
        try Product.searchDescription.refreshSubstringCounts(db)
    }

    /// Migration 11: the bits of the products' very common 1-scalar grams
    /// (``SearchDescription/gramBitsSQL`` of ``Product/searchDescription``: the table and its
    /// triggers), filled by ``SearchDescription/refreshGramBits(_:)`` in the migration's transaction,
    /// so that a search mixing such a letter with a longer term (`core m`) checks the longer term's
    /// rows by a bit each.
    ///
    /// Its revision is the generated SQL and the refresh's parameter (see ``gramsIndex``).
    static let gramBits = Migration(
        version: 11, name: "search_gram_bits",
        revision: Product.searchDescription.gramBitsSQL
            + "-- refreshGramBits: in at least 1/\(SearchDescription.gramBitsMinimumShare) of the rows\n"
    ) { db in
        try db.execute(sql: Product.searchDescription.gramBitsSQL)
        try Product.searchDescription.refreshGramBits(db)
    }

    /// The products' search as migrations 6 and 7 installed it: ``Product/searchDescription`` without
    /// scope values, so that the trigram index's rowids are the ids.
    static let gramsIndexSearch: SearchDescription = {
        let search = Product.searchDescription
        return SearchDescription(
            table: search.table, idColumn: search.idColumn, textColumns: search.textColumns,
            numberColumns: search.numberColumns, scopeColumn: search.scopeColumn, listIndex: search.listIndex,
            indexesShortTerms: search.indexesShortTerms)
    }()

    /// The search triggers and tables of migrations 1 and 2.
    static let legacySearchStructures: [(kind: String, name: String)] =
        ["products_search", "products_suffixes", "products_gram_counts", "phones_search"].flatMap { prefix in
            ["insert", "delete", "update"].map { (kind: "TRIGGER", name: "\(prefix)_\($0)") }
        } + ["products_search", "products_suffixes", "products_gram_counts", "phones_search"].map { (kind: "TABLE", name: $0) }

    /// Writes `<column>_folded` = fold(`<column>`) where it differs.
    private static func refold(table: String, columns: [String], _ db: Database) throws {
        let rows = try db.fetchAll(sql: "SELECT id, \(columns.flatMap { [$0, $0 + "_folded"] }.joined(separator: ", ")) FROM \(table)") { row in
            (id: try row.decode(Int64.self, at: 0), texts: try (1...(2 * columns.count)).map { try row.decode(String.self, at: $0) })
        }
        let update = try db.cachedStatement(
            sql: "UPDATE \(table) SET \(columns.map { "\($0)_folded = ?" }.joined(separator: ", ")) WHERE id = ?")
        for row in rows {
            let folded = stride(from: 0, to: row.texts.count, by: 2).map { TextFolding.fold(row.texts[$0]) }
            let stored = stride(from: 1, to: row.texts.count, by: 2).map { row.texts[$0] }
            guard !folded.elementsEqual(stored, by: { Array($0.utf8) == Array($1.utf8) }) else { continue }
            try update.execute(arguments: StatementArguments(folded.map { $0 as any DatabaseValueConvertible }) + [row.id])
        }
    }
}
