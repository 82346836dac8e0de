@testable import Catalog
import Entities
import Foundation
import SQLiteStore
import TestSupport
import Testing
import TextSearch

/// A bulk load into an empty database against the same load row by row: the same tables, the same
/// answers to every short term and to others, `check()` clean on both; and taken names told apart
/// exactly while the importer answers most of them from the keys it stored (`InsertedKeys`).
struct BulkLoadIntoEmptyTests {
    /// Synthetic products, then a record keeping a new id (which inserts the queued rows), then
    /// records whose names were stored before it, and one with the kept record's name.
    static func input() -> [Product] {
        var input = SyntheticCatalog.products(count: 1_200, seed: 31)
        var kept = Product(type: .device, name: "Kept Id Ñame 東京", yearIntroduced: 2001, introPrice: 5)
        kept.id = 50_000
        input.append(kept)
        for position in stride(from: 0, to: 1_200, by: 59) {
            var again = input[position]
            again.introPrice += 3
            input.append(again)
        }
        input.append(Product(type: .portable, name: kept.name, yearIntroduced: 2002, introPrice: 6))
        return input
    }

    @Test(arguments: [ImportConflicts.skip, .update])
    func aBulkLoadIntoAnEmptyDatabaseStoresAndFindsWhatALoadRowByRowDoes(conflicts: ImportConflicts) throws {
        let directory = try TemporaryDirectory()
        let reference = try CatalogStore(path: directory.path("reference.sqlite"))
        let bulk = try CatalogStore(path: directory.path("bulk.sqlite"))
        let sources = { [SeedSource(records: Self.input())] }
        let referenceReport = try reference.seed(sources(), conflicts: conflicts, triggeredRows: .max, progress: nil)
        let report = try bulk.seed(sources(), conflicts: conflicts, triggeredRows: 0, progress: nil)
        #expect(report == referenceReport)
        #expect(report.skipped + report.updated == 22)
        try BulkSeedTests().expectSameContents(bulk, reference)
        #expect(try bulk.check() == [])
        #expect(try reference.check() == [])
        let queries = Self.queries(try reference.fetchAll(Product.self).map(\.name))
        #expect(queries.count > 150)
        for query in queries {
            #expect(try Self.found(query, bulk) == Self.found(query, reference), "\(query)")
        }
    }

    /// Every substring of 1 to 3 scalars of some folded names, pairs of them, and absent terms.
    static func queries(_ names: [String]) -> [String] {
        var terms = Set<String>()
        for name in names.enumerated().filter({ $0.offset % 97 == 0 }).map(\.element) {
            let scalars = Array(TextFolding.fold(name).unicodeScalars)
            for length in 1...3 where scalars.count >= length {
                for start in 0...(scalars.count - length) {
                    let term = String(String.UnicodeScalarView(scalars[start..<start + length]))
                    if !term.contains(" ") { terms.insert(term) }
                }
            }
        }
        let sorted = terms.sorted()
        let pairs = stride(from: 0, to: sorted.count - 1, by: 7).map { sorted[$0] + " " + sorted[$0 + 1] }
        return sorted + pairs + ["zzq", "ñandú pro", "東京 2"]
    }

    static func found(_ text: String, _ store: CatalogStore) throws -> [Int64] {
        let sections: [EntitySection<Product>] = try store.search(SearchQuery(text), in: ListRequest())
        return sections.flatMap { $0.records.compactMap(\.id) }
    }
}
