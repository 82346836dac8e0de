extension CatalogMigrations {
    /// The SQL of migration 10 as it was applied (``SearchDescription/substringCountsSQL`` of
    /// ``Product/searchDescription`` then: the table of substring counts and its three triggers),
    /// frozen: migration 12 replaced those triggers by the shorter ones the descriptions generate
    /// now, and databases that applied migration 10 recorded this SQL's checksum.
    static let substringCountsSQL = #"""
CREATE TABLE products_substring_counts (
    substring TEXT NOT NULL,
    type ANY,
    count INTEGER NOT NULL,
    PRIMARY KEY (substring, type)
) STRICT, WITHOUT ROWID;
CREATE TRIGGER products_substring_counts_insert AFTER INSERT ON products BEGIN
    INSERT INTO products_substring_counts(substring, type, count)
        SELECT substring, new.type, 1 FROM (
        SELECT DISTINCT counted.substring FROM (
        WITH RECURSIVE positions(text, n) AS (
            SELECT new.name_folded, 1 WHERE length(new.name_folded) > 0
            UNION ALL
            SELECT text, n + 1 FROM positions WHERE n < length(text)
        )
        SELECT text, n FROM positions
        ) AS position JOIN products_substring_counts AS counted
            ON counted.substring >= substr(position.text, position.n, 3)
            AND counted.substring <= substr(position.text, position.n, 8)
            AND counted.substring = substr(position.text, position.n, length(counted.substring))
        ) WHERE true
        ON CONFLICT (substring, type) DO UPDATE SET count = count + 1;
END;
CREATE TRIGGER products_substring_counts_delete AFTER DELETE ON products BEGIN
    UPDATE products_substring_counts SET count = count - 1 WHERE substring IN (
        SELECT DISTINCT counted.substring FROM (
        WITH RECURSIVE positions(text, n) AS (
            SELECT old.name_folded, 1 WHERE length(old.name_folded) > 0
            UNION ALL
            SELECT text, n + 1 FROM positions WHERE n < length(text)
        )
        SELECT text, n FROM positions
        ) AS position JOIN products_substring_counts AS counted
            ON counted.substring >= substr(position.text, position.n, 3)
            AND counted.substring <= substr(position.text, position.n, 8)
            AND counted.substring = substr(position.text, position.n, length(counted.substring))
        ) AND type IS old.type;
END;
CREATE TRIGGER products_substring_counts_update AFTER UPDATE OF name_folded, type ON products BEGIN
    UPDATE products_substring_counts SET count = count - 1 WHERE substring IN (
        SELECT DISTINCT counted.substring FROM (
        WITH RECURSIVE positions(text, n) AS (
            SELECT old.name_folded, 1 WHERE length(old.name_folded) > 0
            UNION ALL
            SELECT text, n + 1 FROM positions WHERE n < length(text)
        )
        SELECT text, n FROM positions
        ) AS position JOIN products_substring_counts AS counted
            ON counted.substring >= substr(position.text, position.n, 3)
            AND counted.substring <= substr(position.text, position.n, 8)
            AND counted.substring = substr(position.text, position.n, length(counted.substring))
        ) AND type IS old.type;
    INSERT INTO products_substring_counts(substring, type, count)
        SELECT substring, new.type, 1 FROM (
        SELECT DISTINCT counted.substring FROM (
        WITH RECURSIVE positions(text, n) AS (
            SELECT new.name_folded, 1 WHERE length(new.name_folded) > 0
            UNION ALL
            SELECT text, n + 1 FROM positions WHERE n < length(text)
        )
        SELECT text, n FROM positions
        ) AS position JOIN products_substring_counts AS counted
            ON counted.substring >= substr(position.text, position.n, 3)
            AND counted.substring <= substr(position.text, position.n, 8)
            AND counted.substring = substr(position.text, position.n, length(counted.substring))
        ) WHERE true
        ON CONFLICT (substring, type) DO UPDATE SET count = count + 1;
END;

"""#
}
