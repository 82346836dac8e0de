import Catalog
import Foundation
import SQLiteStore
import TestSupport
import Testing
import TextSearch

/// Saving, reading, listing and seeding products and phones in a real database file.
struct CatalogStoreTests {
    let directory: TemporaryDirectory
    let store: CatalogStore

    init() throws {
        directory = try TemporaryDirectory()
        store = try CatalogStore(path: directory.path())
    }

    /// A catalog of `engine`, opened through ``CatalogStore/init(writer:migrationSets:)`` on a store the
    /// test made (a file, or a schema of its own on the test servers), with what keeps that store.
    private static func store(_ engine: StoreEngine) throws -> (CatalogStore, TestStore) {
        let test = try engine.makeStore()
        return (try CatalogStore(writer: test.writer), test)
    }

    private func searchIDs(_ table: String, _ term: String) throws -> [Int64] {
        try store.file!.read { db in
            try db.fetchAll(
                // The products' rowids carry the type above the id (migration 8).
                sql: "SELECT rowid & \(SearchDescription.largestScopedID) FROM \(table)_search WHERE \(table)_search MATCH ? ORDER BY 1",
                arguments: ["\"" + term + "\""]) { try $0.decode(Int64.self, at: 0) }
        }
    }

    private func checkSearchIndexIntegrity(of store: CatalogStore? = nil) throws {
        try (store ?? self.store).file!.write { db in
            try db.execute(sql: "INSERT INTO products_search(products_search) VALUES ('integrity-check')")
            try db.execute(sql: "INSERT INTO phones_search(phones_search) VALUES ('integrity-check')")
        }
    }

    @Test func embeddedMigrationsApply() throws {
        let versions = try store.file!.read { db in try store.migrator.appliedMigrations(db).map(\.version) }
        #expect(versions == CatalogMigrations.all.map(\.version))
        #expect(!versions.isEmpty)
    }

    /// What only a file has is reached through `file`, which a catalog on a server does not have; the
    /// check runs on both (on a server, the recount of the section counts).
    @Test(arguments: StoreEngine.all) func onlyAFileHasAFileAndBothHaveACheck(engine: StoreEngine) throws {
        let (store, kept) = try Self.store(engine)
        defer { withExtendedLifetime(kept) {} }
        switch engine {
        case .sqlite:
            let path = try #require(store.file?.path)
            #expect(path == (kept.writer as? any DatabaseWriter)?.path)
            #expect(try store.check() == [])
        case .postgreSQL:
            #expect(store.file == nil)
            #expect(try store.check() == [])
        }
    }

    @Test(arguments: StoreEngine.all) func insertReadUpdateDelete(engine: StoreEngine) throws {
        let (store, kept) = try Self.store(engine)
        defer { withExtendedLifetime(kept) {} }
        let saved = try store.insert(Product(type: .device, name: "  iPhone  ", yearIntroduced: 2007, introPrice: 599))
        let id = try #require(saved.id)
        #expect(saved.name == "iPhone")
        #expect(try store.fetchOne(Product.self, id: id) == saved)
        var renamed = saved
        renamed.name = "iPhone 3G"
        try store.update(renamed)
        #expect(try store.fetchOne(Product.self, id: id)?.name == "iPhone 3G")
        #expect(try store.delete(Product.self, id: id) == renamed)
        #expect(try store.fetchOne(Product.self, id: id) == nil)
        #expect(throws: CatalogError.notFound(entity: .products, id: id)) { try store.delete(Product.self, id: id) }
    }

    @Test func searchIndexFollowsInsertUpdateDelete() throws {
        let cafe = try store.insert(Product(type: .desktop, name: "Café Pro", yearIntroduced: 2020, introPrice: 10))
        let id = try #require(cafe.id)
        #expect(try searchIDs("products", "cafe") == [id])
        var renamed = cafe
        renamed.name = "Crème Max"
        try store.update(renamed)
        #expect(try searchIDs("products", "cafe").isEmpty)
        #expect(try searchIDs("products", "creme") == [id])
        try checkSearchIndexIntegrity()
        try store.delete(Product.self, id: id)
        #expect(try searchIDs("products", "creme").isEmpty)
        try checkSearchIndexIntegrity()

        let phone = try store.insert(Phone(name: "らくらくホン", maker: "富士通", yearReleased: 2022, operatingSystem: "Android", screenInches: 5.4))
        #expect(try searchIDs("phones", "らくらく") == [phone.id!])
        #expect(try searchIDs("phones", "富士通") == [phone.id!])
        try store.delete(Phone.self, id: phone.id!)
        #expect(try searchIDs("phones", "らくらく").isEmpty)
        try checkSearchIndexIntegrity()
    }

