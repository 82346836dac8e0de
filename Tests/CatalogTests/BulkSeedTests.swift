@testable import Catalog
import Entities
import FetchedResults
import Foundation
import SQLiteStore
import TestSupport
import Testing
import TextSearch

/// Seeding in bulk against seeding row by row with every trigger: the same database, table by table
/// (the full-text index compared through its answers and its own integrity check), and live
/// controllers that see the load.
struct BulkSeedTests {
    /// More products than the bulk insert's default triggered rows, so a seed suspends the triggers.
    static let products = SyntheticCatalog.products(count: BulkInsert.defaultTriggeredRows + 500, seed: 16)

    /// The sources of a load: the built-in seed, synthetic products, then records that update some
    /// of them by name, one kept id replacing a row, one kept id above every row.
    static func sources() -> [SeedSource] {
        var updates = Array(products.prefix(20)).map { product in
            var changed = product
            changed.introPrice += 1
            changed.type = .device
            return changed
        }
        var replaced = Product(type: .desktop, name: "Replaced Three", yearIntroduced: 1999, introPrice: 3)
        replaced.id = 3
        var added = Product(type: .portable, name: "Bulk Added Ünïcode 東京", yearIntroduced: 2026, introPrice: 1)
        added.id = 90_000
        updates += [replaced, added]
        return SeedFile.builtIn.map { SeedSource($0) } + [
            SeedSource(SeedFile(products)), SeedSource(SeedFile(updates)),
        ]
    }

    /// Every table's rows but the full-text indexes' own, the applied migrations' (their dates) and
    /// the bits of very common characters (a bulk load chooses which characters have them, a seed row
    /// by row never does: `check()` sets them again from the names), the grams index's rows of each
    /// token, the log without positions, and the schema.
    func contents(_ store: CatalogStore) throws -> [String] {
        try store.file!.write { db in
            let tables = try db.fetchAll(
                sql: "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' "
                    + "AND name NOT LIKE '%\\_search%' ESCAPE '\\' AND name NOT LIKE '%\\_grams%' ESCAPE '\\' "
                    + "AND name NOT LIKE '%\\_gram\\_bits' ESCAPE '\\' AND name NOT IN ('store_changes', 'schema_migrations') ORDER BY name"
            ) { try $0.decode(String.self, at: 0) }
            var lines = try db.fetchAll(sql: "SELECT type, name, sql FROM sqlite_master ORDER BY type, name") {
                "schema \($0.databaseValue(at: 0)) \($0.databaseValue(at: 1)) \($0.databaseValue(at: 2))"
            }
            lines += try db.fetchAll(sql: "SELECT table_name, row_id, kind FROM store_changes ORDER BY table_name, row_id, seq") {
                "log \($0.databaseValue(at: 0)) \($0.databaseValue(at: 1)) \($0.databaseValue(at: 2))"
            }
            lines += try FullTextTokens.rowsByToken("products_grams", db).map { "products_grams " + $0 }
            for table in tables {
                lines += try db.fetchAll(sql: "SELECT * FROM \(table)") { row in
                    "\(table) " + (0..<row.count).map { "\(row.databaseValue(at: $0))" }.joined(separator: " ")
                }.sorted()
            }
            return lines
        }
    }

    /// Expects the same contents, showing the first lines that differ.
    func expectSameContents(_ store: CatalogStore, _ reference: CatalogStore) throws {
        let (lines, expected) = (try contents(store), try contents(reference))
        let only = Set(lines).symmetricDifference(expected).sorted().prefix(6)
        #expect(lines == expected, "differing: \(Array(only))")
    }

    /// What searches find, which goes through the full-text index for terms of 3+ scalars.
    func found(_ store: CatalogStore) throws -> [String] {
        try ["mac", "pro 20", "東京", "book air", "ipod", "e", "12"].map { text in
            let sections: [EntitySection<Product>] = try store.search(SearchQuery(text), in: ListRequest())
            return "\(text): " + sections.flatMap { $0.records.map(\.name) }.joined(separator: ", ")
        }
    }

    @Test(arguments: [0, BulkInsert.defaultTriggeredRows])
    func aBulkSeedStoresWhatASeedRowByRowStores(triggeredRows: Int) throws {
        let directory = try TemporaryDirectory()
        let reference = try CatalogStore(path: directory.path("reference.sqlite"))
        let referenceReport = try reference.seed(Self.sources(), conflicts: .update, triggeredRows: .max, progress: nil)
        let bulk = try CatalogStore(path: directory.path("bulk.sqlite"))
        let report = try bulk.seed(Self.sources(), conflicts: .update, triggeredRows: triggeredRows, progress: nil)
        #expect(report == referenceReport)
        #expect(report.updated == 21)
        try expectSameContents(bulk, reference)
        #expect(try found(bulk) == found(reference))
        #expect(try bulk.check() == [])
    }

