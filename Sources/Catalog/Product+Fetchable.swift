import FetchedResults
import Foundation
import SQLiteStore

extension Product {
    /// The SQL of each key path of a product: the one place where they map to columns.
    ///
    /// Names filter on `name`, sort on `name_folded` (case and diacritics ignored) and section by the
    /// folded name's first character; types section by `type`, named by their title.
    public static func column(for keyPath: PartialKeyPath<Product>) -> EntityColumn? {
        switch keyPath {
        case \Product.id: EntityColumn("id")
        case \Product.type: EntityColumn("type")
        case \Product.name: EntityColumn("name", sortedBy: "name_folded", sectionedBy: FoldedInitial.sql)
        case \Product.yearIntroduced: EntityColumn("year_introduced")
        case \Product.introPrice: EntityColumn("intro_price")
        default: nil
        }
    }

    /// `Device` for the type `device`; the uppercased initial for a name section.
    public static func sectionName(for value: DatabaseValue, keyPath: PartialKeyPath<Product>) -> String {
        switch (keyPath, value) {
        case (\Product.type, .text(let raw)): ProductType(rawValue: raw)?.title ?? raw
        case (\Product.name, .text(let initial)): initial.uppercased()
        default: value.description
        }
    }

    /// Products that match `text` under the search semantics of ``SearchQuery``.
    public static func searchCondition(for text: String) -> SQLFragment? {
        let condition = SearchQuery.sqlCondition(for: text, entity: .products, tableAlias: tableName)
        return SQLFragment(sql: condition.sql, arguments: condition.arguments)
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
