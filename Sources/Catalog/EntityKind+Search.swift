import TextSearch

extension Product {
    /// What a product search looks in, as its declaration says: the folded name, the year and price
    /// as numbers; the type as scope, each type's rows a rowid range of the trigram index; a list by
    /// name walks `products_by_type_name`; short terms indexed by the grams index; substring counts and
    /// gram bits kept for the W3 rows they speed up (Benchmarks/README.md, "What each search
    /// accelerator buys").
    public static let searchDescription = declaration.searchDescription(
        scope: scopeKeyPath, listIndex: "products_by_type_name", scopeValues: ProductType.allCases.map(\.rawValue),
        accelerators: [.substringCounts, .gramBits])
}

extension Phone {
    /// What a phone search looks in, as its declaration says: the folded name and maker, through the
    /// trigram index only (a small table: short terms are checked row by row).
    public static let searchDescription = declaration.searchDescription(indexesShortTerms: false)
}

extension EntityKind {
    /// The search of this entity's table.
    public var searchDescription: SearchDescription { entityType.searchDescription }
}

extension ListRequest {
    /// The request's order as a search's page order: the order of its fetch request (the one
    /// definition, which the list's controller sorts by), marked as the list index's order when it is
    /// (by type, then name ascending: products by name).
    func searchOrder() throws -> SearchOrder {
        try fetchRequest().searchOrder()
    }
}
