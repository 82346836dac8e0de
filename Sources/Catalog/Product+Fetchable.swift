import FetchedResults
import Foundation
import SQLiteStore
import TextSearch

extension Product {
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
