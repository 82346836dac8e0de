/// W1b's peer schema: what a user of raw SQLite or GRDB builds for a searchable product list — the
/// products table with its unique name and an FTS5 trigram index over the name (external content),
/// kept by the three usual triggers. No folded column, no list indexes, no change log.
public enum PlainFullTextSchema {
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
        CREATE TRIGGER products_fts_delete AFTER DELETE ON products BEGIN
            INSERT INTO products_fts(products_fts, rowid, name) VALUES ('delete', old.id, old.name);
        END;
        CREATE TRIGGER products_fts_update AFTER UPDATE OF name ON products BEGIN
            INSERT INTO products_fts(products_fts, rowid, name) VALUES ('delete', old.id, old.name);
            INSERT INTO products_fts(rowid, name) VALUES (new.id, new.name);
        END;
        """

    /// The insert of one product: type, name, year, price.
    public static let insertSQL = "INSERT INTO products(type, name, year_introduced, intro_price) VALUES (?, ?, ?, ?)"
}
