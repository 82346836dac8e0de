import Catalog
import Foundation
import SQLiteStore
import TestSupport
import Testing
import TextSearch

/// The baseline migration creates the schema the twelve migrations before it ended with (a new file
/// then drops `products_by_name`, migration 2), and a file those development versions made is adopted
/// at their version 12 (and migrated on), or refused before it, unchanged.
struct BaselineSchemaTests {
    let directory: TemporaryDirectory

    init() throws {
        directory = try TemporaryDirectory()
    }

    /// Every schema object (type, name, table and SQL, as SQLite stores them), then the counted
    /// sections and the change log's horizon: what a new file holds before its first record.
    static let dumpSQL = """
        SELECT text FROM (
            SELECT 0 AS part, type AS k1, name AS k2, '-- ' || type || ' ' || name || ' on ' || tbl_name || coalesce(char(10) || sql || ';', '') AS text
            FROM sqlite_master
            UNION ALL
            SELECT 1, table_name, section, '-- counted section: ' || quote(table_name) || ', ' || quote(section) FROM store_counted_sections
            UNION ALL
            SELECT 2, id, pruned_through, '-- change log horizon: ' || id || ', ' || pruned_through FROM store_changes_horizon
        ) ORDER BY part, k1, k2
        """

    /// The dump of a file the twelve migrations before the baseline made (`sqlite3 FILE < query`,
    /// the query being ``dumpSQL``): `Tests/Fixtures/catalog-schema.txt`.
    static func fixture() throws -> String {
        let tests = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        return try String(contentsOf: tests.appending(path: "Fixtures/catalog-schema.txt"), encoding: .utf8)
    }

    static func dump(_ db: Database) throws -> String {
        try db.fetchAll(sql: dumpSQL) { try $0.decode(String.self, at: 0) }.map { $0 + "\n" }.joined()
    }

    /// The fixture less `products_by_name`, which migration 2 drops: the schema of a new file.
    static func latestSchema() throws -> String {
        let index = "-- index products_by_name on products\nCREATE INDEX products_by_name ON products(name_folded, id);\n"
        let fixture = try fixture()
        #expect(fixture.contains(index))
        return fixture.replacingOccurrences(of: index, with: "")
    }

    @Test func theBaselineHasTheSchemaOfTheTwelveMigrationsBeforeIt() throws {
        let queue = try DatabaseQueue(path: directory.path("baseline.sqlite"))
        defer { try? queue.close() }
        try queue.writeWithoutTransaction { db in
            _ = try CatalogMigrations.migrator().migrate(upTo: [CatalogMigrations.identity: 1], db)
        }
        let dump = try queue.read(Self.dump)
        #expect(dump == (try Self.fixture()))
        #expect(dump.split(separator: "\n").filter { $0.hasPrefix("-- ") && !$0.hasPrefix("-- c") }.count == 54)
    }

