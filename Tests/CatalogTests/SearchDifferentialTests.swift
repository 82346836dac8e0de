@_spi(Testing) @testable import Catalog
import Foundation
import SQLiteStore
import TestSupport
import Testing
@_spi(Testing) import TextSearch

/// The store's search against the brute-force ``SearchReference`` on random catalogs and queries:
/// results and order must be equal. Seeded, so a failure prints a case that reruns the same way.
struct SearchDifferentialTests {
    static let seed: UInt64 = 0x5EA2C4
    static let rounds = 120
    static let queriesPerRound = 30

    @Test func storeSearchEqualsTheReference() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("search-diff-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = try CatalogStore(path: directory.appendingPathComponent("catalog.sqlite").path)
        var random = SplitMix64(seed: Self.seed)
        var failures = 0
        for round in 0..<Self.rounds where failures == 0 {
            try RandomCatalog.mutate(store, &random)
            let products = try store.fetchAll(Product.self)
            failures += try checkGramsAndGramCounts(store, products, "seed \(Self.seed) round \(round)")
            let phones = try store.fetchAll(Phone.self)
            let names = products.map(\.name) + phones.map(\.name) + phones.map(\.maker)
            let texts = (0..<Self.queriesPerRound).map { _ in RandomCatalog.query(names: names, products: products, &random) }
            try SearchReference.prepare(names: names, queries: texts)
            for (index, text) in texts.enumerated() where failures == 0 {
                let context = "seed \(Self.seed) round \(round) query \(index): \(String(reflecting: text))"
                failures += try checkProducts(store, products, text, context, &random)
                failures += try checkPhones(store, phones, text, context, &random)
            }
        }
        #expect(failures == 0)
    }

