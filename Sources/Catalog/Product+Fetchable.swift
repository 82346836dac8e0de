import FetchedResults
import Foundation
import SQLiteStore
import TextSearch

extension Product {
    /// Products that match `text` under the search semantics of `SearchQuery`: the plan of
    /// ``searchDescription``, estimates included, made in `db`.
    public static func searchCondition(for text: String, _ db: Database) throws -> SQLFragment? {
        try searchDescription.condition(for: SearchQuery(text), alias: tableName, db)
    }

    /// Products that match `text` per type, when the search's maintained counts give them (one short
    /// term: `SearchDescription.countsPerScope(_:_:)`), for sections by type; nil otherwise.
    public static func searchCounts(for text: String, sectionExpression: String, _ db: Database) throws -> [DatabaseValue: Int]? {
        guard sectionExpression == searchDescription.scopeColumn else { return nil }
        return try searchDescription.countsPerScope(SearchQuery(text), db)
    }

    /// Lists products in sections by type, sorted within a section by the request's field (then id).
    public static func fetchRequest(for request: ListRequest) -> FetchRequest<Product> {
        let order: SortOrder = request.isReversed ? .reverse : .forward
        let sort: SortDescriptor<Product> = switch request.sort {
        case .year: SortDescriptor(\.yearIntroduced, order: order)
        case .price: SortDescriptor(\.introPrice, order: order)
        case .name, .maker: SortDescriptor(\.name, order: order)
        }
        var fetch = FetchRequest<Product>(sortDescriptors: [sort], searchText: request.searchText, sectionKeyPath: \Product.type)
        if let scope = request.scope {
            fetch.predicate = #Predicate<Product> { $0.type == scope }
        }
        return fetch
    }
}
