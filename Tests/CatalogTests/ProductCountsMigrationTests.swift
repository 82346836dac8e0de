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
        #expect(try catalog.migrationStatus().map(\.version) == [1, 2, 3, 4, 5, 6, 7])
        _ = try catalog.insert(Product(type: .desktop, name: "iMac", yearIntroduced: 1998, introPrice: 1299))
        let counts = try store.writer.read { db in try SectionCounts.counts(forTable: "products", section: "type", in: db) }
        #expect(counts?.map { "\($0.key) \($0.count)" } == ["\"desktop\" 1", "\"device\" 2", "\"portable\" 1"])
        #expect(try catalog.check() == [])
    }

    /// A server whose products were counted by type while PostgreSQL's counting function was named
    /// after the table and a hash of the section (SQLite's trigger prefix), before it was named by a
    /// hash of both: migration 4 counted them again under the new name and left the older function,
    /// unused; migration 6 drops it, and the counts go on. On SQLite it does nothing.
    @Test(arguments: StoreEngine.all) func aStoreAtMigration5LosesTheOlderCountFunction(engine: StoreEngine) throws {
        let store = try engine.makeStore()
        let older = SectionCounts.triggerPrefix(forTable: "products", section: "type")
        let olderFunctions = "SELECT count(*) FROM pg_proc WHERE proname = '\(older)' AND pronamespace = to_regnamespace(current_schema())"
        try store.writer.writeWithoutTransaction { db in
            let migrator = try CatalogMigrations.migrator()
            _ = try migrator.migrate(upTo: [CatalogMigrations.identity: 3], db)
            if db.dialect == .postgreSQL {
                // What that version's baseline made: the counting under the function's older name.
                let current = SectionCounts.postgreSQLFunctionName(forTable: "products", section: "type")
                try db.execute(sql: SectionCounts.installationSQL(dialect: .postgreSQL), values: [])
                let counting = SectionCounts.countingSQL(
                    forTable: "products", columns: try db.columnNames(ofTable: "products"), section: "type", dialect: .postgreSQL)
                try db.execute(sql: counting.replacing(current, with: older), values: [])
            }
            _ = try migrator.migrate(upTo: [CatalogMigrations.identity: 5], db)
            if db.dialect == .postgreSQL { #expect(try db.fetchRows(sql: olderFunctions, values: []) == [[.integer(1)]]) }
        }
        let catalog = try CatalogStore(writer: store.writer)
        #expect(try catalog.migrationStatus().map(\.version) == [1, 2, 3, 4, 5, 6, 7])
        if engine == .postgreSQL { #expect(try store.writer.read { db in try db.fetchRows(sql: olderFunctions, values: []) } == [[.integer(0)]]) }
        _ = try catalog.insert(Product(type: .desktop, name: "iMac", yearIntroduced: 1998, introPrice: 1299))
        let counts = try store.writer.read { db in try SectionCounts.counts(forTable: "products", section: "type", in: db) }
        #expect(counts?.map { "\($0.key) \($0.count)" } == ["\"desktop\" 1"])
        #expect(try catalog.check() == [])
    }
}
