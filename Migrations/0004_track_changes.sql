-- Change tracking for live fetched results (issue #5): every committed insert, update and delete of a
-- product or a phone appends (seq, table_name, row_id, kind) to store_changes, from any process or
-- tool, inside the writing transaction. SQLiteStore's ChangeMonitor reads it after each commit.
--
-- This is the SQL that SQLiteStore's ChangeLog.installationSQL() and ChangeLog.trackingSQL(forTable:)
-- generate, frozen here like any applied migration: to change it, add a migration.
-- kind: 1 insert, 2 update, 3 delete. An UPDATE that changes a rowid logs a delete and an insert.

CREATE TABLE IF NOT EXISTS store_changes (
    seq INTEGER PRIMARY KEY AUTOINCREMENT,
    table_name TEXT NOT NULL,
    row_id INTEGER NOT NULL,
    kind INTEGER NOT NULL CHECK (kind IN (1, 2, 3))
);

-- The highest seq removed by pruning: a reader that has seen less missed changes and must refetch.
CREATE TABLE IF NOT EXISTS store_changes_horizon (
    id INTEGER PRIMARY KEY CHECK (id = 1),
    pruned_through INTEGER NOT NULL
);
INSERT OR IGNORE INTO store_changes_horizon(id, pruned_through) VALUES (1, 0);

-- Writers keep the log bounded: every 256th entry deletes all but the last 10,000.
CREATE TRIGGER IF NOT EXISTS store_changes_prune AFTER INSERT ON store_changes
WHEN new.seq % 256 = 0 AND new.seq > 10000 BEGIN
    UPDATE store_changes_horizon SET pruned_through = new.seq - 10000
        WHERE id = 1 AND pruned_through < new.seq - 10000;
    DELETE FROM store_changes WHERE seq <= new.seq - 10000;
END;

CREATE TRIGGER IF NOT EXISTS "store_changes_products_insert" AFTER INSERT ON "products" BEGIN
    INSERT INTO store_changes(table_name, row_id, kind) VALUES ('products', new.rowid, 1);
END;
CREATE TRIGGER IF NOT EXISTS "store_changes_products_update" AFTER UPDATE ON "products" BEGIN
    INSERT INTO store_changes(table_name, row_id, kind) SELECT 'products', old.rowid, 3 WHERE old.rowid IS NOT new.rowid;
    INSERT INTO store_changes(table_name, row_id, kind) VALUES ('products', new.rowid,
        CASE WHEN old.rowid IS new.rowid THEN 2 ELSE 1 END);
END;
CREATE TRIGGER IF NOT EXISTS "store_changes_products_delete" AFTER DELETE ON "products" BEGIN
    INSERT INTO store_changes(table_name, row_id, kind) VALUES ('products', old.rowid, 3);
END;

CREATE TRIGGER IF NOT EXISTS "store_changes_phones_insert" AFTER INSERT ON "phones" BEGIN
    INSERT INTO store_changes(table_name, row_id, kind) VALUES ('phones', new.rowid, 1);
END;
CREATE TRIGGER IF NOT EXISTS "store_changes_phones_update" AFTER UPDATE ON "phones" BEGIN
    INSERT INTO store_changes(table_name, row_id, kind) SELECT 'phones', old.rowid, 3 WHERE old.rowid IS NOT new.rowid;
    INSERT INTO store_changes(table_name, row_id, kind) VALUES ('phones', new.rowid,
        CASE WHEN old.rowid IS new.rowid THEN 2 ELSE 1 END);
END;
CREATE TRIGGER IF NOT EXISTS "store_changes_phones_delete" AFTER DELETE ON "phones" BEGIN
    INSERT INTO store_changes(table_name, row_id, kind) VALUES ('phones', old.rowid, 3);
END;
