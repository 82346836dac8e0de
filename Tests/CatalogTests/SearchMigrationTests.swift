import Catalog
import SQLiteStore
import TestSupport
import Testing
import TextSearch

/// Migration 6: the search structures a catalog database ends with are exactly what the products'
/// and phones' search descriptions generate, and names folded by older code are folded again.
struct SearchMigrationTests {
    /// The search objects of a database (tables, FTS5 shadow tables, triggers) and their SQL.
    static func searchObjects(_ db: Database) throws -> [String] {
        try db.fetchAll(
            sql: """
                SELECT type || ' ' || name || ': ' || coalesce(sql, '') FROM sqlite_master
                WHERE name LIKE 'products\\_search%' ESCAPE '\\' OR name LIKE 'products\\_suffixes%' ESCAPE '\\'
                    OR name LIKE 'products\\_gram\\_counts%' ESCAPE '\\' OR name LIKE 'phones\\_search%' ESCAPE '\\'
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
}
