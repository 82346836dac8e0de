# W1b's whole-process peer: what a user of Python's sqlite3 writes to load `catalog export`'s JSON (or
# JSON lines, read a line at a time, when the file's name ends in .jsonl) into a products table with a
# unique name and an external-content FTS5 trigram index over it.
#
#     python3 load-products.py JSON|JSONL DATABASE [bulk | append | per-row-trigger | SCHEMA_SQL]
#
# - bulk (the default): inserts the rows into the bare table, then builds UNIQUE(name) and the FTS5
#   trigram index in one statement each, as a user who cares about load speed does.
# - append: adds the rows to a DATABASE that bulk made (UNIQUE(name) in place), then adds the new rows
#   to the FTS5 index in one statement, as that user adds a tenth more rows.
# - per-row-trigger: the FTS5 index and UNIQUE(name) exist before the rows, the index kept by an
#   AFTER INSERT trigger per row (PlainFullTextSchema, the raw C and GRDB contenders' schema).
# - any other third argument: that schema's SQL, then the rows (as per-row-trigger, with its own SQL).
#
# Prints the number of products loaded.
import json
import sqlite3
import sys

TABLE = """CREATE TABLE products (
    id INTEGER PRIMARY KEY,
    type TEXT NOT NULL,
    name TEXT NOT NULL,
    year_introduced INTEGER NOT NULL,
    intro_price REAL NOT NULL
);"""

BULK_INDEXES = [
    "CREATE UNIQUE INDEX products_name ON products(name)",
    "CREATE VIRTUAL TABLE products_fts USING fts5(name, content = 'products', content_rowid = 'id', tokenize = 'trigram')",
    "INSERT INTO products_fts(products_fts) VALUES ('rebuild')",
]

PER_ROW_TRIGGER = TABLE.replace("name TEXT NOT NULL,", "name TEXT NOT NULL UNIQUE,") + """
CREATE VIRTUAL TABLE products_fts USING fts5(name, content = 'products', content_rowid = 'id', tokenize = 'trigram');
CREATE TRIGGER products_fts_insert AFTER INSERT ON products BEGIN
    INSERT INTO products_fts(rowid, name) VALUES (new.id, new.name);
END;"""

json_path, database_path = sys.argv[1:3]
mode = sys.argv[3] if len(sys.argv) > 3 else "bulk"
file = open(json_path, encoding="utf-8")
products = (json.loads(line) for line in file) if json_path.endswith(".jsonl") else json.load(file)
db = sqlite3.connect(database_path)
db.execute("PRAGMA journal_mode = WAL")
db.execute("PRAGMA synchronous = NORMAL")
if mode != "append":
    db.executescript(TABLE if mode == "bulk" else PER_ROW_TRIGGER if mode == "per-row-trigger" else mode)
highest = db.execute("SELECT ifnull(max(id), 0) FROM products").fetchone()[0]
with db:
    db.executemany(
        "INSERT INTO products(type, name, year_introduced, intro_price) VALUES (?, ?, ?, ?)",
        ((p["type"], p["name"], p["yearIntroduced"], p["introPrice"]) for p in products),
    )
    if mode == "bulk":
        for statement in BULK_INDEXES:
            db.execute(statement)
    elif mode == "append":
        db.execute("INSERT INTO products_fts(rowid, name) SELECT id, name FROM products WHERE id > ?", (highest,))
print(db.execute("SELECT count(*) FROM products").fetchone()[0])
db.close()
