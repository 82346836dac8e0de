import BenchmarkSupport
import Catalog
import FetchedResults
import Foundation
import SQLiteStore

/// This project's store, through its public API (`CatalogStore`).
public struct StoreContender: Contender {
    public let name = "store"

    public init() {}

    /// The SQL of the store's embedded migrations, in order: the schema every contender creates.
    public static var migrations: [String] { CatalogMigrations.all.map(\.sql) }

    /// The store's folding of names and search terms (the one definition; the others must agree).
    public static func fold(_ text: String) -> String { TextFolding.fold(text) }

    /// Creates an empty, migrated catalog at `path`, for datasets the raw contender then fills.
    public static func createEmptyCatalog(at path: String) throws {
        _ = try CatalogStore(path: path)
    }

    static func product(_ product: SyntheticProduct) -> Product {
        Product(type: ProductType(rawValue: product.type)!, name: product.name,
                yearIntroduced: product.yearIntroduced, introPrice: product.introPrice)
    }

    // MARK: - W1

    public func insert(_ products: [SyntheticProduct], intoNewDatabaseAt path: String) throws -> Measured {
        let store = try CatalogStore(path: path)
        let records = products.map(Self.product)
        let duration = try ContinuousClock().measure {
            try store.seed([.products(records)])
        }
        var fingerprint = Fingerprint()
        fingerprint.combine(Int64(try store.count(Product.self)))
        return Measured(duration: duration, fingerprint: fingerprint)
    }

    // MARK: - W2

    public func fetchSorted(databaseAt path: String) throws -> Measured {
        let store = try CatalogStore(path: path)
        var sections: [RecordSection<Product>] = []
        let duration = try ContinuousClock().measure {
            sections = try store.sections(ListRequest())
        }
        return Measured(duration: duration, fingerprint: .ofIDs(sections.lazy.flatMap(\.records).map { $0.id! }))
    }

    // MARK: - W3

    /// `searchPage` (first page of 50 and the total), the public API, whatever plan it picks.
    public func search(databaseAt path: String, queries: [BenchmarkSupport.SearchQuery]) throws -> [Measured] {
        let store = try CatalogStore(path: path)
        let clock = ContinuousClock()
        return try queries.map { query in
            var page: SearchPage<Product>?
            let duration = try clock.measure {
                page = try store.searchPage(Product.self, ListRequest(searchText: query.term), limit: 50)
            }
            return Measured(duration: duration,
                            fingerprint: .ofSearch(count: Int64(page!.totalCount), ids: page!.records.map { $0.id! }))
        }
    }

    // MARK: - W4: waiting for the live controller

    public func liveUpdate(databaseAt path: String, change: LiveChange) throws -> Measured {
        throw Pending("issue 5")
    }

    /// To do with the live controller: start observing `path`, then `LiveWriterProcess.run(databaseAt:
    /// change:)`, and time from its `beginNanoseconds` to the change set's delivery (`MonotonicTime`).
    public func liveUpdateFromAnotherProcess(databaseAt path: String, change: LiveChange) throws -> Measured {
        throw Pending("issue 5")
    }

    // MARK: - W5, W6: the fetched-results controller

    public func openFirstPage(databaseAt path: String) throws -> Measured {
        var result = FirstPage()
        let duration = try ContinuousClock().measure {
            let store = try CatalogStore(path: path)
            let controller = try store.fetchedResults(Product.self, ListRequest(), batchSize: 50)
            result = try Self.firstPage(controller, count: 50)
        }
        return Measured(duration: duration, fingerprint: result.fingerprint)
    }

    public func controller(databaseAt path: String, batchSize: Int) throws -> Measured {
        var result = FirstPage()
        var controller: FetchedResultsController<Product>?
        let duration = try ContinuousClock().measure {
            let store = try CatalogStore(path: path)
            controller = try store.fetchedResults(Product.self, ListRequest(), batchSize: batchSize)
            result = try Self.firstPage(controller!, count: batchSize)
        }
        withExtendedLifetime(controller) {}
        return Measured(duration: duration, fingerprint: result.fingerprint)
    }

    /// The sections with their counts, and the first `count` rows in list order (from the first section,
    /// and the next ones should it hold fewer), read with `object(at:)`.
    static func firstPage(_ controller: FetchedResultsController<Product>, count: Int) throws -> FirstPage {
        var page = FirstPage()
        page.sections = controller.sections.map { (name: $0.name, count: $0.numberOfObjects) }
        for (section, info) in controller.sections.enumerated() {
            for row in 0..<min(info.numberOfObjects, count - page.rows.count) {
                let product = try controller.object(at: ItemPath(section: section, row: row))
                page.rows.append(BenchProduct(id: product.id!, type: product.type.rawValue, name: product.name,
                                              yearIntroduced: product.yearIntroduced, introPrice: product.introPrice))
            }
            if page.rows.count == count { break }
        }
        return page
    }
}
