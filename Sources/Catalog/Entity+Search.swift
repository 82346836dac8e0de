import TextSearch

extension Product {
    /// What a product search looks in: the folded name, the year and price as numbers, the type as
    /// scope; a list by name walks `products_by_type_name`; a suffix index of `SuffixLength/standard`.
    public static let searchDescription = SearchDescription(
        table: "products", textColumns: ["name_folded"], numberColumns: ["year_introduced", "intro_price"],
        scopeColumn: "type", listIndex: "products_by_type_name", suffixLength: .standard)
}

extension Phone {
    /// What a phone search looks in: the folded name and maker, through the trigram index only (a
    /// small table: short terms are checked row by row).
    public static let searchDescription = SearchDescription(
        table: "phones", textColumns: ["name_folded", "maker_folded"], suffixLength: nil)
}

extension Entity {
    /// The search of this entity's table.
    public var searchDescription: SearchDescription {
        switch self {
        case .products: Product.searchDescription
        case .phones: Phone.searchDescription
        }
    }
}

extension ListRequest {
    /// The request's order as a search's page order: `products_by_type_name`'s when listing products
    /// by name, ascending.
    var searchOrder: SearchOrder {
        SearchOrder(
            sql: orderClause(alias: entity.searchDescription.table),
            isListIndexOrder: entity == .products && sort == .name && !isReversed)
    }
}
