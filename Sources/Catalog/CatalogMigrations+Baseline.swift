import Entities
import SQLiteStore
import TextSearch

extension CatalogMigrations {
    /// Migration 1: the whole schema of a new catalog file. The products and phones tables and their
    /// list indexes (``tablesSQL``), the change log and its triggers (`ChangeLog`), the products'
    /// counts by type (`SectionCounts`), and the search structures and triggers that
    /// ``Product/searchDescription`` and ``Phone/searchDescription`` generate.
    ///
    /// Its revision is that SQL (``baselineSQL``), and its checksum is written here rather than
    /// computed from the revision in each process that opens a database; `CatalogMigrationChecksumTests`
    /// checks it. A change to what the generators give no longer matches the checksum files recorded:
    /// add a migration that changes the schema from the baseline's instead.
    ///
    /// On PostgreSQL it creates the same tables from the entities' declarations in PostgreSQL's
    /// dialect (``postgreSQLBaselineSQL``), under the same record: the step that stands for the
    /// baseline schema on either engine.
    static let baseline = Migration(version: 1, name: "baseline", revisionChecksum: "efc85384de1643ac") { (db: any SQLConnection) in
        switch db.dialect {
        case .sqlite: try db.execute(sql: baselineSQL, values: [])
        case .postgreSQL: try db.execute(sql: postgreSQLBaselineSQL, values: [])
        }
    }

    /// The baseline on PostgreSQL: the products and phones tables as `EntityTable` generates them in
    /// its dialect, with their change log and PostgreSQLSearch's structures. The FTS5 index is
    /// SQLite's; the products' counts by type come with migration 4 (``productCountsByType``).
    static var postgreSQLBaselineSQL: String {
        EntityTable(Product.self).createSQL(dialect: .postgreSQL) + EntityTable(Phone.self).createSQL(dialect: .postgreSQL)
    }

    /// The SQL of the baseline migration.
    public static var baselineSQL: String {
        tablesSQL
            + ChangeLog.installationSQL() + ChangeLog.trackingSQL(forTable: Product.tableName)
            + ChangeLog.trackingSQL(forTable: Phone.tableName)
            + SectionCounts.installationSQL()
            + SectionCounts.countingSQL(
                forTable: Product.tableName, columns: ["id"] + Product.declaration.storedColumns, section: "type")
            + Product.searchDescription.installSQL + Phone.searchDescription.installSQL
    }

    /// Products of Apple's "Simple/Advanced UISearchBar" samples, and a list of phones, with the
    /// indexes of their list orders. `name_folded` and `maker_folded` are the texts folded for search
    /// (case, diacritics and width removed) by the function the search uses, written with every row.
    static let tablesSQL = """
        CREATE TABLE products (
            id INTEGER PRIMARY KEY,
            type TEXT NOT NULL CHECK (type IN ('device', 'desktop', 'portable')),
            name TEXT NOT NULL UNIQUE CHECK (length(name) > 0),
            name_folded TEXT NOT NULL,
            year_introduced INTEGER NOT NULL,
            intro_price REAL NOT NULL CHECK (intro_price >= 0)
        ) STRICT;

        -- Sections by type, rows by name: the default list order.
        CREATE INDEX products_by_type_name ON products(type, name_folded, id);
        CREATE INDEX products_by_name ON products(name_folded, id);
        CREATE INDEX products_by_year ON products(year_introduced, id);
        CREATE INDEX products_by_price ON products(intro_price, id);

        CREATE TABLE phones (
            id INTEGER PRIMARY KEY,
            name TEXT NOT NULL UNIQUE CHECK (length(name) > 0),
            name_folded TEXT NOT NULL,
            maker TEXT NOT NULL,
            maker_folded TEXT NOT NULL,
            year_released INTEGER NOT NULL,
            operating_system TEXT NOT NULL,
            screen_inches REAL NOT NULL CHECK (screen_inches >= 0)
        ) STRICT;

        CREATE INDEX phones_by_name ON phones(name_folded, id);
        CREATE INDEX phones_by_maker ON phones(maker_folded, name_folded, id);
        CREATE INDEX phones_by_year ON phones(year_released, id);
        -- Sections of phones listed by name are the first character of the folded name (see
        -- FoldedInitial): an index of that expression reads a section's counts and pages in order.
        CREATE INDEX phones_by_initial ON phones(substr(name_folded, 1, 1), name_folded, id);

        """

    /// The revision each Swift migration's checksum stands for, by version: the SQL it runs, as the
    /// code gives it now.
    ///
    /// Only for checking the checksums written in the migrations' declarations: a difference
    /// means the code no longer does what databases applied; add a migration instead.
    public static var revisions: [Int: String] {
        [1: baselineSQL, 3: "index search grams of products, phones", 4: "count products by type on PostgreSQL",
         5: "index search pairs of products, phones", 6: "drop the products' older count function on PostgreSQL",
         7: "count the products' and phones' search by statement on PostgreSQL"]
    }
}
