-- Search (issue #3): every term is matched as an exact substring of the folded name, for any length.
--
-- 1. The full-text indexes of 0001 are rebuilt with `case_sensitive 1`. The library already folds
--    names and terms (TextFolding.fold); a second, different case folding inside FTS5 could only add
--    false matches. With it off, a phrase of 3+ characters matches exactly the rows whose folded
--    text contains it, so the index answers alone, with no re-check against the table. The tables
--    keep their names and columns, so the sync triggers of 0001 (on products and phones) go on.
-- 2. `products_suffixes` holds, for each character of each product's folded name that is not a
--    space, the text from that character on, cut to 8 characters. A term is a substring of a name
--    exactly when it is the prefix of one of its suffixes, so the products holding a term of up to 8
--    characters are one range of this index (`suffix >= term AND suffix < successor(term)`): the
--    rows read are the term's occurrences, however common its trigrams are. A longer term reads the
--    range of its first 8 characters and is checked on those rows. Terms hold no white space, so no
--    match starts at a space. (A trigram phrase of L characters reads L - 2 whole doclists instead.)
-- 3. `products_gram_counts` holds how many products of each type have each 1- and 2-character
--    substring, so that the total of a short term is one row.
-- Both are kept by triggers from `name_folded` (SQLite's substr() and length() count characters of
-- TEXT, the unit of the library's terms and of FTS5's trigrams).

DROP TABLE products_search;

CREATE VIRTUAL TABLE products_search USING fts5(
    name_folded, content = 'products', content_rowid = 'id', tokenize = 'trigram case_sensitive 1'
);

INSERT INTO products_search(products_search) VALUES ('rebuild');

DROP TABLE phones_search;

CREATE VIRTUAL TABLE phones_search USING fts5(
    name_folded, maker_folded, content = 'phones', content_rowid = 'id', tokenize = 'trigram case_sensitive 1'
);

INSERT INTO phones_search(phones_search) VALUES ('rebuild');

-- Suffixes of products. Each trigger lists the positions of one folded name with a recursive CTE.
-- `OR IGNORE`: a name may have the same 8-character window twice; it is one row.
CREATE TABLE products_suffixes (
    suffix TEXT NOT NULL,
    id INTEGER NOT NULL,
    PRIMARY KEY (suffix, id)
) STRICT, WITHOUT ROWID;

CREATE TRIGGER products_suffixes_insert AFTER INSERT ON products BEGIN
    INSERT OR IGNORE INTO products_suffixes(suffix, id)
        WITH RECURSIVE positions(n) AS (
            SELECT 1 WHERE length(new.name_folded) > 0
            UNION ALL
            SELECT n + 1 FROM positions WHERE n < length(new.name_folded)
        )
        SELECT substr(new.name_folded, n, 8), new.id FROM positions WHERE substr(new.name_folded, n, 1) <> ' ';
END;

CREATE TRIGGER products_suffixes_delete AFTER DELETE ON products BEGIN
    DELETE FROM products_suffixes WHERE id = old.id AND suffix IN (
        WITH RECURSIVE positions(n) AS (
            SELECT 1 WHERE length(old.name_folded) > 0
            UNION ALL
            SELECT n + 1 FROM positions WHERE n < length(old.name_folded)
        )
        SELECT substr(old.name_folded, n, 8) FROM positions
    );
END;

CREATE TRIGGER products_suffixes_update AFTER UPDATE OF name_folded ON products BEGIN
    DELETE FROM products_suffixes WHERE id = old.id AND suffix IN (
        WITH RECURSIVE positions(n) AS (
            SELECT 1 WHERE length(old.name_folded) > 0
            UNION ALL
            SELECT n + 1 FROM positions WHERE n < length(old.name_folded)
        )
        SELECT substr(old.name_folded, n, 8) FROM positions
    );
    INSERT OR IGNORE INTO products_suffixes(suffix, id)
        WITH RECURSIVE positions(n) AS (
            SELECT 1 WHERE length(new.name_folded) > 0
            UNION ALL
            SELECT n + 1 FROM positions WHERE n < length(new.name_folded)
        )
        SELECT substr(new.name_folded, n, 8), new.id FROM positions WHERE substr(new.name_folded, n, 1) <> ' ';
END;

-- Short-gram counts of products: one row per (gram, type). A count that falls to 0 stays as a row:
-- it counts nothing. UNION keeps each gram once per product.
CREATE TABLE products_gram_counts (
    gram TEXT NOT NULL,
    type TEXT NOT NULL,
    count INTEGER NOT NULL,
    PRIMARY KEY (gram, type)
) STRICT, WITHOUT ROWID;

CREATE TRIGGER products_gram_counts_insert AFTER INSERT ON products BEGIN
    -- `WHERE true` tells the parser that ON CONFLICT belongs to the INSERT, not to a join.
    INSERT INTO products_gram_counts(gram, type, count)
        SELECT gram, new.type, 1 FROM (
        WITH RECURSIVE positions(n) AS (
            SELECT 1 WHERE length(new.name_folded) > 0
            UNION ALL
            SELECT n + 1 FROM positions WHERE n < length(new.name_folded)
        )
        SELECT substr(new.name_folded, n, 1) AS gram FROM positions
        UNION
        SELECT substr(new.name_folded, n, 2) AS gram FROM positions WHERE n < length(new.name_folded)
        ) WHERE true
        ON CONFLICT (gram, type) DO UPDATE SET count = count + 1;
END;

CREATE TRIGGER products_gram_counts_delete AFTER DELETE ON products BEGIN
    UPDATE products_gram_counts SET count = count - 1 WHERE type = old.type AND gram IN (
        WITH RECURSIVE positions(n) AS (
            SELECT 1 WHERE length(old.name_folded) > 0
            UNION ALL
            SELECT n + 1 FROM positions WHERE n < length(old.name_folded)
        )
        SELECT substr(old.name_folded, n, 1) FROM positions
        UNION
        SELECT substr(old.name_folded, n, 2) FROM positions WHERE n < length(old.name_folded)
    );
END;

CREATE TRIGGER products_gram_counts_update AFTER UPDATE OF name_folded, type ON products BEGIN
    UPDATE products_gram_counts SET count = count - 1 WHERE type = old.type AND gram IN (
        WITH RECURSIVE positions(n) AS (
            SELECT 1 WHERE length(old.name_folded) > 0
            UNION ALL
            SELECT n + 1 FROM positions WHERE n < length(old.name_folded)
        )
        SELECT substr(old.name_folded, n, 1) FROM positions
        UNION
        SELECT substr(old.name_folded, n, 2) FROM positions WHERE n < length(old.name_folded)
    );
    INSERT INTO products_gram_counts(gram, type, count)
        SELECT gram, new.type, 1 FROM (
        WITH RECURSIVE positions(n) AS (
            SELECT 1 WHERE length(new.name_folded) > 0
            UNION ALL
            SELECT n + 1 FROM positions WHERE n < length(new.name_folded)
        )
        SELECT substr(new.name_folded, n, 1) AS gram FROM positions
        UNION
        SELECT substr(new.name_folded, n, 2) AS gram FROM positions WHERE n < length(new.name_folded)
        ) WHERE true
        ON CONFLICT (gram, type) DO UPDATE SET count = count + 1;
END;

-- Suffixes and counts of the products already there.
INSERT OR IGNORE INTO products_suffixes(suffix, id)
    WITH RECURSIVE positions(id, text, n) AS (
        SELECT id, name_folded, 1 FROM products WHERE length(name_folded) > 0
        UNION ALL
        SELECT id, text, n + 1 FROM positions WHERE n < length(text)
    )
    SELECT substr(text, n, 8), id FROM positions WHERE substr(text, n, 1) <> ' ';

INSERT INTO products_gram_counts(gram, type, count)
    SELECT gram, type, count(*) FROM (
        WITH RECURSIVE positions(id, type, text, n) AS (
            SELECT id, type, name_folded, 1 FROM products WHERE length(name_folded) > 0
            UNION ALL
            SELECT id, type, text, n + 1 FROM positions WHERE n < length(text)
        )
        SELECT substr(text, n, 1) AS gram, id, type FROM positions
        UNION
        SELECT substr(text, n, 2) AS gram, id, type FROM positions WHERE n < length(text)
    ) GROUP BY gram, type;
