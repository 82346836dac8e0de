extension CatalogMigrations {
    /// The SQL of migration 11 as it was applied (``SearchDescription/gramBitsSQL`` of
    /// ``Product/searchDescription`` then: the table of gram bits and its three triggers), frozen:
    /// migration 12 replaced those triggers by the shorter ones the descriptions generate now, and
    /// databases that applied migration 11 recorded this SQL's checksum.
    static let gramBitsSQL = #"""
CREATE TABLE products_gram_bits (
    gram TEXT NOT NULL,
    chunk INTEGER NOT NULL,
    w0 INTEGER NOT NULL,
    w1 INTEGER NOT NULL,
    w2 INTEGER NOT NULL,
    w3 INTEGER NOT NULL,
    PRIMARY KEY (gram, chunk)
) STRICT, WITHOUT ROWID;
CREATE TRIGGER products_gram_bits_insert AFTER INSERT ON products BEGIN
    INSERT INTO products_gram_bits(gram, chunk, w0, w1, w2, w3)
        SELECT row_grams.gram, new.id >> 8, CASE WHEN (new.id >> 6) & 3 = 0 THEN 1 << (new.id & 63) ELSE 0 END, CASE WHEN (new.id >> 6) & 3 = 1 THEN 1 << (new.id & 63) ELSE 0 END, CASE WHEN (new.id >> 6) & 3 = 2 THEN 1 << (new.id & 63) ELSE 0 END, CASE WHEN (new.id >> 6) & 3 = 3 THEN 1 << (new.id & 63) ELSE 0 END FROM (
        WITH RECURSIVE positions(text, n) AS (
            SELECT new.name_folded, 1 WHERE length(new.name_folded) > 0
            UNION ALL
            SELECT text, n + 1 FROM positions WHERE n < length(text)
        )
        SELECT DISTINCT substr(text, n, 1) AS gram FROM positions WHERE substr(text, n, 1) <> ' '
        ) AS row_grams WHERE EXISTS (SELECT 1 FROM products_gram_bits AS held WHERE held.gram = row_grams.gram)
        ON CONFLICT (gram, chunk) DO UPDATE SET w0 = w0 | excluded.w0, w1 = w1 | excluded.w1, w2 = w2 | excluded.w2, w3 = w3 | excluded.w3;
END;
CREATE TRIGGER products_gram_bits_delete AFTER DELETE ON products BEGIN
    UPDATE products_gram_bits SET w0 = w0 & ~CASE WHEN (old.id >> 6) & 3 = 0 THEN 1 << (old.id & 63) ELSE 0 END, w1 = w1 & ~CASE WHEN (old.id >> 6) & 3 = 1 THEN 1 << (old.id & 63) ELSE 0 END, w2 = w2 & ~CASE WHEN (old.id >> 6) & 3 = 2 THEN 1 << (old.id & 63) ELSE 0 END, w3 = w3 & ~CASE WHEN (old.id >> 6) & 3 = 3 THEN 1 << (old.id & 63) ELSE 0 END
        WHERE chunk = old.id >> 8 AND gram IN (
        WITH RECURSIVE positions(text, n) AS (
            SELECT old.name_folded, 1 WHERE length(old.name_folded) > 0
            UNION ALL
            SELECT text, n + 1 FROM positions WHERE n < length(text)
        )
        SELECT DISTINCT substr(text, n, 1) AS gram FROM positions WHERE substr(text, n, 1) <> ' '
        );
END;
CREATE TRIGGER products_gram_bits_update AFTER UPDATE OF id, name_folded ON products BEGIN
    UPDATE products_gram_bits SET w0 = w0 & ~CASE WHEN (old.id >> 6) & 3 = 0 THEN 1 << (old.id & 63) ELSE 0 END, w1 = w1 & ~CASE WHEN (old.id >> 6) & 3 = 1 THEN 1 << (old.id & 63) ELSE 0 END, w2 = w2 & ~CASE WHEN (old.id >> 6) & 3 = 2 THEN 1 << (old.id & 63) ELSE 0 END, w3 = w3 & ~CASE WHEN (old.id >> 6) & 3 = 3 THEN 1 << (old.id & 63) ELSE 0 END
        WHERE chunk = old.id >> 8 AND gram IN (
        WITH RECURSIVE positions(text, n) AS (
            SELECT old.name_folded, 1 WHERE length(old.name_folded) > 0
            UNION ALL
            SELECT text, n + 1 FROM positions WHERE n < length(text)
        )
        SELECT DISTINCT substr(text, n, 1) AS gram FROM positions WHERE substr(text, n, 1) <> ' '
        );
    INSERT INTO products_gram_bits(gram, chunk, w0, w1, w2, w3)
        SELECT row_grams.gram, new.id >> 8, CASE WHEN (new.id >> 6) & 3 = 0 THEN 1 << (new.id & 63) ELSE 0 END, CASE WHEN (new.id >> 6) & 3 = 1 THEN 1 << (new.id & 63) ELSE 0 END, CASE WHEN (new.id >> 6) & 3 = 2 THEN 1 << (new.id & 63) ELSE 0 END, CASE WHEN (new.id >> 6) & 3 = 3 THEN 1 << (new.id & 63) ELSE 0 END FROM (
        WITH RECURSIVE positions(text, n) AS (
            SELECT new.name_folded, 1 WHERE length(new.name_folded) > 0
            UNION ALL
            SELECT text, n + 1 FROM positions WHERE n < length(text)
        )
        SELECT DISTINCT substr(text, n, 1) AS gram FROM positions WHERE substr(text, n, 1) <> ' '
        ) AS row_grams WHERE EXISTS (SELECT 1 FROM products_gram_bits AS held WHERE held.gram = row_grams.gram)
        ON CONFLICT (gram, chunk) DO UPDATE SET w0 = w0 | excluded.w0, w1 = w1 | excluded.w1, w2 = w2 | excluded.w2, w3 = w3 | excluded.w3;
END;

"""#
}
