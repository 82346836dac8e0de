import SQLiteStore
import TextSearch

extension CatalogMigrations {
    /// Migration 6: every name and maker folded again by ``TextFolding/fold(_:)`` (canonical
    /// equivalence, half-width voiced kana), and the search structures of migrations 1 and 2 replaced
    /// by those ``Product/searchDescription`` and ``Phone/searchDescription`` generate
    /// (``SearchDescription/installSQL``), built in bulk after the new folding.
    ///
    /// Its revision is the generated SQL: a change to what the descriptions generate makes databases
    /// that applied the old SQL report this migration as changed; add a migration instead.
    static let searchIndexes = Migration(
        version: 6, name: "search_refold_and_generated_indexes",
        revision: Product.searchDescription.installSQL + Phone.searchDescription.installSQL
    ) { db in
        try db.execute(sql: legacySearchStructures.map { "DROP \($0.kind) IF EXISTS \($0.name);\n" }.joined())
        try refold(db, table: "products", columns: ["name"])
        try refold(db, table: "phones", columns: ["name", "maker"])
        try db.execute(sql: Product.searchDescription.installSQL + Phone.searchDescription.installSQL)
    }

    /// The search triggers and tables of migrations 1 and 2.
    static let legacySearchStructures: [(kind: String, name: String)] =
        ["products_search", "products_suffixes", "products_gram_counts", "phones_search"].flatMap { prefix in
            ["insert", "delete", "update"].map { (kind: "TRIGGER", name: "\(prefix)_\($0)") }
        } + ["products_search", "products_suffixes", "products_gram_counts", "phones_search"].map { (kind: "TABLE", name: $0) }

    /// Writes `<column>_folded` = fold(`<column>`) where it differs.
    private static func refold(_ db: Database, table: String, columns: [String]) throws {
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
