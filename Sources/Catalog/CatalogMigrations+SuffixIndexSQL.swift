extension CatalogMigrations {
    /// The SQL migration 6 ran and recorded as its revision: what `SearchDescription.installSQL` generated
    /// for products and phones when the search index was a table of suffixes. Frozen here, so that
    /// databases that applied migration 6 keep its checksum; migration 7 replaces the suffix index.
    static let suffixIndexSQL = #"""
    CREATE VIRTUAL TABLE products_search USING fts5(
        name_folded, content = 'products', content_rowid = 'id', tokenize = 'trigram case_sensitive 1'
    );
    CREATE TABLE products_suffixes (
        suffix TEXT NOT NULL,
        id INTEGER NOT NULL,
        PRIMARY KEY (suffix, id)
    ) STRICT, WITHOUT ROWID;
    CREATE TABLE products_gram_counts (
        gram TEXT NOT NULL,
        type ANY,
        count INTEGER NOT NULL,
        PRIMARY KEY (gram, type)
    ) STRICT, WITHOUT ROWID;
    INSERT INTO products_search(products_search) VALUES ('rebuild');
    INSERT OR IGNORE INTO products_suffixes(suffix, id)
        WITH RECURSIVE positions(id, scope, text, n) AS (
            SELECT id AS id, type AS scope, name_folded AS text, 1 AS n FROM products WHERE length(name_folded) > 0
            UNION ALL
            SELECT id, scope, text, n + 1 FROM positions WHERE n < length(text)
        )
        SELECT substr(text, n, 8), id FROM positions WHERE substr(text, n, 1) <> ' ';
    INSERT INTO products_gram_counts(gram, type, count)
        SELECT gram, scope, count(*) FROM (
        WITH RECURSIVE positions(id, scope, text, n) AS (
            SELECT id AS id, type AS scope, name_folded AS text, 1 AS n FROM products WHERE length(name_folded) > 0
            UNION ALL
            SELECT id, scope, text, n + 1 FROM positions WHERE n < length(text)
        )
        SELECT substr(text, n, 1) AS gram, id, scope FROM positions
        UNION
        SELECT substr(text, n, 2) AS gram, id, scope FROM positions WHERE n < length(text)
        ) GROUP BY gram, scope;
    CREATE TRIGGER products_search_insert AFTER INSERT ON products BEGIN
        INSERT INTO products_search(rowid, name_folded) VALUES (new.id, new.name_folded);
        INSERT OR IGNORE INTO products_suffixes(suffix, id)
            WITH RECURSIVE positions(text, n) AS (
                SELECT new.name_folded, 1 WHERE length(new.name_folded) > 0
                UNION ALL
                SELECT text, n + 1 FROM positions WHERE n < length(text)
            )
            SELECT substr(text, n, 8), new.id FROM positions WHERE substr(text, n, 1) <> ' ';
        INSERT INTO products_gram_counts(gram, type, count)
            SELECT gram, new.type, 1 FROM (
            WITH RECURSIVE positions(text, n) AS (
                SELECT new.name_folded, 1 WHERE length(new.name_folded) > 0
                UNION ALL
                SELECT text, n + 1 FROM positions WHERE n < length(text)
            )
            SELECT substr(text, n, 1) AS gram FROM positions
            UNION
            SELECT substr(text, n, 2) AS gram FROM positions WHERE n < length(text)
            ) WHERE true
            ON CONFLICT (gram, type) DO UPDATE SET count = count + 1;
    END;
    CREATE TRIGGER products_search_delete AFTER DELETE ON products BEGIN
        INSERT INTO products_search(products_search, rowid, name_folded) VALUES ('delete', old.id, old.name_folded);
        DELETE FROM products_suffixes WHERE id = old.id AND suffix IN (
            WITH RECURSIVE positions(text, n) AS (
                SELECT old.name_folded, 1 WHERE length(old.name_folded) > 0
                UNION ALL
                SELECT text, n + 1 FROM positions WHERE n < length(text)
            )
            SELECT substr(text, n, 8) FROM positions
        );
        UPDATE products_gram_counts SET count = count - 1 WHERE gram IN (
            WITH RECURSIVE positions(text, n) AS (
                SELECT old.name_folded, 1 WHERE length(old.name_folded) > 0
                UNION ALL
                SELECT text, n + 1 FROM positions WHERE n < length(text)
            )
            SELECT substr(text, n, 1) AS gram FROM positions
            UNION
            SELECT substr(text, n, 2) AS gram FROM positions WHERE n < length(text)
        ) AND type IS old.type;
    END;
    CREATE TRIGGER products_search_update AFTER UPDATE OF name_folded, type ON products BEGIN
        INSERT INTO products_search(products_search, rowid, name_folded) VALUES ('delete', old.id, old.name_folded);
        DELETE FROM products_suffixes WHERE id = old.id AND suffix IN (
            WITH RECURSIVE positions(text, n) AS (
                SELECT old.name_folded, 1 WHERE length(old.name_folded) > 0
                UNION ALL
                SELECT text, n + 1 FROM positions WHERE n < length(text)
            )
            SELECT substr(text, n, 8) FROM positions
        );
        UPDATE products_gram_counts SET count = count - 1 WHERE gram IN (
            WITH RECURSIVE positions(text, n) AS (
                SELECT old.name_folded, 1 WHERE length(old.name_folded) > 0
                UNION ALL
                SELECT text, n + 1 FROM positions WHERE n < length(text)
            )
            SELECT substr(text, n, 1) AS gram FROM positions
            UNION
            SELECT substr(text, n, 2) AS gram FROM positions WHERE n < length(text)
        ) AND type IS old.type;
        INSERT INTO products_search(rowid, name_folded) VALUES (new.id, new.name_folded);
        INSERT OR IGNORE INTO products_suffixes(suffix, id)
            WITH RECURSIVE positions(text, n) AS (
                SELECT new.name_folded, 1 WHERE length(new.name_folded) > 0
                UNION ALL
                SELECT text, n + 1 FROM positions WHERE n < length(text)
            )
            SELECT substr(text, n, 8), new.id FROM positions WHERE substr(text, n, 1) <> ' ';
        INSERT INTO products_gram_counts(gram, type, count)
            SELECT gram, new.type, 1 FROM (
            WITH RECURSIVE positions(text, n) AS (
                SELECT new.name_folded, 1 WHERE length(new.name_folded) > 0
                UNION ALL
                SELECT text, n + 1 FROM positions WHERE n < length(text)
            )
            SELECT substr(text, n, 1) AS gram FROM positions
            UNION
            SELECT substr(text, n, 2) AS gram FROM positions WHERE n < length(text)
            ) WHERE true
            ON CONFLICT (gram, type) DO UPDATE SET count = count + 1;
    END;
    CREATE VIRTUAL TABLE phones_search USING fts5(
        name_folded, maker_folded, content = 'phones', content_rowid = 'id', tokenize = 'trigram case_sensitive 1'
    );
    INSERT INTO phones_search(phones_search) VALUES ('rebuild');
    CREATE TRIGGER phones_search_insert AFTER INSERT ON phones BEGIN
        INSERT INTO phones_search(rowid, name_folded, maker_folded) VALUES (new.id, new.name_folded, new.maker_folded);
    END;
    CREATE TRIGGER phones_search_delete AFTER DELETE ON phones BEGIN
        INSERT INTO phones_search(phones_search, rowid, name_folded, maker_folded) VALUES ('delete', old.id, old.name_folded, old.maker_folded);
    END;
    CREATE TRIGGER phones_search_update AFTER UPDATE OF name_folded, maker_folded ON phones BEGIN
        INSERT INTO phones_search(phones_search, rowid, name_folded, maker_folded) VALUES ('delete', old.id, old.name_folded, old.maker_folded);
        INSERT INTO phones_search(rowid, name_folded, maker_folded) VALUES (new.id, new.name_folded, new.maker_folded);
    END;

    """#
}
