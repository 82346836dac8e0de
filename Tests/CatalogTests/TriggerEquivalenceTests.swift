import Catalog
import Foundation
import SQLiteStore
import TestSupport
import Testing

/// Migration 12's triggers against those they replace (migrations 4-11, frozen): two copies of one
/// database, one at migration 11 and one at 12, take the same random inserts, updates and deletes,
/// and end with the same rows in every table derived from the products and phones, and
/// indexes that a recount from the texts finds right.
struct TriggerEquivalenceTests {
    /// Pieces of folded texts: spaces, 1-2 scalars, empty, non-Latin, repeated letters.
    static let pieces = [
        "", " ", "a", "ab", "e", "m", "mac", "pro", "mac pro", "core m", "x", "東", "東京", "デジタル", "カメラ", "삼성",
        "😀", "é", "ss", "abc", "abcd", "book", "  ", "zz", "1", "10", "pa", "ro", "ac p",
    ]

    /// Substrings the counts hold in both copies, counted, as `refreshSubstringCounts(_:)` would
    /// choose them on a larger table (the test's rows are too few for its minimum).
    static let heldSubstrings = ["mac", "pro", "ac p", "mac pro", "abc", "abcd", "デジタ", "東京 ", "ook", "c pro"]

    static let types = ["device", "desktop", "portable"]

    /// A folded text: up to 4 pieces joined by nothing or a space.
    static func text(_ random: inout SplitMix64) -> String {
        (0..<random.next(below: 5)).map { _ in random.pick(pieces) + random.pick(["", " "]) }.joined()
    }

    /// The rows of every ordinary table of the database but the migrations' records, as text, table by
    /// table; the FTS5 tables are compared through their shadow tables, unless `fullText` is false.
    static func derivedRows(_ db: Database, fullText: Bool) throws -> [String: [String]] {
        let tables = try db.fetchAll(sql: """
            SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\'
                AND name <> 'schema_migrations' AND sql NOT LIKE 'CREATE VIRTUAL TABLE%'
            """) { try $0.decode(String.self, at: 0) }
        var rows: [String: [String]] = [:]
        for table in tables {
            if !fullText, ["products_search_", "products_grams_", "phones_search_"].contains(where: table.hasPrefix) { continue }
            let columns = try db.fetchAll(sql: "SELECT name FROM pragma_table_info(?) ORDER BY cid", arguments: [table]) {
                try $0.decode(String.self, at: 0)
            }
            let row = columns.map { "quote(\"\($0)\")" }.joined(separator: " || '|' || ")
            rows[table] = try db.fetchAll(sql: "SELECT \(row) FROM \"\(table)\" ORDER BY 1") { try $0.decode(String.self, at: 0) }
        }
        return rows
    }

    /// A database at migration 11 with `count` products and phones, its substring counts holding
    /// ``heldSubstrings`` and its grams' bits chosen; and a copy of it migrated to 12.
    static func twoCopies(_ directory: TemporaryDirectory, seed: UInt64) throws -> (old: DatabaseQueue, new: DatabaseQueue) {
        var random = SplitMix64(seed: seed)
        let queue = try DatabaseQueue(path: directory.path("old.sqlite"))
        try queue.writeWithoutTransaction { db in
            _ = try CatalogMigrations.migrator().migrate(upTo: [CatalogMigrations.identity: 11], db)
        }
        try queue.write { db in
            for index in 0..<300 {
                try insertProduct(index, &random, db)
                try insertPhone(index, &random, db)
            }
            try Product.searchDescription.refreshGramBits(db)
            for substring in heldSubstrings {
                for type in types {
                    try db.execute(
                        sql: """
                            INSERT INTO products_substring_counts(substring, type, count)
                            SELECT ?1, ?2, count(*) FROM products WHERE type = ?2 AND instr(name_folded, ?1) > 0
                            """,
                        arguments: [substring, type])
                }
            }
        }
        try queue.close()
        try FileManager.default.copyItem(atPath: directory.path("old.sqlite"), toPath: directory.path("new.sqlite"))
        let new = try DatabaseQueue(path: directory.path("new.sqlite"))
        let applied = try new.writeWithoutTransaction { db in try CatalogMigrations.migrator().migrate(db) }
        #expect(applied.map(\.version) == [12])
        return (try DatabaseQueue(path: directory.path("old.sqlite")), new)
    }

    static func insertProduct(_ index: Int, _ random: inout SplitMix64, _ db: Database) throws {
        // Some ids far apart, in other chunks of the gram bits.
        let id: Int64? = random.next(below: 4) == 0 ? Int64(1_000 + random.next(below: 5_000)) : nil
        try db.execute(
            sql: "INSERT OR IGNORE INTO products(id, type, name, name_folded, year_introduced, intro_price) VALUES (?, ?, ?, ?, 2000, 1)",
            arguments: [id, random.pick(types), "product \(index) \(random.next())", text(&random)])
    }

    static func insertPhone(_ index: Int, _ random: inout SplitMix64, _ db: Database) throws {
        try db.execute(
            sql: """
                INSERT INTO phones(name, name_folded, maker, maker_folded, year_released, operating_system, screen_inches)
                VALUES (?, ?, 'm', ?, 2000, 'os', 5)
                """,
            arguments: ["phone \(index) \(random.next())", text(&random), text(&random)])
    }

