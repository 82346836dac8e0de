@_spi(Testing) @testable import Catalog
import Entities
import Foundation
import SQLiteStore
import TestSupport
import Testing
@_spi(Testing) import TextSearch

/// Every strategy of the page planner (`PageStrategy`), forced on every query, against the brute-force
/// ``SearchReference``: whichever strategy the planner would choose, the page and total are the same;
/// with the product search's accelerators, and with none (the two exact indexes alone, in a file of
/// the same products whose search keeps no accelerator). Seeded, so a failure prints a case that
/// reruns the same way.
struct ForcedStrategyDifferentialTests {
    static let seed: UInt64 = 0xF0_2CED
    static let rounds = 80
    static let queriesPerRound = 20

    /// The strategies forced, walks with budgets that find the page, fall short, or read nothing.
    static let strategies: [PageStrategy] = [
        .scan(onePass: true), .scan(onePass: false),
        .readMatches(.byID), .readMatches(.sorted),
        .readMatches(.addingNumberOnlyRows(textWalk: nil)), .readMatches(.addingNumberOnlyRows(textWalk: 3)),
        .readMatches(.addingNumberOnlyRows(textWalk: .max)),
        .walkListIndex(budget: .max, fallback: .readMatches(.sorted)),
        .walkListIndex(budget: 7, fallback: .walkOrderIndex),
        .walkListIndex(budget: 0, fallback: .readMatches(.byID)),
        .walkOrderIndex,
    ]

    /// The product search without accelerators: what an entity that declares none gets.
    static let bare = Product.declaration.searchDescription(
        scope: \Product.type, listIndex: "products_by_type_name", scopeValues: ProductType.allCases.map(\.rawValue))

    /// A new file at `path` holding `products` under the product table's schema (its list index
    /// included) with the search of ``bare``.
    static func bareCopy(of products: [Product], at path: String) throws -> DatabaseQueue {
        func plainTable<Entity: DeclaredEntity>(_ type: Entity.Type) -> EntityTable { EntityTable(type) }
        let queue = try DatabaseQueue(path: path)
        try queue.write { db in
            try db.execute(
                sql: plainTable(Product.self).createSQL() + "CREATE INDEX products_by_type_name ON products(type, name_folded, id);\n"
                    + bare.installSQL)
            for product in products {
                try db.execute(
                    sql: Product.declaration.insertSQL(withID: true),
                    arguments: StatementArguments(values: [.integer(product.id!)] + Product.declaration.storedValues(of: product)))
            }
        }
        return queue
    }

    @Test(arguments: [true, false])
    func everyStrategyEqualsTheReference(accelerators: Bool) throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("forced-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = try CatalogStore(path: directory.appendingPathComponent("catalog.sqlite").path)
        var random = SplitMix64(seed: Self.seed)
        var failures = 0
        for round in 0..<Self.rounds where failures == 0 {
            try RandomCatalog.mutate(store, &random)
            let products = try store.fetchAll(Product.self)
            let barePath = directory.appendingPathComponent("bare-\(round).sqlite").path
            let bare = accelerators ? nil : try Self.bareCopy(of: products, at: barePath)
            let description = accelerators ? Product.searchDescription : Self.bare
            let names = products.map(\.name)
            let texts = (0..<Self.queriesPerRound).map { _ in RandomCatalog.query(names: names, products: products, &random) }
            try SearchReference.prepare(names: names, queries: texts)
            for (index, text) in texts.enumerated() where failures == 0 {
                let scope = random.next(below: 2) == 0 ? ProductType.allCases[random.next(below: 3)] : nil
                let sort = [SortField.name, .name, .year, .price][random.next(below: 4)]
                let request = ListRequest<Product>(scope: scope, sort: sort, isReversed: random.next(below: 5) == 0, searchText: text)
                let expected = SearchReference.products(products, request).map(\.1)
                let order = try request.searchOrder()
                let limit = random.next(below: 6)
                let offset = random.next(below: 4)
                let expectedPage = Array(expected.dropFirst(offset).prefix(limit))
                for strategy in Self.strategies.map(Optional.some) + [nil] where failures == 0 {
                    func read(_ db: Database) throws -> SearchPage<Product> {
                        guard let strategy else {
                            return try description.page(
                                request.searchQuery, scope: scope?.databaseValue, order: order, limit: limit, offset: offset,
                                selection: Product.selection, db, decode: Product.init(row:))
                        }
                        return try description.page(
                            request.searchQuery, scope: scope?.databaseValue, order: order, limit: limit, offset: offset,
                            selection: Product.selection, forcing: strategy, db, decode: Product.init(row:))
                    }
                    let page = try bare.map { try $0.read(read) } ?? store.file!.read(read)
                    if page.totalCount != expected.count || page.records.map(\.id!) != expectedPage {
                        Issue.record("""
                            \(strategy.map { "\($0)" } ?? "planned"), accelerators \(accelerators), page \(limit)@\(offset): expected \(expected.count) \(expectedPage), \
                            got \(page.totalCount) \(page.records.map(\.id!)) — seed \(Self.seed) round \(round) \
                            query \(index): \(String(reflecting: text)) \(request)
                            """)
                        failures += 1
                    }
                }
            }
        }
        #expect(failures == 0)
    }
}
