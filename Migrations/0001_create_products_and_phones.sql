-- Products of Apple's "Simple/Advanced UISearchBar" samples, and a list of phones.
--
-- `name_folded` is the name folded for search (case, diacritics and width removed). The library
-- computes it in Swift, with the same function the search uses, and writes it with every name.

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

-- Full-text indexes over the folded names, kept in sync by triggers. External content: the text
-- lives once, in the entity table. The trigram tokenizer finds substrings of three characters or more.
CREATE VIRTUAL TABLE products_search USING fts5(
    name_folded, content = 'products', content_rowid = 'id', tokenize = 'trigram'
);

CREATE TRIGGER products_search_insert AFTER INSERT ON products BEGIN
    INSERT INTO products_search(rowid, name_folded) VALUES (new.id, new.name_folded);
END;

CREATE TRIGGER products_search_delete AFTER DELETE ON products BEGIN
    INSERT INTO products_search(products_search, rowid, name_folded) VALUES ('delete', old.id, old.name_folded);
END;

CREATE TRIGGER products_search_update AFTER UPDATE OF name_folded ON products BEGIN
    INSERT INTO products_search(products_search, rowid, name_folded) VALUES ('delete', old.id, old.name_folded);
    INSERT INTO products_search(rowid, name_folded) VALUES (new.id, new.name_folded);
END;

CREATE VIRTUAL TABLE phones_search USING fts5(
    name_folded, maker_folded, content = 'phones', content_rowid = 'id', tokenize = 'trigram'
);

CREATE TRIGGER phones_search_insert AFTER INSERT ON phones BEGIN
    INSERT INTO phones_search(rowid, name_folded, maker_folded) VALUES (new.id, new.name_folded, new.maker_folded);
END;

CREATE TRIGGER phones_search_delete AFTER DELETE ON phones BEGIN
    INSERT INTO phones_search(phones_search, rowid, name_folded, maker_folded)
        VALUES ('delete', old.id, old.name_folded, old.maker_folded);
END;

CREATE TRIGGER phones_search_update AFTER UPDATE OF name_folded, maker_folded ON phones BEGIN
    INSERT INTO phones_search(phones_search, rowid, name_folded, maker_folded)
        VALUES ('delete', old.id, old.name_folded, old.maker_folded);
    INSERT INTO phones_search(rowid, name_folded, maker_folded) VALUES (new.id, new.name_folded, new.maker_folded);
END;
