/// W1b's peer schema: what a user of raw SQLite or GRDB builds for a searchable product list — the
/// products table with its unique name and an FTS5 trigram index over the name (external content).
/// No folded column, no list indexes, no change log. Loaded two ways (``Load``).
public enum PlainFullTextSchema {
    /// How a peer loads its rows.
    public enum Load: Sendable, CaseIterable {
        /// As a user who cares about load speed does: into an empty database, the rows into the bare
        /// table (``bareTableSQL``), then UNIQUE(name) and the FTS5 index built in one statement each
        /// (``bulkIndexesSQL``); into a filled one, the rows with UNIQUE(name) in place, then the new
        /// rows added to the FTS5 index in one statement (``indexRowsSQL``).
        case bulk
        /// The index and UNIQUE(name) there first (``sql``), the index kept by a per-row trigger.
        case perRowTrigger
    }

    /// The schema with the index kept by the three usual triggers (``Load/perRowTrigger``).
    public static let sql = """
        CREATE TABLE products (
            id INTEGER PRIMARY KEY,
            type TEXT NOT NULL,
            name TEXT NOT NULL UNIQUE,
            year_introduced INTEGER NOT NULL,
            intro_price REAL NOT NULL
        );
        CREATE VIRTUAL TABLE products_fts USING fts5(name, content = 'products', content_rowid = 'id', tokenize = 'trigram');
        CREATE TRIGGER products_fts_insert AFTER INSERT ON products BEGIN
            INSERT INTO products_fts(rowid, name) VALUES (new.id, new.name);
        END;
        \(changeTriggersSQL)
        """

    /// The triggers that keep the index for updates and deletes, in either way of loading.
    static let changeTriggersSQL = """
        CREATE TRIGGER products_fts_delete AFTER DELETE ON products BEGIN
            INSERT INTO products_fts(products_fts, rowid, name) VALUES ('delete', old.id, old.name);
        END;
        CREATE TRIGGER products_fts_update AFTER UPDATE OF name ON products BEGIN
            INSERT INTO products_fts(products_fts, rowid, name) VALUES ('delete', old.id, old.name);
            INSERT INTO products_fts(rowid, name) VALUES (new.id, new.name);
        END;
        """

    /// The bare products table, for ``Load/bulk`` into an empty database.
    public static let bareTableSQL = """
        CREATE TABLE products (
            id INTEGER PRIMARY KEY,
            type TEXT NOT NULL,
            name TEXT NOT NULL,
            year_introduced INTEGER NOT NULL,
            intro_price REAL NOT NULL
        );
        """

    /// UNIQUE(name) and the FTS5 index built over the rows in one statement each, then the triggers
    /// that keep the index for later updates and deletes (``Load/bulk`` into an empty database).
    public static let bulkIndexesSQL = """
        CREATE UNIQUE INDEX products_name ON products(name);
        CREATE VIRTUAL TABLE products_fts USING fts5(name, content = 'products', content_rowid = 'id', tokenize = 'trigram');
        INSERT INTO products_fts(products_fts) VALUES ('rebuild');
        \(changeTriggersSQL)
        """

    /// The rows above id `highest` added to the FTS5 index in one statement (``Load/bulk`` into a
    /// filled database).
    public static func indexRowsSQL(after highest: Int64) -> String {
        "INSERT INTO products_fts(rowid, name) SELECT id, name FROM products WHERE id > \(highest)"
    }

    /// The highest id of the products table (0 when empty).
    public static let highestIDSQL = "SELECT ifnull(max(id), 0) FROM products"

    /// The insert of one product: type, name, year, price.
    public static let insertSQL = "INSERT INTO products(type, name, year_introduced, intro_price) VALUES (?, ?, ?, ?)"
}