    private func checkProducts(
        _ store: CatalogStore, _ products: [Product], _ text: String, _ context: String, _ random: inout SplitMix64
    ) throws -> Int {
        let scope = random.next(below: 3) == 0 ? ProductType.allCases[random.next(below: 3)] : nil
        let sort = [SortField.name, .year, .price][random.next(below: 3)]
        let request = ListRequest<Product>(scope: scope, sort: sort, isReversed: random.next(below: 4) == 0, searchText: text)
        let expected = SearchReference.products(products, request)
        let sections: [EntitySection<Product>] = try store.sections(request)
        let actual = sections.flatMap { section in section.records.map { (section.name, $0.id!) } }
        var failures = report(expected, actual, "\(context) \(request)", products.map { ($0.id!, $0.name) })

        // The controller's path with a batch size (a search screen's): sections from the indexes'
        // counts per type where they give them, batches read as searchPage's pages within a type.
        let controller = try store.fetchedResults(request, batchSize: 1 + text.utf8.count % 3)
        let viaController = try controller.entitySections().flatMap { section in section.records.map { (section.name, $0.id!) } }
        failures += report(expected, viaController, "controller \(context) \(request)", products.map { ($0.id!, $0.name) })
        let typeOfID = Dictionary(uniqueKeysWithValues: products.map { ($0.id!, $0.type) })
        var expectedCounts: [DatabaseValue: Int] = [:]
        for (_, id) in SearchReference.products(products, ListRequest(searchText: text)) {
            expectedCounts[typeOfID[id]!.databaseValue, default: 0] += 1
        }
        let counts = try store.file!.read { db in try Product.searchDescription.countsPerScope(SearchQuery(text), db) }
        if let counts, counts != expectedCounts {
            Issue.record("counts per type: expected \(expectedCounts), got \(counts) — \(context)")
            failures += 1
        }

        let limit = random.next(below: 6)
        let offset = random.next(below: 4)
        // Dense from 0 (walks, terms of both lengths through both indexes), never from Int.max; at 20,
        // a controller's counts check each row of a long term in fewer rows (short terms in more).
        let dense = [0, 2, 20, Int.max][random.next(below: 4)]
        // Pages in list order by expected costs (the scope's rows are counted): read by id from 0,
        // walked without end from Int.max, a walk that may fall short in between.
        let entriesPerRowRead = [0, 1, 7, Int.max][random.next(below: 4)]
        // Rows of a number alone listed (or not: 0), and a controller's sections read whole or not.
        let few = [0, 2, 1_000][random.next(below: 3)]
        let costs = SearchCosts(
            denseRows: dense, commonRows: [0, 100_000, Int.max][random.next(below: 3)], onePassRows: [0, 60_000][random.next(below: 2)],
            entriesPerRowRead: entriesPerRowRead, fewRows: few)
        let page = try store.searchPage(request, limit: limit, offset: offset, costs: costs)
        let expectedPage = Array(expected.dropFirst(offset).prefix(limit)).map(\.1)
        if page.totalCount != expected.count || page.records.map(\.id!) != expectedPage {
            Issue.record("page \(limit)@\(offset) \(costs): expected \(expected.count) \(expectedPage), got \(page.totalCount) \(page.records.map(\.id!)) — \(context) \(request)")
            failures += 1
        }

        // Counts per type with the same costs (terms of both lengths through both indexes, or not),
        // with the matches' ids when the count read them; a page within a type read from those ids.
        let all = SearchReference.products(products, ListRequest(searchText: text)).map(\.1).sorted()
        let pageType = ProductType.allCases[random.next(below: 3)]
        let typeRequest = ListRequest<Product>(scope: pageType, sort: sort, isReversed: request.isReversed, searchText: text)
        let order = try typeRequest.searchOrder()
        let (matches, idsPage) = try store.file!.read { db in
            let matches = try Product.searchDescription.matchesPerScope(SearchQuery(text), costs: costs, db)
            let ids = matches?.ids.map { $0[pageType.databaseValue] ?? [] }
            let page = try ids.map { ids in
                try Product.searchDescription.page(
                    SearchQuery(text), scope: pageType.databaseValue, order: order, limit: limit, offset: offset,
                    matchIDs: ids.shuffled(), selection: Product.selection, costs: costs, db, decode: Product.init(row:))
            }
            return (matches, page)
        }
        if let counts = matches?.counts, counts != expectedCounts {
            Issue.record("counts per type (\(costs)): expected \(expectedCounts), got \(counts) — \(context)")
            failures += 1
        }
        if let ids = matches?.ids {
            var expectedIDs: [DatabaseValue: [Int64]] = [:]
            for id in all { expectedIDs[typeOfID[id]!.databaseValue, default: []].append(id) }
            if ids.mapValues({ $0.sorted() }) != expectedIDs {
                Issue.record("ids per type (\(costs)): expected \(expectedIDs), got \(ids) — \(context)")
                failures += 1
            }
        }
        if let idsPage {
            let expectedTyped = SearchReference.products(products, typeRequest).map(\.1)
            let expectedTypedPage = Array(expectedTyped.dropFirst(offset).prefix(limit))
            if idsPage.totalCount != expectedTyped.count || idsPage.records.map(\.id!) != expectedTypedPage {
                Issue.record("page from ids \(limit)@\(offset) of \(pageType): expected \(expectedTyped.count) \(expectedTypedPage), got \(idsPage.totalCount) \(idsPage.records.map(\.id!)) — \(context) \(typeRequest)")
                failures += 1
            }
        }

        // The condition for other modules' SQL, planned in the read that runs it; with every term
        // checked on the row (a common driver) or not.
        var conditionCosts = costs
        conditionCosts.commonRows = random.next(below: 2) == 0 ? 0 : .max
        let ids = try store.file!.read { db in
            let condition = try Product.searchDescription.condition(
                for: SearchQuery(text), alias: "p", costs: conditionCosts, db)
            return try db.fetchAll(sql: "SELECT p.id FROM products p WHERE \(condition.sql) ORDER BY p.id", arguments: condition.arguments) {
                try $0.decode(Int64.self, at: 0)
            }
        }
        if ids != all {
            Issue.record("condition (\(conditionCosts)): expected \(all), got \(ids) — \(context)")
            failures += 1
        }
        return failures
    }

