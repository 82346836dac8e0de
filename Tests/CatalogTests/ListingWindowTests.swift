import Catalog
import FetchedResults
import Foundation
import TestSupport
import Testing

/// A listing as `catalog list` and `search` read it (``CatalogStore/forEachEntity(in:firstRows:sectionsRead:_:)``):
/// its first rows as the search's pages, the rest in one query from the last of them; in a data
/// format (``CatalogStore/forEachEntity(in:firstRows:_:)``), a search whose counts would read its
/// matches in one query, uncounted. Wherever the first rows end, the rows, their order and their
/// index paths are the reference's.
struct ListingWindowTests {
    @Test func aRareTermListsTheReferenceResultAcrossTheFirstRows() throws {
        let (store, directory) = try makeStore(others: 300, prices: 5_000, seed: 0x11_57ED)
        defer { close(store, directory) }
        // A rare word in 11 products of every type besides the others, some spelled so that they fold
        // alike (ties broken by id) and some at the same price or year.
        let spellings = ["Zebra", "zebra", "Zébra", "ZEBRA pro", "zebra mini", "Mini Zebra", "Zèbre", "ＺＥＢＲＡ", "Air zebra", "zebra 2", "zebras"]
        for (index, name) in spellings.enumerated() {
            _ = try store.insert(Product(
                type: ProductType.allCases[index % 3], name: name, yearIntroduced: 2000 + index % 2, introPrice: Double(index % 4)))
        }
        let products = try store.fetchAll(Product.self)
        // `zebra m` and `2000 z` (a number and a short term that few rows hold) are searches whose
        // counts would read their matches: a data format's listing reads them uncounted.
        let queries = ["zebra", "zeb", "ebr mini", "zèbre", "zebra m", "2000 z"]
        try SearchReference.prepare(names: products.map(\.name), queries: queries)

        for text in queries {
            for sort in [SortField.name, .price, .year] {
                for isReversed in [false, true] {
                    for scope in [nil, ProductType.portable] {
                        let request = ListRequest<Product>(scope: scope, sort: sort, isReversed: isReversed, searchText: text)
                        let expected = SearchReference.products(products, request)
                        #expect(expected.count < 20, "\(request): a rare term")
                        for firstRows in 0...(expected.count + 1) {
                            try check(store, request, firstRows: firstRows, expected)
                        }
                    }
                }
            }
        }
    }

    /// A scope without terms is listed through its condition (the list index), as a predicate is: the
    /// same rows and paths as the reference, however many rows are read first.
    @Test func aScopeWithoutTermsListsTheReferenceResult() throws {
        let (store, directory) = try makeStore(others: 120, prices: 50, seed: 0x5C0_9E)
        defer { close(store, directory) }
        let products = try store.fetchAll(Product.self)
        try SearchReference.prepare(names: products.map(\.name), queries: [])
        for sort in [SortField.name, .price] {
            for isReversed in [false, true] {
                let request = ListRequest<Product>(scope: .device, sort: sort, isReversed: isReversed)
                let expected = SearchReference.products(products, request)
                for firstRows in [0, 1, 50] { try check(store, request, firstRows: firstRows, expected) }
                let controller = try store.fetchedResults(request, batchSize: 7)
                #expect(try controller.entitySections().flatMap { section in section.records.map { (section.name, $0.id!) } }
                    .elementsEqual(expected) { $0 == $1 }, "\(request)")
            }
        }
    }

    /// A store in a new folder with `others` products of random types, names, years and prices (below
    /// `prices`), each name unique.
    private func makeStore(others: Int, prices: Int, seed: UInt64) throws -> (CatalogStore, URL) {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("listing-window-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let store = try CatalogStore(path: directory.appendingPathComponent("catalog.sqlite").path)
        var random = SplitMix64(seed: seed)
        for index in 0..<others {
            _ = try store.insert(Product(
                type: random.pick(ProductType.allCases), name: "Gadget \(index) \(RandomCatalog.name(&random))",
                yearIntroduced: 1990 + random.next(below: 30), introPrice: Double(random.next(below: prices))))
        }
        return (store, directory)
    }

    private func close(_ store: CatalogStore, _ directory: URL) {
        try? store.file!.close()
        try? FileManager.default.removeItem(at: directory)
    }

    /// Lists `request` with `firstRows` read first and checks the sections, rows and paths against `expected`.
    private func check(
        _ store: CatalogStore, _ request: ListRequest<Product>, firstRows: Int, _ expected: [(String, Int64)]
    ) throws {
        var sections: [FetchedSection] = []
        var rows: [(path: ItemPath, section: String, id: Int64)] = []
        try store.forEachEntity(in: request, firstRows: firstRows, sectionsRead: { sections = $0 }) { path, product in
            rows.append((path, sections[path.section].name, product.id!))
        }
        let context = "\(request), first rows \(firstRows)"
        #expect(rows.map(\.section) == expected.map(\.0), "\(context)")
        #expect(rows.map(\.id) == expected.map(\.1), "\(context)")
        // Paths count rows within each section, in order.
        var paths: [ItemPath] = []
        for (index, section) in sections.enumerated() {
            paths += (0..<section.numberOfObjects).map { ItemPath(section: index, row: $0) }
        }
        #expect(rows.map(\.path) == paths, "\(context)")
        #expect(sections.map(\.numberOfObjects).reduce(0, +) == expected.count, "\(context)")
        // As a data format reads it, no section counted first: the same rows, sections and paths.
        var named: [(path: ItemPath, section: String, id: Int64)] = []
        try store.forEachEntity(in: request, firstRows: firstRows) { path, section, product in
            named.append((path, section, product.id!))
        }
        #expect(named.map(\.section) == expected.map(\.0), "\(context), uncounted")
        #expect(named.map(\.id) == expected.map(\.1), "\(context), uncounted")
        #expect(named.map(\.path) == paths, "\(context), uncounted")
    }
}
