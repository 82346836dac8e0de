import Catalog
import FetchedResults
import Foundation
import SQLiteStore
import Testing
import TestSupport

/// `show S.R` (`CatalogStore.record(at:in:)`) against the full listing of the same request
/// (`CatalogStore.sections(_:)`), as a differential test for any faster path `show` takes: for random
/// queries, scopes, sorts and directions over a seeded catalog, every valid path names the listing's
/// row there, and a path past the listing gives the documented error with the listing's section count.
struct ShowPathDifferentialTests {
    @Test func everyPathShowsTheListingsRow() throws {
        let directory = try TemporaryDirectory()
        let store = try CatalogStore(path: directory.path("catalog.sqlite"))
        let products = SyntheticCatalog.products(count: 400, seed: 33)
        try store.seed([SeedFile(products)])
        let names = products.map(\.name)
        var random = SplitMix64(seed: 33)
        var shown = 0
        for _ in 0..<40 {
            var request = ListRequest<Product>(
                scope: random.next(below: 4) == 0 ? random.pick(ProductType.allCases) : nil,
                sort: random.pick([.name, .name, .year, .price]), isReversed: random.next(below: 3) == 0,
                searchText: random.pick(["touch s", "mac", "a", "zqx", "東京"] + (0..<5).map { _ in
                    RandomCatalog.query(names: names, products: products, &random)
                }))
            if request.searchQuery.isEmpty { request.searchText = "pro" }
            let sections: [EntitySection<Product>] = try store.sections(request)
            for (section, listed) in sections.enumerated() {
                for (row, record) in listed.records.enumerated() {
                    #expect(try store.record(at: ItemPath(section: section, row: row), in: request) == record, "\(request)")
                    shown += 1
                }
                expectOutOfRange(store, ItemPath(section: section, row: listed.records.count), request, sections.count)
            }
            expectOutOfRange(store, ItemPath(section: sections.count, row: 0), request, sections.count)
        }
        #expect(shown > 1_000)
    }

    private func expectOutOfRange(_ store: CatalogStore, _ path: ItemPath, _ request: ListRequest<Product>, _ sectionCount: Int) {
        let expected = CatalogError.indexPathOutOfRange(path.description, sectionCount: sectionCount)
        #expect(throws: expected, "\(request)") { try store.record(at: path, in: request) }
    }
}
