import PostgreSQLSearch
import SQLiteStore

/// The catalog's schema: the baseline (migration 1, the whole schema of a new file), then the `.sql`
/// files of the package's `Migrations/` folder (embedded at build time, numbered from 2), as the
/// migration set ``identity``.
///
/// A file made by a development version before the baseline records that version's migrations
/// instead: at its version 12, whose schema is the baseline's, a store opened for writing adopts it
/// (its catalog records become the baseline's, in one transaction); an earlier one is refused with
/// ``CatalogError/preBaselineDatabase(version:adoptable:)`` and left as it was.
public enum CatalogMigrations {
    /// The catalog's set in `schema_migrations`: `catalog`.
    public static let identity = "catalog"

    /// The migrations, in version order: the baseline, then the files.
    public static let all: [Migration] = [baseline] + EmbeddedFiles.migrations.map { file in
        do { return try Migration(fileName: file.name, sql: file.text) } catch { fatalError("\(error)") }
    } + [searchGramsIndex, productCountsByType, searchPairsIndex, olderCountFunction, searchCountsByStatement]

    /// Migration 3: on PostgreSQL, the products' and phones' grams move from a column of each table
    /// to an index of its texts (W3 on PostgreSQL); SQLite files and servers made after it are left
    /// as they are.
    static let searchGramsIndex = Migration.indexingSearchGrams(of: [Product.self, Phone.self], version: 3)

    /// Migration 4: on PostgreSQL, the products' counts by type (`SectionCounts`), which SQLite's
    /// baseline has, counted from the rows; a server that has them already counts them again.
    static let productCountsByType = Migration(
        version: 4, name: "count_products_by_type", revision: "count products by type on PostgreSQL"
    ) { (db: any SQLConnection) in
        try SectionCounts.installCounting(forTable: Product.tableName, section: "type", in: db)
    }.applyingOnly(on: .postgreSQL)

    /// Migration 5: on PostgreSQL, the products' and phones' grams index becomes the index of their
    /// pairs (PostgreSQLSearch's `gramsFunction` of built-in functions, W1b on PostgreSQL); SQLite files
    /// and servers made after it are left as they are.
    static let searchPairsIndex = Migration.indexingSearchGrams(of: [Product.self, Phone.self], version: 5, name: "index_search_pairs")

    /// Migration 6: on PostgreSQL, drops the function that counted the products by type under the
    /// name it had before `SectionCounts` named it by a hash: a server counted then kept it, unused,
    /// once migration 4 counted them again under the new name. SQLite files only record it.
    static let olderCountFunction = Migration(
        version: 6, name: "drop_older_count_function", revision: "drop the products' older count function on PostgreSQL"
    ) { (db: any SQLConnection) in
        let older = SectionCounts.triggerPrefix(forTable: Product.tableName, section: "type")
        try db.execute(sql: "DROP FUNCTION IF EXISTS \(SQLText.identifier(older))()", values: [])
    }.applyingOnly(on: .postgreSQL)

    /// Migration 7: on PostgreSQL, the products' and phones' search counts rows inserted and deleted
    /// once a statement (PostgreSQLSearch's kept counts, W1b on PostgreSQL): their searches are
    /// installed again from their rows, with the triggers that do. SQLite files only record it.
    static let searchCountsByStatement = Migration(
        version: 7, name: "count_search_by_statement", revision: "count the products' and phones' search by statement on PostgreSQL"
    ) { (db: any SQLConnection) in
        for search in [Product.searchDescription, Phone.searchDescription].map(PostgreSQLTextSearch.init) {
            try db.execute(sql: search.uninstallSQL + search.installSQL, values: [])
            try search.refreshSubstringCounts(db)
        }
    }.applyingOnly(on: .postgreSQL)

    /// The catalog's migration set: ``all`` under ``identity``.
    public static var set: MigrationSet { MigrationSet(identity: identity, migrations: all) }

    /// A migrator for the catalog's set, then `additional` ones (an embedder's), in that order.
    ///
    /// - Throws: `MigrationError/duplicateSet(_:)` when an additional set is named ``identity`` or two
    ///   share a name.
    public static func migrator(with additional: [MigrationSet] = []) throws -> Migrator {
        try Migrator(sets: [set] + additional)
    }
}