    @Test func aNewFileHasTheBaselineSchemaWithoutTheIndexByName() throws {
        let store = try CatalogStore(path: directory.path("new.sqlite"))
        #expect(try store.file!.read(Self.dump) == (try Self.latestSchema()))
        #expect(try store.migrationStatus().map { "\($0.set) \($0.version) \($0.name) \($0.state)" } == [
            "catalog 1 baseline applied", "catalog 2 drop_products_by_name applied", "catalog 3 index_search_grams applied",
            "catalog 4 count_products_by_type applied", "catalog 5 index_search_pairs applied",
            "catalog 6 drop_older_count_function applied", "catalog 7 count_search_by_statement applied",
        ])
    }

    /// A closed catalog file holding one product, its records then rewritten to those of a
    /// development version at `version`.
    private func preBaselineFile(_ name: String, version: Int) throws -> String {
        let path = directory.path(name)
        let store = try CatalogStore(path: path)
        try store.insert(Product(type: .portable, name: "MacBook Air", yearIntroduced: 2008, introPrice: 1799))
        try store.file!.close()
        try PreBaselineFile.rewrite(path, toVersion: version)
        return path
    }

    @Test func aFileAtVersion12IsAdoptedWhenOpenedForWriting() throws {
        let path = try preBaselineFile("old.sqlite", version: 12)
        let store = try CatalogStore(path: path)
        let records = try store.file!.read { db in try store.migrator.appliedMigrations(db) }
        #expect(records.map { "\($0.set) \($0.version) \($0.name)" } == [
            "catalog 1 baseline", "catalog 2 drop_products_by_name", "catalog 3 index_search_grams", "catalog 4 count_products_by_type",
            "catalog 5 index_search_pairs", "catalog 6 drop_older_count_function", "catalog 7 count_search_by_statement",
        ])
        #expect(records.first?.appliedAt == PreBaselineFile.appliedAt)
        #expect(try store.file!.read(Self.dump) == (try Self.latestSchema()))
        let found: [EntitySection<Product>] = try store.search(SearchQuery("air"), in: ListRequest())
        #expect(found.flatMap(\.records).map(\.name) == ["MacBook Air"])
        #expect(try store.check() == [])
    }

    @Test(arguments: [1, 5, 11]) func anEarlierFileIsRefusedUnchanged(version: Int) throws {
        let path = try preBaselineFile("old.sqlite", version: version)
        let bytes = try #require(FileManager.default.contents(atPath: path))
        #expect(throws: CatalogError.preBaselineDatabase(version: version, adoptable: false)) { try CatalogStore(path: path) }
        #expect(throws: CatalogError.preBaselineDatabase(version: version, adoptable: false)) {
            try CatalogStore.migrationStatus(path: path)
        }
        #expect(FileManager.default.contents(atPath: path) == bytes)
    }

    @Test func aFileAtVersion12IsRefusedUnchangedWhenReadOnly() throws {
        let path = try preBaselineFile("old.sqlite", version: 12)
        let bytes = try #require(FileManager.default.contents(atPath: path))
        var configuration = Configuration()
        configuration.isReadonly = true
        #expect(throws: CatalogError.preBaselineDatabase(version: 12, adoptable: true)) {
            try CatalogStore(path: path, configuration: configuration)
        }
        #expect(throws: CatalogError.preBaselineDatabase(version: 12, adoptable: true)) {
            try CatalogStore.migrationStatus(path: path)
        }
        #expect(FileManager.default.contents(atPath: path) == bytes)
    }

    /// A changed baseline is still refused as changed, not taken for a development version's file.
    @Test func aChangedBaselineIsRefusedAsChanged() throws {
        let path = directory.path("changed.sqlite")
        try CatalogStore(path: path).file!.close()
        let queue = try DatabaseQueue(path: path)
        try queue.write { db in try db.execute(sql: "UPDATE schema_migrations SET checksum = 'ffffffffffffffff'") }
        try queue.close()
        #expect(throws: MigrationError.self) { try CatalogStore(path: path) }
    }

    /// Pieces of folded texts: spaces, 1-2 scalars, empty, non-Latin, repeated letters.
    static let pieces = [
        "", " ", "a", "ab", "e", "m", "mac", "pro", "mac pro", "core m", "x", "東", "東京", "デジタル", "カメラ", "삼성",
        "😀", "é", "ss", "abc", "abcd", "book", "  ", "zz", "1", "10", "pa", "ro", "ac p",
    ]

    /// Random inserts, updates of a name, a type, both, another column, an id, and deletes, of
    /// products and phones, written straight to the tables: the baseline's triggers keep every
    /// search structure equal to a recount from the texts.
    @Test func theTriggersKeepTheSearchStructuresThroughRandomWrites() throws {
        let store = try CatalogStore(path: directory.path("writes.sqlite"))
        var random = SplitMix64(seed: 21)
        func text() -> String { (0..<random.next(below: 5)).map { _ in random.pick(Self.pieces) + random.pick(["", " "]) }.joined() }
        let types = ["device", "desktop", "portable"]
        try store.file!.write { db in
            for index in 0..<2_000 {
                let product = "(SELECT id FROM products ORDER BY id LIMIT 1 OFFSET \(random.next(below: 300)))"
                let phone = "(SELECT id FROM phones ORDER BY id LIMIT 1 OFFSET \(random.next(below: 300)))"
                let (sql, arguments): (String, StatementArguments) = switch random.next(below: 11) {
                case 0, 1: ("INSERT OR IGNORE INTO products(type, name, name_folded, year_introduced, intro_price) VALUES (?, ?, ?, 2000, 1)",
                            [random.pick(types), "new \(index)", text()])
                case 2: ("UPDATE products SET name_folded = ? WHERE id = \(product)", [text()])
                case 3: ("UPDATE products SET type = ? WHERE id = \(product)", [random.pick(types)])
                case 4: ("UPDATE products SET type = ?, name_folded = ? WHERE id = \(product)", [random.pick(types), text()])
                case 5: ("UPDATE products SET intro_price = intro_price + 1 WHERE id = \(product)", [])
                case 6: ("DELETE FROM products WHERE id = \(product)", [])
                case 7: ("UPDATE phones SET name_folded = ?, maker_folded = ? WHERE id = \(phone)", [text(), text()])
                case 8: ("DELETE FROM phones WHERE id = \(phone)", [])
                case 9: ("INSERT INTO phones(name, name_folded, maker, maker_folded, year_released, operating_system, screen_inches) VALUES (?, ?, 'm', ?, 2000, 'os', 5)",
                         ["new \(index)", text(), text()])
                default: ("UPDATE OR IGNORE products SET id = ? WHERE id = \(product)", [6_000 + random.next(below: 3_000)])
                }
                try db.execute(sql: sql, arguments: arguments)
            }
        }
        #expect(try store.file!.read { db in try db.scalar(Int.self, sql: "SELECT count(*) FROM products") ?? 0 } > 100)
        #expect(try store.file!.read { db in
            try Product.searchDescription.indexProblems(db) + Phone.searchDescription.indexProblems(db)
        }.isEmpty)
    }

    /// The trigram index's rowids hold ids from 0 to 2⁴⁸ − 1: an insert above fails and writes
    /// nothing; a trigram index that disagrees with the names is reported by the check.
    @Test func idsOutsideTheScopedRangeAreRefusedAndAWrongIndexIsReported() throws {
        let store = try CatalogStore(path: directory.path("catalog.sqlite"))
        try store.file!.write { db in
            try db.execute(
                sql: "INSERT INTO products(id, type, name, name_folded, year_introduced, intro_price) VALUES (1, 'device', 'Mac', 'mac', 2020, 1)")
        }
        #expect(throws: DatabaseError.self) {
            try store.file!.write { db in
                try db.execute(
                    sql: "INSERT INTO products(id, type, name, name_folded, year_introduced, intro_price) VALUES (?, 'device', 'Big', 'big', 2020, 1)",
                    arguments: [SearchDescription.largestScopedID + 1])
            }
        }
        #expect(try store.file!.read { db in try db.scalar(Int.self, sql: "SELECT count(*) FROM products") } == 1)
        #expect(try store.check() == [])
        try store.file!.write { db in
            try db.execute(sql: "INSERT INTO products_search(rowid, name_folded) VALUES (1, 'mac')")  // no type: number 0
        }
        #expect(try store.check().contains { $0.hasPrefix("products_search:") })
    }
}
