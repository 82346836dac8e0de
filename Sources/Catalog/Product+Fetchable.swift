import FetchedResults
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import SQLiteStore
import TextSearch

extension Product: CatalogEntity {
    /// A list of products may be limited to one type.
    public typealias Scope = ProductType

    /// The type: a list's scope, and its search description's.
    public static var scopeKeyPath: (KeyPath<Product, ProductType> & Sendable)? { \Product.type }

    /// Products list in sections by type, sorted within a section by name, year or price (then id).
    public static func listFetchRequest(sortedBy field: SortField, order: SortOrder) -> FetchRequest<Product>? {
        // Qualified: where Foundation is imported (macOS), it has a SortDescriptor too.
        let sort: FetchedResults.SortDescriptor<Product>
        switch field {
        case .name: sort = SortDescriptor(\.name, order: order)
        case .year: sort = SortDescriptor(\.yearIntroduced, order: order)
        case .price: sort = SortDescriptor(\.introPrice, order: order)
        case .maker: return nil
        }
        return FetchRequest<Product>(sortDescriptors: [sort], sectionKeyPath: \Product.type)
    }
}
