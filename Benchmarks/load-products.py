# W1b's whole-process peer: what a user of Python's sqlite3 writes to load `catalog export`'s JSON
# into a products table with an FTS5 trigram index. Usage: python3 load-products.py JSON DATABASE SCHEMA_SQL
import json
import sqlite3
import sys

json_path, database_path, schema = sys.argv[1:4]
with open(json_path, encoding="utf-8") as file:
    products = json.load(file)
db = sqlite3.connect(database_path)
db.execute("PRAGMA journal_mode = WAL")
db.execute("PRAGMA synchronous = NORMAL")
db.executescript(schema)
with db:
    db.executemany(
        "INSERT INTO products(type, name, year_introduced, intro_price) VALUES (?, ?, ?, ?)",
        ((p["type"], p["name"], p["yearIntroduced"], p["introPrice"]) for p in products),
    )
print(db.execute("SELECT count(*) FROM products").fetchone()[0])
db.close()