    /// The structures the triggers keep, against their definition (TextSearch's articles) computed in Swift:
    /// the grams index holds, for each row, the hexadecimal of each distinct 1-scalar gram that is
    /// not a space and 2-scalar gram without a space, under a rowid that carries its type (no type token).
    private func checkGramsAndGramCounts(_ store: CatalogStore, _ products: [Product], _ context: String) throws -> Int {
        struct GramCount: Hashable { var gram: String, type: String, count: Int }
        var tokens: [String: [Int64]] = [:]
        func hex(_ text: String) -> String { text.utf8.map { String($0, radix: 16).count == 1 ? "0" + String($0, radix: 16) : String($0, radix: 16) }.joined() }
        var counts: [[String]: Int] = [:]
        for product in products {
            let scalars = Array(TextFolding.fold(product.name).unicodeScalars)
            var grams = Set<String>()
            for n in scalars.indices {
                let window = { (length: Int) in String(String.UnicodeScalarView(scalars[n..<min(scalars.count, n + length)])) }
                grams.insert(window(1))
                if n + 1 < scalars.count { grams.insert(window(2)) }
            }
            for gram in grams { counts[[gram, product.type.rawValue], default: 0] += 1 }
            // The rowid: the id, plus the type's number (device 1, desktop 2, portable 3) shifted left by 48.
            let typeNumber: Int64 = ["device": 1, "desktop": 2, "portable": 3][product.type.rawValue]!
            for token in grams.filter({ !$0.unicodeScalars.contains(" ") }).map(hex) {
                tokens[token, default: []].append(product.id! | typeNumber << 48)
            }
        }
        let expectedCounts = Set(counts.map { GramCount(gram: $0.key[0], type: $0.key[1], count: $0.value) })
        let expectedGrams = tokens.keys.sorted().map { $0 + ": " + tokens[$0]!.sorted().map(String.init).joined(separator: " ") }
        let (grams, gramCounts) = try store.file!.write { db in
            (try FullTextTokens.rowsByToken("products_grams", db), try db.fetchAll(sql: "SELECT gram, type, count FROM products_gram_counts WHERE count <> 0") {
                GramCount(gram: try $0.decode(String.self, at: 0), type: try $0.decode(String.self, at: 1), count: try $0.decode(Int.self, at: 2))
            })
        }
        var failures = 0
        if grams != expectedGrams {
            Issue.record("products_grams: missing \(Set(expectedGrams).subtracting(grams)), extra \(Set(grams).subtracting(expectedGrams)) — \(context)")
            failures += 1
        }
        if Set(gramCounts) != expectedCounts {
            Issue.record("products_gram_counts: missing \(expectedCounts.subtracting(gramCounts)), extra \(Set(gramCounts).subtracting(expectedCounts)) — \(context)")
            failures += 1
        }
        return failures
    }

    private func checkPhones(
        _ store: CatalogStore, _ phones: [Phone], _ text: String, _ context: String, _ random: inout SplitMix64
    ) throws -> Int {
        let sort = [SortField.name, .maker, .year][random.next(below: 3)]
        let request = ListRequest<Phone>(sort: sort, isReversed: random.next(below: 4) == 0, searchText: text)
        let expected = SearchReference.phones(phones, request)
        let sections: [EntitySection<Phone>] = try store.sections(request)
        let actual = sections.flatMap { section in section.records.map { (section.name, $0.id!) } }
        var failures = report(expected, actual, "\(context) \(request)", phones.map { ($0.id!, "\($0.name) / \($0.maker)") })
        let count = try store.searchCount(request)
        if count != expected.count {
            Issue.record("phone count: expected \(expected.count), got \(count) — \(context)")
            failures += 1
        }
        return failures
    }

    private func report(_ expected: [(String, Int64)], _ actual: [(String, Int64)], _ context: String, _ names: [(Int64, String)]) -> Int {
        guard !expected.elementsEqual(actual, by: { $0 == $1 }) else { return 0 }
        let catalog = names.map { "\($0.0): \(String(reflecting: $0.1))" }.joined(separator: "\n")
        Issue.record("expected \(expected)\ngot \(actual)\n\(context)\ncatalog:\n\(catalog)")
        return 1
    }
}
