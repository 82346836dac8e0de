extension CatalogMigrations {
    /// The SQL of migration 7 as it was applied (``SearchDescription/suffixIndexReplacementSQL`` of
    /// the products' search without scope values then: the grams index in place of the suffix
    /// index, and the search triggers of that time), frozen: migration 12 replaced those triggers
    /// by the shorter ones the descriptions generate now, and databases that applied migration 7
    /// recorded this SQL's checksum.
    static let gramsIndexSQL = #"""
DROP TRIGGER IF EXISTS products_search_insert;
DROP TRIGGER IF EXISTS products_search_delete;
DROP TRIGGER IF EXISTS products_search_update;
DROP TABLE IF EXISTS products_suffixes;
CREATE VIRTUAL TABLE products_grams USING fts5(grams, content = '', detail = none, columnsize = 0);
INSERT INTO products_grams(rowid, grams)
    SELECT id, coalesce((SELECT group_concat(token, ' ') FROM (SELECT DISTINCT token FROM (
        WITH RECURSIVE positions(text, n) AS (
            SELECT products.name_folded, 1 WHERE length(products.name_folded) > 0
            UNION ALL
            SELECT text, n + 1 FROM positions WHERE n < length(text)
        )
        SELECT hex(substr(text, n, 1)) AS token FROM positions WHERE substr(text, n, 1) <> ' '
        UNION ALL
        SELECT hex(substr(text, n, 2)) FROM positions WHERE n < length(text) AND instr(substr(text, n, 2), ' ') = 0
        UNION ALL
        SELECT 'x' || hex(products.type) WHERE products.type IS NOT NULL
    ) ORDER BY token)), '') FROM products ORDER BY id;
CREATE TRIGGER products_search_insert AFTER INSERT ON products BEGIN
    INSERT INTO products_search(rowid, name_folded) VALUES (new.id, new.name_folded);
    INSERT INTO products_grams(rowid, grams) VALUES (new.id, coalesce((SELECT group_concat(token, ' ') FROM (SELECT DISTINCT token FROM (
        WITH RECURSIVE positions(text, n) AS (
            SELECT new.name_folded, 1 WHERE length(new.name_folded) > 0
            UNION ALL
            SELECT text, n + 1 FROM positions WHERE n < length(text)
        )
        SELECT hex(substr(text, n, 1)) AS token FROM positions WHERE substr(text, n, 1) <> ' '
        UNION ALL
        SELECT hex(substr(text, n, 2)) FROM positions WHERE n < length(text) AND instr(substr(text, n, 2), ' ') = 0
        UNION ALL
        SELECT 'x' || hex(new.type) WHERE new.type IS NOT NULL
    ) ORDER BY token)), ''));
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
    INSERT INTO products_grams(products_grams, rowid, grams) VALUES ('delete', old.id, coalesce((SELECT group_concat(token, ' ') FROM (SELECT DISTINCT token FROM (
        WITH RECURSIVE positions(text, n) AS (
            SELECT old.name_folded, 1 WHERE length(old.name_folded) > 0
            UNION ALL
            SELECT text, n + 1 FROM positions WHERE n < length(text)
        )
        SELECT hex(substr(text, n, 1)) AS token FROM positions WHERE substr(text, n, 1) <> ' '
        UNION ALL
        SELECT hex(substr(text, n, 2)) FROM positions WHERE n < length(text) AND instr(substr(text, n, 2), ' ') = 0
        UNION ALL
        SELECT 'x' || hex(old.type) WHERE old.type IS NOT NULL
    ) ORDER BY token)), ''));
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
    INSERT INTO products_grams(products_grams, rowid, grams) VALUES ('delete', old.id, coalesce((SELECT group_concat(token, ' ') FROM (SELECT DISTINCT token FROM (
        WITH RECURSIVE positions(text, n) AS (
            SELECT old.name_folded, 1 WHERE length(old.name_folded) > 0
            UNION ALL
            SELECT text, n + 1 FROM positions WHERE n < length(text)
        )
        SELECT hex(substr(text, n, 1)) AS token FROM positions WHERE substr(text, n, 1) <> ' '
        UNION ALL
        SELECT hex(substr(text, n, 2)) FROM positions WHERE n < length(text) AND instr(substr(text, n, 2), ' ') = 0
        UNION ALL
        SELECT 'x' || hex(old.type) WHERE old.type IS NOT NULL
    ) ORDER BY token)), ''));
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
    INSERT INTO products_grams(rowid, grams) VALUES (new.id, coalesce((SELECT group_concat(token, ' ') FROM (SELECT DISTINCT token FROM (
        WITH RECURSIVE positions(text, n) AS (
            SELECT new.name_folded, 1 WHERE length(new.name_folded) > 0
            UNION ALL
            SELECT text, n + 1 FROM positions WHERE n < length(text)
        )
        SELECT hex(substr(text, n, 1)) AS token FROM positions WHERE substr(text, n, 1) <> ' '
        UNION ALL
        SELECT hex(substr(text, n, 2)) FROM positions WHERE n < length(text) AND instr(substr(text, n, 2), ' ') = 0
        UNION ALL
        SELECT 'x' || hex(new.type) WHERE new.type IS NOT NULL
    ) ORDER BY token)), ''));
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

"""#
}
