import SQLiteStore
import TextSearch

extension CatalogMigrations {
    /// Migration 6: every name and maker folded again by ``TextFolding/fold(_:)`` (canonical
    /// equivalence, half-width voiced kana), and the search structures of migrations 1 and 2 replaced
    /// by those the search descriptions generated then (``suffixIndexSQL``), built in bulk after the
    /// new folding.
    ///
    /// Its revision is that SQL, frozen as it was applied; migration 7 replaces its suffix index. Its
    /// checksum, like that of every Swift migration of the catalog, is written here rather than
    /// computed from the revision in each process that opens a database (see
    /// ``SQLiteStore/Migration/init(version:name:revisionChecksum:apply:)``: building the generated
    /// SQL of migrations 7, 9 and 10 and hashing the five revisions took about 0.3 ms of a 6 ms
    /// `catalog show`, `perf record`, 2026-11-27); `CatalogMigrationChecksumTests` checks each against
    /// its revision (``revisions``).
    static let searchIndexes = Migration(
        version: 6, name: "search_refold_and_generated_indexes", revisionChecksum: "4ab23784aac5a3ac"
    ) { db in
        try db.execute(sql: legacySearchStructures.map { "DROP \($0.kind) IF EXISTS \($0.name);\n" }.joined())
        try refold(table: "products", columns: ["name"], db)
        try refold(table: "phones", columns: ["name", "maker"], db)
        try db.execute(sql: suffixIndexSQL)
    }

    /// Migration 7: the products' suffix index (about half of a large file) replaced in place by the
    /// grams index the products' search generated then (``SearchDescription/suffixIndexReplacementSQL``
    /// of the products' search without scope values), built in bulk in the migration's transaction; the trigram index and
    /// the gram counts stay.
    ///
    /// Its revision is that SQL, frozen as it was applied (``gramsIndexSQL``): a change to what a
    /// description generates no longer matches the checksum databases recorded
    /// (`CatalogMigrationChecksumTests` fails), so the old SQL is frozen and a migration added.
    static let gramsIndex = Migration(
        version: 7, name: "search_grams_replace_suffixes", revisionChecksum: "88ec6bb8ec653788"
    ) { db in
        try db.execute(sql: gramsIndexSQL)
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
        version: 8, name: "search_trigram_rowids_carry_type", revisionChecksum: "daefacd22e3bceec"
    ) { db in
        try db.execute(sql: scopedFullTextIndexSQL)
    }

    /// Migration 9: the products' grams index replaced in place by the one ``Product/searchDescription``
    /// generates (``SearchDescription/gramsReplacementSQL``): its rowids carry the type as the trigram
    /// index's do (``SearchDescription/indexRowID(of:)``), and its documents no longer hold a type
    /// token, so that several short terms are counted per type in rowid ranges of the index; built in
    /// bulk in the migration's transaction. The trigram index and the gram counts stay.
    ///
    /// Its revision is that SQL, frozen as it was applied (``scopedGramsIndexSQL``); migration 12
    /// replaces its triggers.
    static let scopedGramsIndex = Migration(
        version: 9, name: "search_grams_rowids_carry_type", revisionChecksum: "2bd88982937628ff"
    ) { db in
        try db.execute(sql: scopedGramsIndexSQL)
    }

    /// Migration 10: the counts of the products' frequent substrings (``SearchDescription/substringCountsSQL``
    /// of ``Product/searchDescription``: the table and its triggers), filled by
    /// ``SearchDescription/refreshSubstringCounts(_:)`` in the migration's transaction, so that a
    /// common term's count per type is one row each.
    ///
    /// Its revision is that SQL, frozen as it was applied (``substringCountsSQL``), and the refresh's
    /// two parameters; migration 12 replaces its triggers.
    static let substringCounts = Migration(
        version: 10, name: "search_substring_counts", revisionChecksum: "c19dd6c7cad7e31d"
    ) { db in
        try db.execute(sql: substringCountsSQL)
        try Product.searchDescription.refreshSubstringCounts(db)
    }

    /// Migration 11: the bits of the products' very common 1-scalar grams
    /// (``SearchDescription/gramBitsSQL`` of ``Product/searchDescription``: the table and its
    /// triggers), filled by ``SearchDescription/refreshGramBits(_:)`` in the migration's transaction,
    /// so that a search mixing such a letter with a longer term (`core m`) checks the longer term's
    /// rows by a bit each.
    ///
    /// Its revision is that SQL, frozen as it was applied (``gramBitsSQL``), and the refresh's
    /// parameter; migration 12 replaces its triggers.
    static let gramBits = Migration(
        version: 11, name: "search_gram_bits", revisionChecksum: "a2b55de90eedf4be"
    ) { db in
        try db.execute(sql: gramBitsSQL)
        try Product.searchDescription.refreshGramBits(db)
    }

    /// Migration 12: the triggers of the products' and phones' search structures and of the
    /// products' section counts replaced in place by the shorter ones their generators give now
    /// (``SearchDescription/triggersReplacementSQL``,
    /// `SectionCounts.countingTriggersReplacementSQL(forTable:columns:section:)`), so that each
    /// connection parses less SQL when it reads the schema. The new triggers change the same rows
    /// in the same way (`TriggerEquivalenceTests`), so no structure is rebuilt.
    ///
    /// Its revision is the generated SQL (``shorterTriggersSQL``): a change to what it generates no
    /// longer matches the checksum databases recorded (`CatalogMigrationChecksumTests` fails);
    /// freeze the old SQL (as migrations 6-11 do) and add a migration instead.
    static let shorterTriggers = Migration(
        version: 12, name: "shorter_triggers", revisionChecksum: "b5cdf1facd94d587"
    ) { db in
        try db.execute(sql: shorterTriggersSQL)
    }

    /// The SQL of migration 12: the products' and phones' search triggers and the products' section
    /// counts' triggers, replaced.
    static var shorterTriggersSQL: String {
        Product.searchDescription.triggersReplacementSQL + Phone.searchDescription.triggersReplacementSQL
            + SectionCounts.countingTriggersReplacementSQL(
                forTable: Product.tableName, columns: ["id"] + Product.declaration.storedColumns, section: "type")
    }

    /// The revision each Swift migration's checksum stands for, by version: the SQL it runs (with,
    /// for migrations 10 and 11, the refresh's parameters), as the code gives it now.
    ///
    /// Only for checking the checksums written in the migrations' declarations: a difference
    /// means the code no longer does what databases applied; freeze the old SQL and add a migration.
    public static var revisions: [Int: String] {
        [
            6: suffixIndexSQL,
            7: gramsIndexSQL,
            8: scopedFullTextIndexSQL,
            9: scopedGramsIndexSQL,
            10: substringCountsSQL
                + "-- refreshSubstringCounts: at least \(Product.searchDescription.substringCountMinimumRows) rows, "
                + "at most \(SearchDescription.substringCountMaximumLength) scalars\n",
            11: gramBitsSQL
                + "-- refreshGramBits: in at least 1/\(SearchDescription.gramBitsMinimumShare) of the rows\n",
            12: shorterTriggersSQL,
        ]
    }

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
