import SQLiteStore

/// The catalog's schema: the `.sql` files of the package's `Migrations/` folder, embedded at build time,
/// and the Swift migrations after them, as the migration set ``identity``.
public enum CatalogMigrations {
    /// The catalog's set in `schema_migrations`: `catalog`.
    public static let identity = "catalog"

    /// The migrations, in version order: the files, then `searchIndexes`, `gramsIndex`, `scopedFullTextIndex`, `scopedGramsIndex`, `substringCounts`, `gramBits` and `shorterTriggers`.
    public static let all: [Migration] = EmbeddedFiles.migrations.map { file in
        do { return try Migration(fileName: file.name, sql: file.text) } catch { fatalError("\(error)") }
    } + [searchIndexes, gramsIndex, scopedFullTextIndex, scopedGramsIndex, substringCounts, gramBits, shorterTriggers]

    /// The catalog's migration set: ``all`` under ``identity``.
    public static var set: MigrationSet {
        do { return try MigrationSet(identity: identity, migrations: all) } catch { fatalError("invalid embedded migrations: \(error)") }
    }

    /// A migrator for the catalog's set, then `additional` ones (an embedder's), in that order.
    ///
    /// - Throws: `MigrationError/duplicateSet(_:)` when an additional set is named ``identity`` or two
    ///   share a name.
    public static func migrator(with additional: [MigrationSet] = []) throws -> Migrator {
        try Migrator(sets: [set] + additional)
    }
}
