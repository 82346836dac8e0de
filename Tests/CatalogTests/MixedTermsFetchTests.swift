@_spi(Testing) import Catalog
import FetchedResults
import Foundation
import SQLiteStore
import Testing
import TestSupport

/// A search whose terms of both lengths are all common drives through both indexes at once (the
/// short term's bits, when it is a very common letter); a
/// fetched-results controller reads that intersection once per fetch: its ids, grouped by type, give
/// the sections' counts and the batches it reads (the first batch, or every section when few match).
/// Checked against the definition (names holding every term, by type, then name, then id) and the
/// SQL trace.
struct MixedTermsFetchTests {
    /// 11,000 products: `touch` in 5,300 names, `s` in 6,000 and `a` in all of them (each above the
    /// 5,000 rows from which terms of both lengths drive together), both `touch` and `s` in 300 (a
    /// controller reads each section whole), `touch` and `a` in 5,300 (it reads the first batch).
    static let products: [Product] = (0..<11_000).map { index in
        let name = index < 300 ? "Touch Slate \(index)" : index < 5_300 ? "Touch Pad \(index)" : "Slate \(index)"
        return Product(
            type: ProductType.allCases[index % 3], name: name, yearIntroduced: 2000 + index % 20, introPrice: Double(index % 500))
    }

    @Test func theControllerReadsTheIntersectionOnce() throws {
        let directory = try TemporaryDirectory()
        let trace = StatementTrace()
        let store = try CatalogStore(path: directory.path("catalog.sqlite"), configuration: trace.configuration)
        try store.seed([SeedFile(Self.products)])
        let stored = try store.fetchAll(Product.self)
        for text in ["touch s", "touch a", "a touch", "s touc"] {
            // The definition: every term in the name (ASCII here: folding is lowercasing), by type, name, id.
            let terms = text.split(separator: " ").map(String.init)
            let expected = ProductType.allCases.sorted { $0.rawValue < $1.rawValue }.map { type in
                stored.filter { product in product.type == type && terms.allSatisfy { product.name.lowercased().contains($0) } }
                    .sorted { ($0.name.lowercased(), $0.id!) < ($1.name.lowercased(), $1.id!) }.map(\.id!)
            }.filter { !$0.isEmpty }

            var controller: FetchedResultsController<Product>?
            let statements = try trace.of { controller = try store.fetchedResults(ListRequest<Product>(searchText: text), batchSize: 50) }
            // The short term's rows read once: from the grams index, or, `s` and `a` being in more than a
            // sixteenth of the names, as bits (`products_gram_bits`, chosen by the seed's bulk load).
            let intersections = statements.filter {
                ($0.contains("FROM products_grams WHERE products_grams MATCH") && $0.hasSuffix("ORDER BY rowid"))
                    || $0.contains("FROM products_gram_bits WHERE gram = ")
            }
            #expect(intersections.count == 1, "\(text): \(intersections.count) intersections in one fetch")
            let sections = try controller!.entitySections()
            #expect(sections.map { $0.records.map(\.id!) } == expected, "\(text)")
        }
    }
}
