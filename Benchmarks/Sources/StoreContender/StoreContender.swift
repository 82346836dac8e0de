import BenchmarkSupport
import Catalog
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

    // MARK: - W3, W4: waiting for the search and change-tracking APIs

    public func search(databaseAt path: String, queries: [SearchQuery]) throws -> [Measured] {
        throw Pending("issue 3")
    }

    public func liveUpdate(databaseAt path: String, change: LiveChange) throws -> Measured {
        throw Pending("issue 5")
    }

    // MARK: - W5, W6: the full sectioned list today (no limit, no batches yet)

    public func openFirstPage(databaseAt path: String) throws -> Measured {
        var result = FirstPage()
        let duration = try ContinuousClock().measure {
            let store = try CatalogStore(path: path)
            let sections: [RecordSection<Product>] = try store.sections(ListRequest())
            result = Self.firstPage(sections, count: 50)
        }
        return Measured(duration: duration, fingerprint: result.fingerprint)
    }

    public func controller(databaseAt path: String, batchSize: Int) throws -> Measured {
        var result = FirstPage()
        let duration = try ContinuousClock().measure {
            let store = try CatalogStore(path: path)
            let sections: [RecordSection<Product>] = try store.sections(ListRequest())
            result = Self.firstPage(sections, count: batchSize)
            withExtendedLifetime(sections) {}
        }
        return Measured(duration: duration, fingerprint: result.fingerprint)
    }

    static func firstPage(_ sections: [RecordSection<Product>], count: Int) -> FirstPage {
        var page = FirstPage()
        page.sections = sections.map { (name: $0.name, count: $0.records.count) }
        page.rows = sections.lazy.flatMap(\.records).prefix(count).map {
            BenchProduct(id: $0.id!, type: $0.type.rawValue, name: $0.name, yearIntroduced: $0.yearIntroduced,
                         introPrice: $0.introPrice)
        }
        return page
    }
}
