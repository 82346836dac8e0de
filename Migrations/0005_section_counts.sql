-- Section counts (issue #16): products listed without a filter are sectioned by type, and the list's
-- first screen reads their counts here, three rows, instead of a `GROUP BY type` over every product
-- (35 ms at a million products, growing with the table). Triggers keep them in the writing
-- transaction, like the change log.
--
-- This is the SQL that SQLiteStore's SectionCounts.installationSQL and
-- SectionCounts.countingSQL(forTable: "products", columns: <its columns>, section: "type") generate,
-- frozen here like any applied migration: to change it, add a migration.

CREATE TABLE IF NOT EXISTS store_counted_sections (
    table_name TEXT NOT NULL,
    section TEXT NOT NULL,
    PRIMARY KEY (table_name, section)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS store_section_counts (
    table_name TEXT NOT NULL,
    section TEXT NOT NULL,
    key ANY,
    count INTEGER NOT NULL
) STRICT;
CREATE UNIQUE INDEX IF NOT EXISTS store_section_counts_by_key ON store_section_counts(table_name, section, key);

CREATE TRIGGER IF NOT EXISTS "store_section_counts_products_a79439ef7bfa9c2d_insert" AFTER INSERT ON "products" BEGIN
    INSERT INTO store_section_counts(table_name, section, key, count)
        SELECT 'products', 'type', (SELECT type FROM (SELECT new."id" AS "id", new."type" AS "type", new."name" AS "name", new."name_folded" AS "name_folded", new."year_introduced" AS "year_introduced", new."intro_price" AS "intro_price")), 0
        WHERE NOT EXISTS (SELECT 1 FROM store_section_counts WHERE table_name = 'products' AND section = 'type' AND key IS (SELECT type FROM (SELECT new."id" AS "id", new."type" AS "type", new."name" AS "name", new."name_folded" AS "name_folded", new."year_introduced" AS "year_introduced", new."intro_price" AS "intro_price")));
    UPDATE store_section_counts SET count = count + 1 WHERE table_name = 'products' AND section = 'type' AND key IS (SELECT type FROM (SELECT new."id" AS "id", new."type" AS "type", new."name" AS "name", new."name_folded" AS "name_folded", new."year_introduced" AS "year_introduced", new."intro_price" AS "intro_price"));
END;
CREATE TRIGGER IF NOT EXISTS "store_section_counts_products_a79439ef7bfa9c2d_delete" AFTER DELETE ON "products" BEGIN
    UPDATE store_section_counts SET count = count - 1 WHERE table_name = 'products' AND section = 'type' AND key IS (SELECT type FROM (SELECT old."id" AS "id", old."type" AS "type", old."name" AS "name", old."name_folded" AS "name_folded", old."year_introduced" AS "year_introduced", old."intro_price" AS "intro_price"));
END;
CREATE TRIGGER IF NOT EXISTS "store_section_counts_products_a79439ef7bfa9c2d_update" AFTER UPDATE ON "products" BEGIN
    UPDATE store_section_counts SET count = count - 1 WHERE table_name = 'products' AND section = 'type' AND key IS (SELECT type FROM (SELECT old."id" AS "id", old."type" AS "type", old."name" AS "name", old."name_folded" AS "name_folded", old."year_introduced" AS "year_introduced", old."intro_price" AS "intro_price"));
    INSERT INTO store_section_counts(table_name, section, key, count)
        SELECT 'products', 'type', (SELECT type FROM (SELECT new."id" AS "id", new."type" AS "type", new."name" AS "name", new."name_folded" AS "name_folded", new."year_introduced" AS "year_introduced", new."intro_price" AS "intro_price")), 0
        WHERE NOT EXISTS (SELECT 1 FROM store_section_counts WHERE table_name = 'products' AND section = 'type' AND key IS (SELECT type FROM (SELECT new."id" AS "id", new."type" AS "type", new."name" AS "name", new."name_folded" AS "name_folded", new."year_introduced" AS "year_introduced", new."intro_price" AS "intro_price")));
    UPDATE store_section_counts SET count = count + 1 WHERE table_name = 'products' AND section = 'type' AND key IS (SELECT type FROM (SELECT new."id" AS "id", new."type" AS "type", new."name" AS "name", new."name_folded" AS "name_folded", new."year_introduced" AS "year_introduced", new."intro_price" AS "intro_price"));
END;
DELETE FROM store_section_counts WHERE table_name = 'products' AND section = 'type';
INSERT INTO store_section_counts(table_name, section, key, count)
    SELECT 'products', 'type', type, count(*) FROM "products" GROUP BY type;
INSERT OR IGNORE INTO store_counted_sections(table_name, section) VALUES ('products', 'type');

-- The narrow index of 0003 served only `GROUP BY type` over every product, now read from the counts;
-- a filtered list's `GROUP BY type` reads products_by_type_name, whose prefix it repeated.
DROP INDEX products_by_type;
