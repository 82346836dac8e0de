import Catalog
import FetchedResults
import SQLiteStore
import Synchronization
import TestSupport
import Testing
@_spi(Testing) import TextSearch

/// A term that reads as a number also matches a product whose year or price equals it (Search semantics,
/// Search). The counts per type that a controller's sections read from the indexes include those
/// products, counted one by one, so that such a search is not counted over its rows.
struct NumericSearchCountsTests {
    /// `1999` in the names of two products, as the year of one and the price of another; `5` as a price.
    static let products = [
        Product(type: .desktop, name: "Widget 1999", yearIntroduced: 2001, introPrice: 10),
        Product(type: .portable, name: "Gadget", yearIntroduced: 1999, introPrice: 11),
        Product(type: .device, name: "Thing", yearIntroduced: 2002, introPrice: 1999),
        Product(type: .device, name: "Mac 1999", yearIntroduced: 2003, introPrice: 13),
        Product(type: .desktop, name: "Mac Other", yearIntroduced: 2004, introPrice: 14),
        Product(type: .device, name: "Thin Case", yearIntroduced: 2005, introPrice: 5),
    ]

    @Test func countsPerTypeAddTheRowsThatHoldANumberOnlyAsYearOrPrice() throws {
        let directory = try TemporaryDirectory()
        let store = try CatalogStore(path: directory.url.appendingPathComponent("catalog.sqlite").path)
        for product in Self.products { _ = try store.insert(product) }
        let expected: [String: [DatabaseValue: Int]] = [
            "1999": [.text("device"): 2, .text("desktop"): 1, .text("portable"): 1],
            "1999 mac": [.text("device"): 1],
            "5 th": [.text("device"): 1],
            "2001": [.text("desktop"): 1],
            "mac": [.text("device"): 1, .text("desktop"): 1],
        ]
        for (text, counts) in expected {
            let actual = try store.file!.read { db in try Product.searchDescription.countsPerScope(SearchQuery(text), db) }
            #expect(actual == counts, "\(text)")
        }
    }

    @Test func aControllerReadsANumericSearchFromTheCountsAndPages() throws {
        let directory = try TemporaryDirectory()
        let statements = Mutex<[String]>([])
        var configuration = Configuration()
        configuration.trace = { sql in statements.withLock { $0.append(sql) } }
        let store = try CatalogStore(path: directory.url.appendingPathComponent("catalog.sqlite").path, configuration: configuration)
        for product in Self.products { _ = try store.insert(product) }
        statements.withLock { $0 = [] }
        let controller = try store.fetchedResults(ListRequest<Product>(searchText: "1999"), batchSize: 1)
        let sections = try controller.entitySections().map { section in "\(section.name): " + section.records.map(\.name).joined(separator: ", ") }
        #expect(sections == ["Desktop: Widget 1999", "Device: Mac 1999, Thing", "Portable: Gadget"])
        // The sections came from counts, not from a GROUP BY or a pass over the matching rows in order.
        #expect(!statements.withLock { $0 }.contains { $0.contains("GROUP BY type") || $0.hasPrefix("SELECT type, id FROM") })
        // Several terms, some numeric: the pages within each type hold the rows that have every term
        // in their name and those that hold a number only as a year or price.
        for (text, expected) in [("1999 mac", ["Device: Mac 1999"]), ("5 th", ["Device: Thin Case"]), ("1999 ga", ["Portable: Gadget"])] {
            let found = try store.fetchedResults(ListRequest<Product>(searchText: text), batchSize: 1).entitySections()
            #expect(found.map { "\($0.name): " + $0.records.map(\.name).joined(separator: ", ") } == expected, "\(text)")
        }
        // Every id is known for tracking.
        try controller.startTracking()
        #expect(try controller.snapshot() == controller.trackedSnapshot)
    }

