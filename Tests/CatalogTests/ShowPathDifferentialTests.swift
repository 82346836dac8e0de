import Catalog
import FetchedResults
import Foundation
import SQLiteStore
import Testing
import TestSupport
import TextSearch

/// `show S.R` (`CatalogStore.record(at:in:)`), and the count-free path it takes for a search whose
/// counts would read its matches (`FetchRequest.searchRecord(at:costs:_:)`, forced for every search
/// of several terms), against the full listing of the same request (`CatalogStore.sections(_:)`): for random
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
        var countFree = 0
        for _ in 0..<40 {
            var request = ListRequest<Product>(
                scope: random.next(below: 4) == 0 ? random.pick(ProductType.allCases) : nil,
                sort: random.pick([.name, .name, .year, .price]), isReversed: random.next(below: 3) == 0,
                searchText: random.pick(["touch s", "pro pa", "x in", "mac pro", "a e", "mac", "a", "zqx", "東京"] + (0..<5).map { _ in
                    RandomCatalog.query(names: names, products: products, &random)
                }))
            if request.searchQuery.isEmpty { request.searchText = "pro" }
            let fetch = try request.fetchRequest()
            let sections: [EntitySection<Product>] = try store.sections(request)
            for (section, listed) in sections.enumerated() {
                for (row, record) in listed.records.enumerated() {
                    let path = ItemPath(section: section, row: row)
                    #expect(try store.record(at: path, in: request) == record, "\(request)")
                    shown += 1
                    // The count-free path with every strategy it can take, where it takes one.
                    for costs in Self.forcedCosts {
                        switch try store.file!.read({ try fetch.searchRecord(at: path, costs: costs, $0) }) {
                        case .found(let found)?: #expect(found == record, "\(request) at \(path)"); countFree += 1
                        case .outOfRange?: Issue.record("\(request): \(path) out of range")
                        case nil: break
                        }
                    }
                }
                try expectOutOfRange(store, fetch, ItemPath(section: section, row: listed.records.count), request, sections.count)
            }
            try expectOutOfRange(store, fetch, ItemPath(section: sections.count, row: 0), request, sections.count)
        }
        #expect(shown > 1_000)
        #expect(countFree > 200)
    }

    /// Cost models that make every search of several terms count-free (each scope's first match),
    /// its row walked in list order for one entry (then sorted) or for as many as it takes, or read
    /// from its scope's matches listed.
    static let forcedCosts = [
        SearchCosts(denseRows: 1, commonRows: 1, onePassRows: 1, entriesPerRowRead: 1, fewRows: 1),
        SearchCosts(denseRows: 1, commonRows: 1, onePassRows: 1, entriesPerRowRead: 100_000, fewRows: 1),
        SearchCosts(denseRows: 1, commonRows: 1, onePassRows: 1, entriesPerRowRead: 1, fewRows: 100_000),
    ]

    private func expectOutOfRange(
        _ store: CatalogStore, _ fetch: FetchRequest<Product>, _ path: ItemPath, _ request: ListRequest<Product>, _ sectionCount: Int
    ) throws {
        let expected = CatalogError.indexPathOutOfRange(path.description, sectionCount: sectionCount)
        #expect(throws: expected, "\(request)") { try store.record(at: path, in: request) }
        for costs in Self.forcedCosts {
            switch try store.file!.read({ try fetch.searchRecord(at: path, costs: costs, $0) }) {
            case .outOfRange(let count)?: #expect(count == sectionCount, "\(request) at \(path)")
            case .found?: Issue.record("\(request): \(path) found past the listing")
            case nil: break
            }
        }
    }
}
