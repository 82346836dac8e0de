extension CatalogMigrations {
    /// The SQL of migration 9 as it was applied (``SearchDescription/gramsReplacementSQL`` of
    /// ``Product/searchDescription`` then: the grams index whose rowids carry the type, and the
    /// search triggers of that time), frozen: migration 12 replaced those triggers by the shorter
    /// ones the descriptions generate now, and databases that applied migration 9 recorded this
    /// SQL's checksum.
    static let scopedGramsIndexSQL = #"""
DROP TRIGGER IF EXISTS products_search_insert;
DROP TRIGGER IF EXISTS products_search_delete;
DROP TRIGGER IF EXISTS products_search_update;
DROP TABLE IF EXISTS products_grams;
CREATE VIRTUAL TABLE products_grams USING fts5(grams, content = '', detail = none, columnsize = 0);
INSERT INTO products_grams(rowid, grams)
    SELECT CASE WHEN products.id BETWEEN 0 AND 281474976710655 THEN (CASE products.type WHEN 'device' THEN 1 WHEN 'desktop' THEN 2 WHEN 'portable' THEN 3 ELSE 0 END << 48) | products.id ELSE 'id out of the search index range' END AS rowid, coalesce((SELECT group_concat(token, ' ') FROM (SELECT DISTINCT token FROM (
        WITH RECURSIVE positions(text, n) AS (
            SELECT products.name_folded, 1 WHERE length(products.name_folded) > 0
            UNION ALL
            SELECT text, n + 1 FROM positions WHERE n < length(text)
        )
        SELECT hex(substr(text, n, 1)) AS token FROM positions WHERE substr(text, n, 1) <> ' '
        UNION ALL
        SELECT hex(substr(text, n, 2)) FROM positions WHERE n < length(text) AND instr(substr(text, n, 2), ' ') = 0
    ) ORDER BY token)), '') FROM products ORDER BY 1;
CREATE TRIGGER products_search_insert AFTER INSERT ON products BEGIN
    SELECT RAISE(ABORT, 'products.id must be from 0 to 281474976710655 for the search index') WHERE new.id NOT BETWEEN 0 AND 281474976710655;
    INSERT INTO products_search(rowid, name_folded) VALUES (CASE WHEN new.id BETWEEN 0 AND 281474976710655 THEN (CASE new.type WHEN 'device' THEN 1 WHEN 'desktop' THEN 2 WHEN 'portable' THEN 3 ELSE 0 END << 48) | new.id ELSE 'id out of the search index range' END, new.name_folded);
    INSERT INTO products_grams(rowid, grams) VALUES (CASE WHEN new.id BETWEEN 0 AND 281474976710655 THEN (CASE new.type WHEN 'device' THEN 1 WHEN 'desktop' THEN 2 WHEN 'portable' THEN 3 ELSE 0 END << 48) | new.id ELSE 'id out of the search index range' END, coalesce((SELECT group_concat(token, ' ') FROM (SELECT DISTINCT token FROM (
        WITH RECURSIVE positions(text, n) AS (
            SELECT new.name_folded, 1 WHERE length(new.name_folded) > 0
            UNION ALL
            SELECT text, n + 1 FROM positions WHERE n < length(text)
        )
        SELECT hex(substr(text, n, 1)) AS token FROM positions WHERE substr(text, n, 1) <> ' '
        UNION ALL
        SELECT hex(substr(text, n, 2)) FROM positions WHERE n < length(text) AND instr(substr(text, n, 2), ' ') = 0
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
    INSERT INTO products_search(products_search, rowid, name_folded) VALUES ('delete', CASE WHEN old.id BETWEEN 0 AND 281474976710655 THEN (CASE old.type WHEN 'device' THEN 1 WHEN 'desktop' THEN 2 WHEN 'portable' THEN 3 ELSE 0 END << 48) | old.id ELSE 'id out of the search index range' END, old.name_folded);
    INSERT INTO products_grams(products_grams, rowid, grams) VALUES ('delete', CASE WHEN old.id BETWEEN 0 AND 281474976710655 THEN (CASE old.type WHEN 'device' THEN 1 WHEN 'desktop' THEN 2 WHEN 'portable' THEN 3 ELSE 0 END << 48) | old.id ELSE 'id out of the search index range' END, coalesce((SELECT group_concat(token, ' ') FROM (SELECT DISTINCT token FROM (
        WITH RECURSIVE positions(text, n) AS (
            SELECT old.name_folded, 1 WHERE length(old.name_folded) > 0
            UNION ALL
            SELECT text, n + 1 FROM positions WHERE n < length(text)
        )
        SELECT hex(substr(text, n, 1)) AS token FROM positions WHERE substr(text, n, 1) <> ' '
        UNION ALL
        SELECT hex(substr(text, n, 2)) FROM positions WHERE n < length(text) AND instr(substr(text, n, 2), ' ') = 0
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
    INSERT INTO products_search(products_search, rowid, name_folded) VALUES ('delete', CASE WHEN old.id BETWEEN 0 AND 281474976710655 THEN (CASE old.type WHEN 'device' THEN 1 WHEN 'desktop' THEN 2 WHEN 'portable' THEN 3 ELSE 0 END << 48) | old.id ELSE 'id out of the search index range' END, old.name_folded);
    INSERT INTO products_grams(products_grams, rowid, grams) VALUES ('delete', CASE WHEN old.id BETWEEN 0 AND 281474976710655 THEN (CASE old.type WHEN 'device' THEN 1 WHEN 'desktop' THEN 2 WHEN 'portable' THEN 3 ELSE 0 END << 48) | old.id ELSE 'id out of the search index range' END, coalesce((SELECT group_concat(token, ' ') FROM (SELECT DISTINCT token FROM (
        WITH RECURSIVE positions(text, n) AS (
            SELECT old.name_folded, 1 WHERE length(old.name_folded) > 0
            UNION ALL
            SELECT text, n + 1 FROM positions WHERE n < length(text)
        )
        SELECT hex(substr(text, n, 1)) AS token FROM positions WHERE substr(text, n, 1) <> ' '
        UNION ALL
        SELECT hex(substr(text, n, 2)) FROM positions WHERE n < length(text) AND instr(substr(text, n, 2), ' ') = 0
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
    SELECT RAISE(ABORT, 'products.id must be from 0 to 281474976710655 for the search index') WHERE new.id NOT BETWEEN 0 AND 281474976710655;
    INSERT INTO products_search(rowid, name_folded) VALUES (CASE WHEN new.id BETWEEN 0 AND 281474976710655 THEN (CASE new.type WHEN 'device' THEN 1 WHEN 'desktop' THEN 2 WHEN 'portable' THEN 3 ELSE 0 END << 48) | new.id ELSE 'id out of the search index range' END, new.name_folded);
    INSERT INTO products_grams(rowid, grams) VALUES (CASE WHEN new.id BETWEEN 0 AND 281474976710655 THEN (CASE new.type WHEN 'device' THEN 1 WHEN 'desktop' THEN 2 WHEN 'portable' THEN 3 ELSE 0 END << 48) | new.id ELSE 'id out of the search index range' END, coalesce((SELECT group_concat(token, ' ') FROM (SELECT DISTINCT token FROM (
        WITH RECURSIVE positions(text, n) AS (
            SELECT new.name_folded, 1 WHERE length(new.name_folded) > 0
            UNION ALL
            SELECT text, n + 1 FROM positions WHERE n < length(text)
        )
        SELECT hex(substr(text, n, 1)) AS token FROM positions WHERE substr(text, n, 1) <> ' '
        UNION ALL
        SELECT hex(substr(text, n, 2)) FROM positions WHERE n < length(text) AND instr(substr(text, n, 2), ' ') = 0
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
