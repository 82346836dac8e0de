import Foundation
import SQLiteStore

/// Catalog files as the development versions before the baseline schema left them: their catalog
/// migration records are those of migrations 1 to `version`, as those versions wrote them (names
/// and checksums copied from a file they made).
public enum PreBaselineFile {
    /// The records of migrations 1-12: version, name, checksum.
    public static let records: [(Int, String, String)] = [
        (1, "create_products_and_phones", "b6c2e3550f9dff64"),
        (2, "search_exact_trigrams_and_short_grams", "fe4ed8e59c6aae92"),
        (3, "section_indexes", "7cfef3d06a9f36c9"),
        (4, "track_changes", "1324cdf4f8b3e3f1"),
        (5, "section_counts", "7ecc1ba593aa457f"),
        (6, "search_refold_and_generated_indexes", "4ab23784aac5a3ac"),
        (7, "search_grams_replace_suffixes", "88ec6bb8ec653788"),
        (8, "search_trigram_rowids_carry_type", "daefacd22e3bceec"),
        (9, "search_grams_rowids_carry_type", "2bd88982937628ff"),
        (10, "search_substring_counts", "c19dd6c7cad7e31d"),
        (11, "search_gram_bits", "a2b55de90eedf4be"),
        (12, "shorter_triggers", "b5cdf1facd94d587"),
    ]

    /// The time the records say migration 12 was applied.
    public static let appliedAt = Date(timeIntervalSince1970: 1_795_000_000)

    /// Replaces the catalog records of the closed catalog file at `path` by those of migrations 1 to
    /// `version`, and gives it back the index the baseline had and migration 2 dropped
    /// (`products_by_name`). At 12 the file is what a development version made (its schema is the
    /// baseline's).
    public static func rewrite(_ path: String, toVersion version: Int) throws {
        let queue = try DatabaseQueue(path: path)
        try queue.write { db in
            try db.execute(sql: "CREATE INDEX IF NOT EXISTS products_by_name ON products(name_folded, id)")
            try db.execute(sql: "DELETE FROM schema_migrations WHERE migration_set = 'catalog'")
            for (number, name, checksum) in records.prefix(version) {
                try db.execute(
                    sql: "INSERT INTO schema_migrations(migration_set, version, name, checksum, applied_at) VALUES ('catalog', ?, ?, ?, ?)",
                    arguments: [number, name, checksum, appliedAt])
            }
        }
        try queue.close()
    }
}
