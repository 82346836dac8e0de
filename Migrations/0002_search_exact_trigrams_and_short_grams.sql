-- Search (issue #3): every term is matched as an exact substring of the folded name, for any length.
--
-- 1. The full-text indexes of 0001 are rebuilt with `case_sensitive 1`. The library already folds
--    names and terms (TextFolding.fold); a second, different case folding inside FTS5 could only add
--    false matches. With it off, a phrase of 3+ characters matches exactly the rows whose folded
--    text contains it, so the index answers alone, with no re-check against the table. The tables
--    keep their names and columns, so the sync triggers of 0001 (on products and phones) go on.
-- 2. Terms of one or two characters are below the trigram tokenizer's reach. `products_grams` holds
--    every distinct 1- and 2-character substring of each product's folded name, and
--    `products_gram_counts` how many products of each type have it, so that a short term is one
--    index lookup, and its total count one row. Both are kept by triggers from `name_folded` (SQLite's
--    substr() counts characters of TEXT, which is what FTS5's trigrams count too).

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

-- Short grams of products. Each trigger lists the grams of one folded name with a recursive CTE
-- over its character positions; UNION keeps each gram once per product. A count that falls to 0
-- stays as a row: it counts nothing.
CREATE TABLE products_grams (
    gram TEXT NOT NULL,
    id INTEGER NOT NULL,
    PRIMARY KEY (gram, id)
) STRICT, WITHOUT ROWID;

CREATE TABLE products_gram_counts (
    gram TEXT NOT NULL,
    type TEXT NOT NULL,
    count INTEGER NOT NULL,
    PRIMARY KEY (gram, type)
) STRICT, WITHOUT ROWID;

CREATE TRIGGER products_grams_insert AFTER INSERT ON products BEGIN
    INSERT INTO products_grams(gram, id)
        WITH RECURSIVE positions(n) AS (
            SELECT 1 WHERE length(new.name_folded) > 0
            UNION ALL
            SELECT n + 1 FROM positions WHERE n < length(new.name_folded)
        )
        SELECT substr(new.name_folded, n, 1), new.id FROM positions
        UNION
        SELECT substr(new.name_folded, n, 2), new.id FROM positions WHERE n < length(new.name_folded);
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

CREATE TRIGGER products_grams_delete AFTER DELETE ON products BEGIN
    DELETE FROM products_grams WHERE id = old.id AND gram IN (
        WITH RECURSIVE positions(n) AS (
            SELECT 1 WHERE length(old.name_folded) > 0
            UNION ALL
            SELECT n + 1 FROM positions WHERE n < length(old.name_folded)
        )
        SELECT substr(old.name_folded, n, 1) FROM positions
        UNION
        SELECT substr(old.name_folded, n, 2) FROM positions WHERE n < length(old.name_folded)
    );
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

CREATE TRIGGER products_grams_update AFTER UPDATE OF name_folded, type ON products BEGIN
    DELETE FROM products_grams WHERE id = old.id AND gram IN (
        WITH RECURSIVE positions(n) AS (
            SELECT 1 WHERE length(old.name_folded) > 0
            UNION ALL
            SELECT n + 1 FROM positions WHERE n < length(old.name_folded)
        )
        SELECT substr(old.name_folded, n, 1) FROM positions
        UNION
        SELECT substr(old.name_folded, n, 2) FROM positions WHERE n < length(old.name_folded)
    );
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
    INSERT INTO products_grams(gram, id)
        WITH RECURSIVE positions(n) AS (
            SELECT 1 WHERE length(new.name_folded) > 0
            UNION ALL
            SELECT n + 1 FROM positions WHERE n < length(new.name_folded)
        )
        SELECT substr(new.name_folded, n, 1), new.id FROM positions
        UNION
        SELECT substr(new.name_folded, n, 2), new.id FROM positions WHERE n < length(new.name_folded);
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

-- Grams of the products already there.
INSERT INTO products_grams(gram, id)
    WITH RECURSIVE positions(id, text, n) AS (
        SELECT id, name_folded, 1 FROM products WHERE length(name_folded) > 0
        UNION ALL
        SELECT id, text, n + 1 FROM positions WHERE n < length(text)
    )
    SELECT substr(text, n, 1), id FROM positions
    UNION
    SELECT substr(text, n, 2), id FROM positions WHERE n < length(text);

INSERT INTO products_gram_counts(gram, type, count)
    SELECT g.gram, p.type, count(*) FROM products_grams g JOIN products p ON p.id = g.id GROUP BY g.gram, p.type;
