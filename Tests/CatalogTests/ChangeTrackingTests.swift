import Catalog
import Foundation
import SQLiteStore
import TestSupport
import Testing

struct ChangeTrackingTests {
    @Test func theBaselineRunsTheChangeLogsGeneratedSQL() throws {
        let generated = ChangeLog.installationSQL() + ChangeLog.trackingSQL(forTable: "products")
            + ChangeLog.trackingSQL(forTable: "phones")
        #expect(CatalogMigrations.baselineSQL.contains(generated))
    }

    /// The baseline counts the products by type with the triggers `SectionCounts.countingSQL` generates.
    @Test func theSectionCountsTriggersAreTheGeneratedSQL() throws {
        let directory = try TemporaryDirectory()
        let query = "SELECT sql FROM sqlite_master WHERE name LIKE 'store\\_section\\_counts\\_%' ESCAPE '\\' ORDER BY name"
        let store = try CatalogStore(path: directory.path("catalog.sqlite"))
        let (migrated, table) = try store.file!.read { db in
            (try db.fetchAll(sql: query) { try $0.decode(String.self, at: 0) },
             try #require(try db.scalar(String.self, sql: "SELECT sql FROM sqlite_master WHERE name = 'products'")))
        }
        let columns = ["id", "type", "name", "name_folded", "year_introduced", "intro_price"]
        let generated = try DatabaseQueue(path: directory.path("generated.sqlite")).write { db in
            try db.execute(sql: table + ";\n" + SectionCounts.installationSQL()
                + SectionCounts.countingSQL(forTable: "products", columns: columns, section: "type"))
            return try db.fetchAll(sql: query) { try $0.decode(String.self, at: 0) }
        }
        #expect(migrated.count == 4)
        #expect(migrated == generated)
    }

    @Test func productSectionCountsFollowTheStoresWrites() throws {
        let store = try CatalogStore.inMemory()
        try store.seed(SeedFile.builtIn)
        let newton = try store.insert(Product(type: .device, name: "Newton", yearIntroduced: 1993, introPrice: 699))
        var moved = newton
        moved.type = .portable
        try store.update(moved)
        try store.delete(Product.self, id: try #require(store.fetchAll(Product.self).first { $0.type == .desktop }?.id))
        let (counts, reference) = try store.file!.read { db in
            (try SectionCounts.counts(forTable: "products", section: "type", in: db),
             try db.fetchAll(sql: "SELECT type, count(*) FROM products GROUP BY type ORDER BY type") {
                 "\($0.databaseValue(at: 0)) \(try $0.decode(Int.self, at: 1))"
             })
        }
        #expect(try #require(counts).map { "\($0.key) \($0.count)" } == reference)
    }

    /// The live-changes example the README had, as written: a product added and another renamed to sort first
    /// arrive as one change set, described deletions first, then by ascending new path.
    @Test func theReadmesLiveChangesExampleDescribesItsChangeSet() throws {
        let directory = try TemporaryDirectory()
        let store = try CatalogStore(path: directory.path("catalog.sqlite"))
        try store.seed(SeedFile.builtIn)
        let controller = try store.trackedResults(ListRequest<Product>(scope: .device), batchSize: 50)
        let added = try store.insert(Product(type: .device, name: "iPhone 16", yearIntroduced: 2024, introPrice: 799))
        var renamed = try #require(store.fetchAll(Product.self).first { $0.name == "iPod" })
        renamed.name = "aaa iPod"
        try store.update(renamed)
        let changeSet = try controller.applyPendingChanges()
        #expect(added.id == 10 && renamed.id == 2)
        #expect(changeSet.description == "move 2 0.3 → 0.0, insert 10 at 0.4")
    }

    @Test(.timeLimit(.minutes(10)))
    func productInsertsRenamesAndDeletesAreLoggedAndDelivered() async throws {
        let directory = FileManager.default.temporaryDirectory.appending(path: "catalog-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appending(path: "catalog.sqlite").path
        let store = try CatalogStore(path: path)
        let old = try await store.insert(Product(type: .device, name: "iPod", yearIntroduced: 2001, introPrice: 399))
        let start = try await store.file!.read { db in try ChangeLog.currentSequence(db) }

        let monitor = try ChangeMonitor(path: path)
        let changes = monitor.changes(after: start)
        let new = try await store.insert(Product(type: .device, name: "iPhone", yearIntroduced: 2007, introPrice: 599))
        var renamed = new
        renamed.name = "iPhone 2G"
        try await store.update(renamed)
        try await store.delete(Product.self, id: try #require(old.id))

        var received = DatabaseChanges(fromSequence: start, toSequence: start, changes: [])
        for await delivery in changes {
            received.append(delivery)
            if received.toSequence >= start + 3 { break }
        }
        #expect(received.isComplete)
        #expect(received.changes.map { "\($0.kind) \($0.table) \($0.rowID)" } == [
            "insert products \(new.id!)", "update products \(new.id!)", "delete products \(old.id!)",
        ])
    }
}
