import Catalog
import Entities
import SQLiteStore
import TestSupport
import Testing

/// The products' counts by type on both engines: SQLite's baseline has them; a server's baseline
/// does not (it is the SQL that servers made before the counts applied), and migration 4 counts the
/// rows already there.
struct ProductCountsMigrationTests {
    @Test(arguments: StoreEngine.all) func aStoreAtMigration3GetsItsProductsCountedByType(engine: StoreEngine) throws {
        let store = try engine.makeStore()
        try store.writer.writeWithoutTransaction { db in
            _ = try CatalogMigrations.migrator().migrate(upTo: [CatalogMigrations.identity: 3], db)
        }
        try store.writer.write { db in
            for (type, name) in [(ProductType.device, "iPhone"), (.portable, "MacBook Air"), (.device, "iPad")] {
                var product = Product(type: type, name: name, yearIntroduced: 2008, introPrice: 499)
                try product.insert(db)
            }
        }
        let before = try store.writer.read { db in try SectionCounts.counts(forTable: "products", section: "type", in: db) }
        #expect((before == nil) == (engine == .postgreSQL))

        let catalog = try CatalogStore(writer: store.writer)
        #expect(try catalog.migrationStatus().map(\.version) == [1, 2, 3, 4, 5])
        _ = try catalog.insert(Product(type: .desktop, name: "iMac", yearIntroduced: 1998, introPrice: 1299))
        let counts = try store.writer.read { db in try SectionCounts.counts(forTable: "products", section: "type", in: db) }
        #expect(counts?.map { "\($0.key) \($0.count)" } == ["\"desktop\" 1", "\"device\" 2", "\"portable\" 1"])
        #expect(try catalog.check() == [])
    }
}