    @Test(arguments: StoreEngine.all) func duplicateNamesAreRefused(engine: StoreEngine) throws {
        let (store, kept) = try Self.store(engine)
        defer { withExtendedLifetime(kept) {} }
        try store.insert(Product(type: .device, name: "iPod", yearIntroduced: 2001, introPrice: 399))
        #expect(throws: CatalogError.duplicateName(entity: .products, name: "iPod")) {
            try store.insert(Product(type: .desktop, name: "iPod", yearIntroduced: 2001, introPrice: 1))
        }
        #expect(try store.count(Product.self) == 1)
        #expect(try store.isEmpty(Product.self) == false)
    }

    @Test(arguments: [
        Product(type: .device, name: "", yearIntroduced: 2007, introPrice: 1),
        Product(type: .device, name: "bell\u{7}", yearIntroduced: 2007, introPrice: 1),
        Product(type: .device, name: String(repeating: "x", count: 201), yearIntroduced: 2007, introPrice: 1),
        Product(type: .device, name: "ok", yearIntroduced: 1492, introPrice: 1),
        Product(type: .device, name: "ok", yearIntroduced: 2007, introPrice: -1),
        Product(type: .device, name: "ok", yearIntroduced: 2007, introPrice: .nan),
        Product(type: .device, name: "ok", yearIntroduced: 2007, introPrice: .infinity),
    ])
    func invalidProductsAreRefused(_ product: Product) throws {
        #expect(throws: CatalogError.self) { try store.insert(product) }
        #expect(try store.count(Product.self) == 0)
        #expect(try store.isEmpty(Product.self))
    }

    @Test(arguments: StoreEngine.all) func seedingTwiceAddsNothingTheSecondTime(engine: StoreEngine) throws {
        let (store, kept) = try Self.store(engine)
        defer { withExtendedLifetime(kept) {} }
        let first = try store.seed(SeedFile.builtIn)
        #expect(first.productsInserted == 9)
        #expect(first.phonesInserted >= 24)
        let second = try store.seed(SeedFile.builtIn)
        #expect(second.productsInserted == 0)
        #expect(second.phonesInserted == 0)
        #expect(second.skipped == first.productsInserted + first.phonesInserted)
        #expect(try store.count(Product.self) == 9)
        if store.file != nil { try checkSearchIndexIntegrity(of: store) }
    }

    @Test func seedingIsAtomic() throws {
        let good = Product(type: .device, name: "Good", yearIntroduced: 2000, introPrice: 1)
        // Bypasses validation, so that the database's CHECK constraint fails midway.
        let bad = Product(type: .device, name: "", yearIntroduced: 2000, introPrice: 1)
        #expect(throws: DatabaseError.self) { try store.seed([SeedFile([good, bad])]) }
        #expect(try store.count(Product.self) == 0)
    }

    @Test(arguments: StoreEngine.all) func builtInSeedsHoldTheSampleProducts(engine: StoreEngine) throws {
        let (store, kept) = try Self.store(engine)
        defer { withExtendedLifetime(kept) {} }
        try store.seed(SeedFile.builtIn)
        let products = try store.fetchAll(Product.self)
        let byName = Dictionary(uniqueKeysWithValues: products.map { ($0.name, $0) })
        #expect(byName["iPhone"]?.yearIntroduced == 2007)
        #expect(byName["iPhone"]?.introPrice == 599)
        #expect(byName["iPad mini"]?.introPrice == 659)
        #expect(byName["iMac"]?.type == .desktop)
        #expect(byName["MacBook Air"]?.type == .portable)
        #expect(products.count == 9)
    }

    @Test(arguments: StoreEngine.all) func productsAreSectionedByTypeAndSortedByFoldedName(engine: StoreEngine) throws {
        let (store, kept) = try Self.store(engine)
        defer { withExtendedLifetime(kept) {} }
        try store.seed(SeedFile.builtIn)
        let sections: [EntitySection<Product>] = try store.sections(ListRequest())
        #expect(sections.map(\.name) == ["Desktop", "Device", "Portable"])
        #expect(sections.map(\.indexTitle) == ["D", "D", "P"])
        #expect(sections[1].records.map(\.name) == ["iPad", "iPad mini", "iPhone", "iPod", "iPod touch"])
        let byPrice: [EntitySection<Product>] = try store.sections(
            ListRequest(scope: .device, sort: .price, isReversed: true))
        #expect(byPrice.count == 1)
        #expect(byPrice[0].records.map(\.introPrice) == [659, 599, 499, 399, 210])
    }

    @Test(arguments: StoreEngine.all) func phonesAreSectionedByFoldedInitial(engine: StoreEngine) throws {
        let (store, kept) = try Self.store(engine)
        defer { withExtendedLifetime(kept) {} }
        for (index, name) in ["éclair", "Echo", "apple", "Zed"].enumerated() {
            try store.insert(Phone(name: name, maker: "M", yearReleased: 2000 + index, operatingSystem: "X", screenInches: 1))
        }
        let sections: [EntitySection<Phone>] = try store.sections(ListRequest<Phone>())
        #expect(sections.map(\.name) == ["A", "E", "Z"])
        #expect(sections[1].records.map(\.name) == ["Echo", "éclair"])
        let reversed: [EntitySection<Phone>] = try store.sections(ListRequest<Phone>(isReversed: true))
        #expect(reversed.map(\.name) == ["Z", "E", "A"])
    }

    @Test(arguments: StoreEngine.all) func tiesAreBrokenByID(engine: StoreEngine) throws {
        let (store, kept) = try Self.store(engine)
        defer { withExtendedLifetime(kept) {} }
        for name in ["b", "a", "c"] {
            try store.insert(Product(type: .device, name: name, yearIntroduced: 2000, introPrice: 5))
        }
        let sections: [EntitySection<Product>] = try store.sections(ListRequest(sort: .price))
        #expect(sections[0].records.map(\.name) == ["b", "a", "c"])
    }

    @Test func reopeningKeepsDataAndSchema() throws {
        try store.insert(Product(type: .device, name: "Kept", yearIntroduced: 2000, introPrice: 5))
        let reopened = try CatalogStore(path: directory.path())
        #expect(try reopened.count(Product.self) == 1)
    }
}
