import Catalog
import FetchedResults
import Foundation
import TestSupport
import Testing

/// A listing as `catalog list` and `search` read it (``CatalogStore/forEachEntity(in:firstRows:sectionsRead:_:)``):
/// its first rows as the search's pages, the rest in one query from the last of them. Wherever the
/// first rows end, the rows, their order and their index paths are the reference's.
struct ListingWindowTests {
    @Test func aRareTermListsTheReferenceResultAcrossTheFirstRows() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("listing-window-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = try CatalogStore(path: directory.appendingPathComponent("catalog.sqlite").path)
        defer { try? store.database.close() }
        var random = SplitMix64(seed: 0x11_57ED)
        // 300 other products, and a rare word in 11 of every type, some spelled so that they fold
        // alike (ties broken by id) and some at the same price or year.
        for index in 0..<300 {
            _ = try store.insert(Product(
                type: random.pick(ProductType.allCases), name: "Gadget \(index) \(RandomCatalog.name(&random))",
                yearIntroduced: 1990 + random.next(below: 30), introPrice: Double(random.next(below: 5_000))))
        }
        let spellings = ["Zebra", "zebra", "Zébra", "ZEBRA pro", "zebra mini", "Mini Zebra", "Zèbre", "ＺＥＢＲＡ", "Air zebra", "zebra 2", "zebras"]
        for (index, name) in spellings.enumerated() {
            _ = try store.insert(Product(
                type: ProductType.allCases[index % 3], name: name, yearIntroduced: 2000 + index % 2, introPrice: Double(index % 4)))
        }
        let products = try store.fetchAll(Product.self)
        let queries = ["zebra", "zeb", "ebr mini", "zèbre"]
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
    }
}
