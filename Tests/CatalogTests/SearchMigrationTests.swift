import Catalog
import SQLiteStore
import TestSupport
import Testing
import TextSearch

/// Migrations 6, 7 and 8: the search structures a catalog database ends with are exactly what the
/// products' and phones' search descriptions generate, names folded by older code are folded again,
/// a database with the suffix index of migration 6 gets the grams index in its place, and one with
/// the trigram index of migration 7 (rowids = ids) gets the one whose rowids carry the type.
struct SearchMigrationTests {
    /// The search objects of a database (tables, FTS5 shadow tables, triggers) and their SQL.
    static func searchObjects(_ db: Database) throws -> [String] {
        try db.fetchAll(
            sql: """
                SELECT type || ' ' || name || ': ' || coalesce(sql, '') FROM sqlite_master
                WHERE name LIKE 'products\\_search%' ESCAPE '\\' OR name LIKE 'products\\_grams%' ESCAPE '\\'
                    OR name LIKE 'products\\_gram\\_counts%' ESCAPE '\\' OR name LIKE 'phones\\_search%' ESCAPE '\\'
                    OR name LIKE 'products\\_substring\\_counts%' ESCAPE '\\'
                    OR name LIKE 'products\\_gram\\_bits%' ESCAPE '\\'
                ORDER BY type, name
                """) { try $0.decode(String.self, at: 0) }
    }

    @Test func theMigratedSchemaIsTheGeneratedSQL() throws {
        let directory = try TemporaryDirectory()
        let store = try CatalogStore(path: directory.path("catalog.sqlite"))
        let (migrated, tables) = try store.database.read { db in
            (try Self.searchObjects(db), try db.fetchAll(
                sql: "SELECT sql FROM sqlite_master WHERE name IN ('products', 'phones') ORDER BY name") { try $0.decode(String.self, at: 0) })
        }
        let generated = try DatabaseQueue(path: directory.path("generated.sqlite")).write { db in
            try db.execute(sql: tables.map { $0 + ";\n" }.joined())
            try db.execute(sql: Product.searchDescription.installSQL + Phone.searchDescription.installSQL)
            return try Self.searchObjects(db)
        }
        #expect(migrated.count > 10)
        #expect(migrated == generated)
    }