    @Test func aBulkSeedIntoAFilledDatabaseStoresWhatASeedRowByRowStores() throws {
        let directory = try TemporaryDirectory()
        let reference = try CatalogStore(path: directory.path("reference.sqlite"))
        let bulk = try CatalogStore(path: directory.path("bulk.sqlite"))
        for store in [reference, bulk] { try store.seed(SeedFile.builtIn) }
        let more = SyntheticCatalog.products(count: 300, seed: 17)
        try reference.seed([SeedSource(SeedFile(more))], conflicts: .skip, triggeredRows: .max, progress: nil)
        try bulk.seed([SeedSource(SeedFile(more))], conflicts: .skip, triggeredRows: 0, progress: nil)
        try expectSameContents(bulk, reference)
        #expect(try found(bulk) == found(reference))
        #expect(try bulk.check() == [])
    }

    /// Names repeated in the input and names already stored, also past the rows a bulk insert takes
    /// with its triggers (its rows are then queued and inserted in name order), against the Import, export and backups article's
    /// definition: records with new names get the next ids in the order they come; a record whose
    /// name is taken, by a stored record or an earlier one of the input, updates that record or is
    /// skipped.
    @Test(arguments: [ImportConflicts.skip, .update])
    func takenNamesInABulkSeedAreConflictsInTheOrderTheRecordsCome(conflicts: ImportConflicts) throws {
        let directory = try TemporaryDirectory()
        let store = try CatalogStore(path: directory.path())
        try store.seed(SeedFile.builtIn)
        let stored = try store.fetchAll(Product.self)
        let triggered = BulkInsert.defaultTriggeredRows
        var input = SyntheticCatalog.products(count: triggered + 900, seed: 21)
        for position in stride(from: input.count - 1, to: 300, by: -41) {
            var again = input[position - 300]
            again.introPrice += 7
            again.type = .portable
            input.insert(again, at: position)
        }
        for (offset, position) in [triggered / 2, triggered + 200, triggered + 700].enumerated() {
            var taken = stored[offset * 3]
            taken.id = nil
            taken.yearIntroduced = 1_900 + offset
            input.insert(taken, at: position)
        }
        var expected = Dictionary(uniqueKeysWithValues: stored.map { ($0.name, $0) })
        var nextID = (stored.compactMap(\.id).max() ?? 0) + 1
        var expectedReport = SeedReport()
        for record in input {
            if let existing = expected[record.name] {
                guard conflicts == .update else {
                    expectedReport.skipped += 1
                    continue
                }
                var updated = record
                updated.id = existing.id
                expected[record.name] = updated
                expectedReport.updated += 1
            } else {
                var added = record
                added.id = nextID
                nextID += 1
                expected[record.name] = added
                expectedReport.inserted[.products, default: 0] += 1
            }
        }
        let report = try store.seed([SeedSource(SeedFile(input))], conflicts: conflicts)
        #expect(report == expectedReport)
        #expect(try store.fetchAll(Product.self) == expected.values.sorted { $0.id! < $1.id! })
        #expect(try store.check() == [])
    }

    @Test func aFailedBulkSeedLeavesTheDatabaseAsItWas() throws {
        let directory = try TemporaryDirectory()
        let store = try CatalogStore(path: directory.path())
        try store.seed(SeedFile.builtIn)
        let before = try contents(store)
        var clash = Self.products[5]
        clash.id = 80_000
        let sources = [SeedSource(SeedFile(Self.products)), SeedSource(SeedFile([clash]))]
        #expect(throws: CatalogError.self) { try store.seed(sources, conflicts: .skip, triggeredRows: 0, progress: nil) }
        #expect(try contents(store) == before)
        #expect(try store.check() == [])
    }

    @Test func aTrackingControllerSeesTheBulkLoad() throws {
        let directory = try TemporaryDirectory()
        let store = try CatalogStore(path: directory.path())
        try store.seed(SeedFile.builtIn)
        let controller = try store.fetchedResults(ListRequest<Product>())
        try controller.startTracking()
        try store.seed([SeedSource(SeedFile(Self.products))])
        let changes = try controller.applyPendingChanges()
        #expect(!changes.isEmpty)
        let fresh = try store.fetchedResults(ListRequest<Product>())
        #expect(try controller.snapshot() == fresh.snapshot())
        #expect(try controller.snapshot().count == Self.products.count + 9)
    }

    @Test func aWriterOpenedBeforeABulkSeedInAnotherConnectionWritesAfterIt() throws {
        let directory = try TemporaryDirectory()
        let store = try CatalogStore(path: directory.path())
        try store.seed(SeedFile.builtIn)
        #expect(try store.count(Product.self) == 9)
        // Another connection's bulk seed drops and creates triggers: a schema change this one learns
        // of at its next statement.
        let other = try CatalogStore(path: directory.path())
        try other.seed([SeedSource(SeedFile(Self.products))], conflicts: .skip, triggeredRows: 0, progress: nil)
        _ = try store.insert(Product(type: .device, name: "After The Bulk Seed", yearIntroduced: 2026, introPrice: 1))
        #expect(try store.count(Product.self) == Self.products.count + 10)
    }
}