    /// Terms of both lengths, one numeric (`1999 ga`, `5 thin`): the counts per type come with the
    /// matches' ids (which a controller's pages are read from), the rows that hold the number only as
    /// a year or price added to those with every term in the name, whether the name matches are
    /// merged from both indexes (threshold 0), checked row by row (a long term in fewer rows than the
    /// threshold) or not read at all (a short term in fewer rows: nil).
    @Test func termsOfBothLengthsWithANumberCountWithTheMatchesIDs() throws {
        let directory = try TemporaryDirectory()
        let store = try CatalogStore(path: directory.path("catalog.sqlite"))
        for product in Self.products { _ = try store.insert(product) }
        let stored = try store.fetchAll(Product.self)
        for text in ["1999 ga", "ga 1999", "5 thin", "1999 ma", "th 1999", "5 zzz"] {
            let terms = text.split(separator: " ").map(String.init)
            var expected: [DatabaseValue: [Int64]] = [:]
            for product in stored where terms.allSatisfy({ term in
                product.name.lowercased().contains(term)
                    || (Double(term).map { $0 == Double(product.yearIntroduced) || $0 == product.introPrice } ?? false)
            }) {
                expected[product.type.databaseValue, default: []].append(product.id!)
            }
            for intersection in [0, 1, 2, 3, Int.max] {
                var costs = SearchCosts.standard
                costs.denseRows = intersection
                let matches = try store.file!.read { db in
                    try Product.searchDescription.matchesPerScope(SearchQuery(text), costs: costs, db)
                }
                if intersection == 0 { #expect(matches?.ids != nil, "\(text): no ids") }
                if let matches {
                    #expect(matches.counts == expected.mapValues(\.count), "\(text) at \(intersection)")
                    if let ids = matches.ids { #expect(ids.mapValues { $0.sorted() } == expected, "\(text) at \(intersection)") }
                }
            }
        }
    }

    /// 2,400 products of 2008 (more than the 1,000 rows a numeric term may find by number alone and
    /// still be counted one by one), a third of them `Halo …`; `2008` also in some names and as a
    /// price. With every term of 3+ characters, the counts per type and the controller's sections
    /// come from one intersection of index ids: equal to the definition (every term in the name,
    /// a numeric one also as the year or price), by type, name, id.
    @Test func manyRowsHoldingTheNumberOnlyAsAYearAreIntersectedInTheIndexes() throws {
        let directory = try TemporaryDirectory()
        let trace = StatementTrace()
        let store = try CatalogStore(path: directory.path("catalog.sqlite"), configuration: trace.configuration)
        let products = (0..<3_000).map { index in
            let name = index % 3 == 0 ? "Halo Air \(index)" : index % 7 == 0 ? "Halo 2008 \(index)" : "Other \(index)"
            return Product(
                type: ProductType.allCases[index % 3], name: name, yearIntroduced: index < 2_400 ? 2008 : 2010,
                introPrice: index % 11 == 0 ? 2008 : 99)
        }
        try store.seed([SeedFile(products)])
        let stored = try store.fetchAll(Product.self)
        for text in ["halo 2008", "2008 halo", "2008 air", "2008"] {
            let terms = text.split(separator: " ").map(String.init)
            func matches(_ product: Product, _ term: String) -> Bool {
                product.name.lowercased().contains(term)
                    || (Double(term).map { $0 == Double(product.yearIntroduced) || $0 == product.introPrice } ?? false)
            }
            let expected = ProductType.allCases.sorted { $0.rawValue < $1.rawValue }.map { type in
                stored.filter { product in product.type == type && terms.allSatisfy { matches(product, $0) } }
                    .sorted { ($0.name.lowercased(), $0.id!) < ($1.name.lowercased(), $1.id!) }.map(\.id!)
            }.filter { !$0.isEmpty }
            let counts = try store.file!.read { db in try Product.searchDescription.matchesPerScope(SearchQuery(text), db) }
            #expect(counts?.counts == Dictionary(uniqueKeysWithValues: zip(
                ProductType.allCases.sorted { $0.rawValue < $1.rawValue }.map { DatabaseValue.text($0.rawValue) },
                ProductType.allCases.sorted { $0.rawValue < $1.rawValue }.map { type in
                    stored.filter { product in product.type == type && terms.allSatisfy { matches(product, $0) } }.count
                })).filter { $0.value > 0 }, "\(text)")
            var controller: FetchedResultsController<Product>?
            let statements = try trace.of { controller = try store.fetchedResults(ListRequest<Product>(searchText: text), batchSize: 50) }
            // (One numeric term alone is a numeric term's page, read from its text and number matches.)
            if terms.count > 1 {
                #expect(statements.contains { $0.contains(" INTERSECT ") }, "\(text): not intersected in the indexes")
            }
            #expect(try controller!.entitySections().map { $0.records.map(\.id!) } == expected, "\(text)")
        }
    }
}