    @Test func namesFoldedByOlderCodeAreFoldedAgain() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path()
        // A database at migration 4, with a name folded the old way (the half-width voiced marks apart).
        let queue = try DatabaseQueue(path: path)
        try queue.writeWithoutTransaction { db in
            _ = try CatalogMigrations.migrator().migrate(upTo: [CatalogMigrations.identity: 4], db)
            try db.execute(sql: """
                INSERT INTO products(type, name, name_folded, year_introduced, intro_price)
                VALUES ('device', 'ﾃﾞｼﾞﾀﾙ カメラ', 'テﾞシﾞタル カメラ', 2020, 1)
                """)
        }
        try queue.close()
        let store = try CatalogStore(path: path)
        let folded = try store.database.read { db in try db.scalar(String.self, sql: "SELECT name_folded FROM products") }
        #expect(folded == "デジタル カメラ")
        for text in ["デジタル", "ﾃﾞｼﾞ", "ﾀﾙ ｶﾒ", "デ"] {
            #expect(try store.searchCount(ListRequest<Product>(searchText: text)) == 1, "\(text)")
        }
        #expect(try store.suggest(prefix: "ﾃﾞ") == ["ﾃﾞｼﾞﾀﾙ カメラ"])
    }

    /// Databases that applied migration 6 recorded this checksum (a database made on 2026-11-22
    /// before migration 7 existed): its frozen SQL must keep it.
    @Test func migration6KeepsTheChecksumDatabasesRecorded() {
        #expect(CatalogMigrations.all.first { $0.version == 6 }?.checksum == "4ab23784aac5a3ac")
    }

    /// A database made by the code of migrations 1-6 (with products, a suffix index, triggers) opens
    /// migrated: the suffix table is gone, the schema is the generated one, and every search finds
    /// what it found before, through the grams index, kept by the triggers from then on.
    @Test func aDatabaseWithTheSuffixIndexIsUpgraded() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path()
        let queue = try DatabaseQueue(path: path)
        let names = ["MacBook Pro", "iPad Air", "東京 カメラ", "Café Noir", "a", "3 Apples"]
        try queue.writeWithoutTransaction { db in
            _ = try CatalogMigrations.migrator().migrate(upTo: [CatalogMigrations.identity: 6], db)
            for (index, name) in names.enumerated() {
                try db.execute(
                    sql: "INSERT INTO products(type, name, name_folded, year_introduced, intro_price) VALUES (?, ?, ?, 2020, ?)",
                    arguments: [["desktop", "portable", "device"][index % 3], name, TextFolding.fold(name), index + 1])
            }
            #expect(try db.scalar(Int.self, sql: "SELECT count(*) FROM products_suffixes") ?? 0 > 20)
        }
        try queue.close()
        let store = try CatalogStore(path: path)
        let (objects, suffixTables) = try store.database.read { db in
            (try Self.searchObjects(db),
             try db.scalar(Int.self, sql: "SELECT count(*) FROM sqlite_master WHERE name LIKE '%suffixes%'"))
        }
        #expect(suffixTables == 0)
        #expect(objects.contains { $0.hasPrefix("table products_grams:") })
        let expected = ["a": 5, "ma": 1, "ca": 1, "カメ": 1, "air": 1, "3 a": 1, "p": 3, "ip a": 1]
        for (text, count) in expected {
            #expect(try store.searchCount(ListRequest<Product>(searchText: text)) == count, "\(text)")
        }
        try store.database.write { db in
            try db.execute(sql: "UPDATE products SET name = 'Zed', name_folded = 'zed' WHERE name = 'iPad Air'")
            #expect(try Product.searchDescription.indexProblems(foldedFrom: ["name"], db) == [])
        }
        #expect(try store.searchCount(ListRequest<Product>(searchText: "ip")) == 0)
        #expect(try store.searchCount(ListRequest<Product>(searchText: "ze")) == 1)
    }

    /// Databases that applied migration 7 recorded this checksum (a database made on 2026-11-22
    /// before migration 8 existed): its SQL, generated without scope values, must keep it.
    @Test func migration7KeepsTheChecksumDatabasesRecorded() {
        #expect(CatalogMigrations.all.first { $0.version == 7 }?.checksum == "88ec6bb8ec653788")
    }

    /// Databases that applied migration 8 recorded this checksum (a database made on 2026-11-23
    /// before migration 9 existed): its frozen SQL must keep it.
    @Test func migration8KeepsTheChecksumDatabasesRecorded() {
        #expect(CatalogMigrations.all.first { $0.version == 8 }?.checksum == "daefacd22e3bceec")
    }

    /// Databases that applied migrations 10 and 11 recorded these checksums (the benchmark's
    /// 1,000,000 products, made on 2026-11-27 before and after migration 11 existed): the SQL they
    /// generate must keep them (add a migration instead).
    @Test func migrations10And11KeepTheChecksumsDatabasesRecorded() {
        #expect(CatalogMigrations.all.first { $0.version == 10 }?.checksum == "c19dd6c7cad7e31d")
        #expect(CatalogMigrations.all.first { $0.version == 11 }?.checksum == "a2b55de90eedf4be")
    }

    /// A database made by the code of migrations 1-7 (an external-content trigram index whose rowids
    /// are the ids) or 1-8 (a grams index whose rowids are the ids, with type tokens) opens migrated:
    /// the trigram index is contentless, both indexes' rowids carry the type, the grams hold no type
    /// token, and every search and every count per type finds what a scan of the names finds, also
    /// after writes.
    @Test(arguments: [7, 8]) func aDatabaseWithIDRowidsIsUpgraded(from version: Int) throws {
        let directory = try TemporaryDirectory()
        let path = directory.path()
        let queue = try DatabaseQueue(path: path)
        let names = ["MacBook Pro", "iPad Pro", "東京 カメラ", "Café Noir", "Mac mini", "3 Apples", "Power Mac", "Macro Lens"]
        try queue.writeWithoutTransaction { db in
            _ = try CatalogMigrations.migrator().migrate(upTo: [CatalogMigrations.identity: version], db)
            for (index, name) in names.enumerated() {
                try db.execute(
                    sql: "INSERT INTO products(type, name, name_folded, year_introduced, intro_price) VALUES (?, ?, ?, 2020, ?)",
                    arguments: [["desktop", "portable", "device"][index % 3], name, TextFolding.fold(name), index + 1])
            }
            #expect(try db.scalar(String.self, sql: "SELECT sql FROM sqlite_master WHERE name = 'products_search'")?
                .contains("content = 'products'") == (version == 7))
        }
        try queue.close()
        let store = try CatalogStore(path: path)
        let search = Product.searchDescription
        func expectAsScanned(_ texts: [String], _ db: Database) throws {
            let rows = try db.fetchAll(sql: "SELECT type, name_folded FROM products") { row in
                (try row.decode(String.self, at: 0), try row.decode(String.self, at: 1))
            }
            for text in texts {
                let terms = SearchQuery(text).terms.map(\.folded)
                var expected: [DatabaseValue: Int] = [:]
                for (type, name) in rows where terms.allSatisfy({ name.contains($0) }) { expected[.text(type), default: 0] += 1 }
                #expect(try search.countsPerScope(SearchQuery(text), db) == expected, "\(text)")
                for type in ProductType.allCases {
                    #expect(try search.count(SearchQuery(text), scope: type.databaseValue, db) == expected[type.databaseValue, default: 0], "\(text) \(type)")
                }
            }
        }
        let texts = ["mac", "pro", "macbook pro", "カメラ", "cafe", "zzz", "mac pro", "a", "ma c", "p o", "カ メ", "zq"]
        try store.database.read { db in
            #expect(try db.scalar(String.self, sql: "SELECT sql FROM sqlite_master WHERE name = 'products_search'")?
                .contains("content = ''") == true)
            #expect(try db.scalar(Int.self, sql: "SELECT count(*) FROM sqlite_master WHERE name = 'products_search_docsize'") == 0)
            // No type token: `desktop`'s would be `x6465736B746F70`.
            #expect(try db.scalar(Int.self, sql: "SELECT count(*) FROM products_grams WHERE products_grams MATCH '\"x6465736B746F70\"'") == 0)
            #expect(try db.scalar(Int.self, sql: "SELECT count(*) FROM products_grams WHERE products_grams MATCH '\"6D61\"' AND rowid BETWEEN 2 << 48 AND (3 << 48) - 1") == 2)
            try expectAsScanned(texts, db)
            #expect(try search.indexProblems(foldedFrom: ["name"], db) == [])
        }
        try store.database.write { db in
            try db.execute(sql: "UPDATE products SET type = 'device' WHERE name = 'MacBook Pro'")
            try db.execute(sql: "UPDATE products SET name = 'Macintosh', name_folded = 'macintosh' WHERE name = 'iPad Pro'")
            try db.execute(sql: "DELETE FROM products WHERE name = 'Power Mac'")
            try expectAsScanned(texts + ["macintosh", "tos"], db)
            #expect(try search.indexProblems(foldedFrom: ["name"], db) == [])
        }
        #expect(try store.check() == [])
    }

    /// The trigram index's rowids hold ids from 0 to 2⁴⁸ − 1: an insert above fails and writes
    /// nothing; a trigram index that disagrees with the names is reported by the check.
    @Test func idsOutsideTheScopedRangeAreRefusedAndAWrongIndexIsReported() throws {
        let directory = try TemporaryDirectory()
        let store = try CatalogStore(path: directory.path("catalog.sqlite"))
        try store.database.write { db in
            try db.execute(
                sql: "INSERT INTO products(id, type, name, name_folded, year_introduced, intro_price) VALUES (1, 'device', 'Mac', 'mac', 2020, 1)")
        }
        #expect(throws: DatabaseError.self) {
            try store.database.write { db in
                try db.execute(
                    sql: "INSERT INTO products(id, type, name, name_folded, year_introduced, intro_price) VALUES (?, 'device', 'Big', 'big', 2020, 1)",
                    arguments: [SearchDescription.largestScopedID + 1])
            }
        }
        #expect(try store.database.read { db in try db.scalar(Int.self, sql: "SELECT count(*) FROM products") } == 1)
        #expect(try store.check() == [])
        try store.database.write { db in
            try db.execute(sql: "INSERT INTO products_search(rowid, name_folded) VALUES (1, 'mac')")  // no type: number 0
        }
        #expect(try store.check().contains { $0.hasPrefix("products_search:") })
    }
}
