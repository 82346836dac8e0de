import Catalog
import Foundation
import SQLiteStore
import TestSupport
import Testing
import TextSearch

/// The store's async API against its synchronous one, on a database file (a pool).
struct AsyncStoreTests {
    @Test func asyncCRUDDoesWhatTheSynchronousCallsDo() async throws {
        let directory = try TemporaryDirectory()
        let store = try CatalogStore(path: directory.path())
        #expect(store.file! is DatabasePool)
        let saved = try await store.insert(Product(type: .device, name: "iPod", yearIntroduced: 2001, introPrice: 399))
        let id = try #require(saved.id)
        #expect(try await store.fetchOne(Product.self, id: id) == saved)
        var renamed = saved
        renamed.name = "iPod classic"
        try await store.update(renamed)
        #expect(try await store.fetchAll(Product.self) == [renamed])
        #expect(try await store.count(Product.self) == 1)
        #expect(try await store.isEmpty(Product.self) == false)
        #expect(try await store.suggest(prefix: "IPO") == ["iPod classic"])
        await #expect(throws: CatalogError.self) {
            try await store.insert(Product(type: .device, name: "iPod classic", yearIntroduced: 2001, introPrice: 1))
        }
        #expect(try await store.delete(Product.self, id: id) == renamed)
        await #expect(throws: CatalogError.self) { try await store.delete(Product.self, id: id) }
        #expect(try await store.count(Product.self) == 0)
        #expect(try await store.isEmpty(Product.self))
    }

    @Test func asyncFetchedResultsMatchTheSynchronousOnes() async throws {
        let directory = try TemporaryDirectory()
        let store = try CatalogStore(path: directory.path())
        try store.seed(SeedFile.builtIn)
        let request = ListRequest<Product>(scope: .portable, sort: .price)
        let controller = try await store.fetchedResults(request, batchSize: 2)
        #expect(try controller.entitySections() == (try store.sections(request) as [EntitySection<Product>]))
    }

    @Test func asyncSearchPagesMatchTheSynchronousOnes() async throws {
        let directory = try TemporaryDirectory()
        let store = try CatalogStore(path: directory.path())
        try store.seed(SeedFile.builtIn)
        // The synchronous call, which an async function would not pick.
        func syncPage<Entity: CatalogEntity>(_ request: ListRequest<Entity>, limit: Int = 50, offset: Int = 0) throws -> SearchPage<Entity> {
            try store.searchPage(request, limit: limit, offset: offset)
        }
        let cases: [(text: String, scope: ProductType?, offset: Int)] = [("mac", nil, 0), ("ip", .device, 1), ("", nil, 3), ("zzz", nil, 0)]
        for (text, scope, offset) in cases {
            let request = ListRequest<Product>(scope: scope, sort: .year, searchText: text)
            let page = try await store.searchPage(request, limit: 3, offset: offset)
            #expect(page == (try syncPage(request, limit: 3, offset: offset)))
        }
        let phones = try await store.searchPage(ListRequest<Phone>(searchText: "iphone"))
        #expect(phones == (try syncPage(ListRequest<Phone>(searchText: "iphone"))))
        // Cancelled before it starts: it never runs.
        let cancelled = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return try await store.searchPage(ListRequest<Product>(searchText: "mac"))
        }
        await #expect(throws: CancellationError.self) { try await cancelled.value }
    }

    @Test func manyTasksReadWhileOneWrites() async throws {
        let directory = try TemporaryDirectory()
        let store = try CatalogStore(path: directory.path())
        try store.seed(SeedFile.builtIn)
        let initial = try await store.count(Product.self)
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask {
                for index in 0..<50 {
                    try await store.insert(Product(type: .desktop, name: "Tower \(index)", yearIntroduced: 2000, introPrice: 1))
                }
            }
            for _ in 0..<6 {
                group.addTask {
                    var last = initial
                    for _ in 0..<40 {
                        let count = try await store.count(Product.self)
                        #expect(count >= last && count <= initial + 50)
                        last = count
                    }
                }
            }
            try await group.waitForAll()
        }
        #expect(try await store.count(Product.self) == initial + 50)
    }
}