    /// `count` random writes, the same statements on both databases: inserts, updates of a name, a
    /// type, both, another column, deletes, and (with `idChanges`) changes of ids.
    static func write(_ count: Int, seed: UInt64, idChanges: Bool, _ old: DatabaseQueue, _ new: DatabaseQueue) throws {
        var random = SplitMix64(seed: seed)
        var statements: [(String, StatementArguments)] = []
        for index in 0..<count {
            let product = "(SELECT id FROM products ORDER BY id LIMIT 1 OFFSET \(random.next(below: 300)))"
            let phone = "(SELECT id FROM phones ORDER BY id LIMIT 1 OFFSET \(random.next(below: 300)))"
            switch random.next(below: idChanges ? 11 : 10) {
            case 0, 1: statements.append(("INSERT OR IGNORE INTO products(type, name, name_folded, year_introduced, intro_price) VALUES (?, ?, ?, 2000, 1)",
                                          [random.pick(types), "new \(index)", text(&random)]))
            case 2: statements.append(("UPDATE products SET name_folded = ? WHERE id = \(product)", [text(&random)]))
            case 3: statements.append(("UPDATE products SET type = ? WHERE id = \(product)", [random.pick(types)]))
            case 4: statements.append(("UPDATE products SET type = ?, name_folded = ? WHERE id = \(product)", [random.pick(types), text(&random)]))
            case 5: statements.append(("UPDATE products SET intro_price = intro_price + 1 WHERE id = \(product)", []))
            case 6: statements.append(("DELETE FROM products WHERE id = \(product)", []))
            case 7: statements.append(("UPDATE phones SET name_folded = ?, maker_folded = ? WHERE id = \(phone)", [text(&random), text(&random)]))
            case 8: statements.append(("DELETE FROM phones WHERE id = \(phone)", []))
            case 9: statements.append(("INSERT INTO phones(name, name_folded, maker, maker_folded, year_released, operating_system, screen_inches) VALUES (?, ?, 'm', ?, 2000, 'os', 5)",
                                       ["new \(index)", text(&random), text(&random)]))
            default: statements.append(("UPDATE OR IGNORE products SET id = ? WHERE id = \(product)", [6_000 + random.next(below: 3_000)]))
            }
        }
        for queue in [old, new] {
            try queue.write { db in
                for (sql, arguments) in statements { try db.execute(sql: sql, arguments: arguments) }
            }
        }
    }

    @Test func theNewTriggersWriteWhatTheOldOnesWrote() throws {
        let directory = try TemporaryDirectory()
        let (old, new) = try Self.twoCopies(directory, seed: 12)
        try Self.write(1_500, seed: 1_212, idChanges: false, old, new)
        let (oldRows, newRows) = (try old.read { try Self.derivedRows($0, fullText: true) }, try new.read { try Self.derivedRows($0, fullText: true) })
        #expect(oldRows.keys.sorted() == newRows.keys.sorted())
        #expect(oldRows.keys.contains("products_grams_data"))
        #expect(try #require(oldRows["products_substring_counts"]).contains { !$0.hasSuffix("|0") })
        #expect(try #require(oldRows["products_gram_bits"]).count > 10)
        for table in oldRows.keys.sorted() {
            #expect(oldRows[table] == newRows[table], "\(table)")
        }
        #expect(try new.read(Self.indexProblems).isEmpty)
    }

    /// With changes of ids, the new triggers also move the row in the trigram and grams indexes (the
    /// old search triggers did not watch the id, leaving it under its old id): every other derived
    /// table is the same, and the new database's indexes are those of its rows.
    @Test func withChangesOfIdsTheNewTriggersAlsoMoveTheRowInTheIndexes() throws {
        let directory = try TemporaryDirectory()
        let (old, new) = try Self.twoCopies(directory, seed: 21)
        try Self.write(1_500, seed: 2_121, idChanges: true, old, new)
        let (oldRows, newRows) = (try old.read { try Self.derivedRows($0, fullText: false) }, try new.read { try Self.derivedRows($0, fullText: false) })
        #expect(oldRows.keys.sorted() == newRows.keys.sorted())
        for table in oldRows.keys.sorted() {
            #expect(oldRows[table] == newRows[table], "\(table)")
        }
        #expect(try new.read(Self.indexProblems).isEmpty)
        #expect(try !old.read(Self.indexProblems).isEmpty)
    }

    /// A database upgraded to migration 12 has exactly the schema of one created at 12.
    @Test func anUpgradedDatabaseHasTheSchemaOfANewOne() throws {
        let directory = try TemporaryDirectory()
        let (_, upgraded) = try Self.twoCopies(directory, seed: 7)
        let created = try DatabaseQueue(path: directory.path("created.sqlite"))
        _ = try created.writeWithoutTransaction { db in try CatalogMigrations.migrator().migrate(db) }
        let schema = { (db: Database) in
            try db.fetchAll(sql: "SELECT type || ' ' || name || ' ' || tbl_name || ': ' || coalesce(sql, '') FROM sqlite_master ORDER BY type, name") {
                try $0.decode(String.self, at: 0)
            }
        }
        let (new, old) = (try created.read(schema), try upgraded.read(schema))
        #expect(new.contains { $0.hasPrefix("view products_search_changes") })
        #expect(old == new)
    }

    /// What a recount of the products' and phones' search structures from their texts finds wrong.
    static func indexProblems(_ db: Database) throws -> [String] {
        try Product.searchDescription.indexProblems(db) + Phone.searchDescription.indexProblems(db)
    }
}
