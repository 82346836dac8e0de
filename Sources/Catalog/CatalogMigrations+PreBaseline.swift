#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import SQLiteStore

extension CatalogMigrations {
    /// The catalog's migrations before the baseline, as files recorded them: version, name and
    /// checksum. A file at version 12 has exactly the baseline's schema (`BaselineSchemaTests`).
    static let preBaseline: [(version: Int, name: String, checksum: String)] = [
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

    /// Adopts the catalog file at `path` when its records are those of the migrations before the
    /// baseline: at version 12, in one transaction, its catalog records are replaced by the
    /// baseline's (applied when version 12 was); at an earlier version, or when the file cannot be
    /// written, it is left as it was. Any other file is left alone, for the migrator to judge.
    ///
    /// - Throws: ``CatalogError/preBaselineDatabase(version:adoptable:)`` when it is a pre-baseline
    ///   file that is not adopted; `DatabaseError` when it cannot be read or written.
    static func adoptPreBaseline(path: String, configuration: Configuration) throws {
        var configuration = configuration
        configuration.journalMode = nil
        let queue = try DatabaseQueue(path: path, configuration: configuration)
        defer { try? queue.close() }
        let readonly = configuration.isReadonly
        try queue.writeWithoutTransaction { db in
            try db.inTransaction(readonly ? .deferred : .immediate) {
                guard let version = try preBaselineVersion(db) else { return }
                guard version == preBaseline.count, !readonly else {
                    throw CatalogError.preBaselineDatabase(version: version, adoptable: version == preBaseline.count)
                }
                // The last record becomes the baseline's: applied when version 12 was.
                try db.execute(
                    sql: "DELETE FROM \(Migrator.tableName) WHERE migration_set = ? AND version < ?", arguments: [identity, version])
                try db.execute(
                    sql: "UPDATE \(Migrator.tableName) SET version = ?, name = ?, checksum = ? WHERE migration_set = ? AND version = ?",
                    arguments: [baseline.version, baseline.name, baseline.checksum, identity, version])
            }
        }
    }

    /// The catalog schema version of a file made by a development version before the baseline: the
    /// last of its catalog records when they are those of migrations 1 to some version; nil for any
    /// other file.
    ///
    /// - Throws: `DatabaseError` when the records cannot be read.
    public static func preBaselineVersion(_ db: Database) throws -> Int? {
        let records = try Migrator(sets: [set]).appliedMigrations(db).filter { $0.set == identity }
        guard let last = records.last, records.count <= preBaseline.count,
            zip(records, preBaseline).allSatisfy({ $0.version == $1.version && $0.name == $1.name && $0.checksum == $1.checksum })
        else { return nil }
        return last.version
    }
}
