import FetchedResults
import TextSearch

/// A field a list can be sorted by.
public enum SortField: String, CaseIterable, Codable, Sendable {
    /// By name, folded (case and diacritics ignored).
    case name
    /// By year introduced (products) or released (phones).
    case year
    /// By intro price (products only).
    case price
    /// By maker (phones only).
    case maker
}

/// What to list: an entity, an optional scope, a search text, a sort, and its direction.
///
/// Products are sectioned by type (`Desktop`, `Device`, `Portable`), sorted within a section by the
/// sort field. Phones are sectioned by their sort field: by the first letter of the folded name
/// (`É` files under `E`), by maker, or by year. Ties are broken by id, ascending, so the order is total
/// and the same on every run. A search (``searchText``, see `SearchQuery`) keeps only the matching
/// records, in the same sections and order, like a filtered table view.
public struct ListRequest: Sendable, Hashable {
    /// The entity listed.
    public var entity: Entity
    /// For products, only this type.
    public var scope: ProductType?
    /// The field rows are sorted by.
    public var sort: SortField
    /// Whether the sort field is descending.
    public var isReversed: Bool
    /// The search text, as typed; empty (or only white space) keeps every record.
    public var searchText: String

    /// Creates a request.
    public init(
        entity: Entity = .products, scope: ProductType? = nil, sort: SortField = .name, isReversed: Bool = false,
        searchText: String = ""
    ) {
        self.entity = entity
        self.scope = scope
        self.sort = sort
        self.isReversed = isReversed
        self.searchText = searchText
    }

    /// ``searchText`` parsed into terms.
    public var searchQuery: SearchQuery { SearchQuery(searchText) }

    /// Checks that the sort field and scope apply to the entity.
    ///
    /// - Throws: ``CatalogError/invalidValue(field:value:reason:)``.
    public func validate() throws {
        let fields: [SortField] = entity == .products ? [.name, .year, .price] : [.name, .maker, .year]
        guard fields.contains(sort) else {
            throw CatalogError.invalidValue(
                field: "sort", value: sort.rawValue,
                reason: "\(entity.rawValue) sort by " + fields.map(\.rawValue).joined(separator: ", "))
        }
        if scope != nil && entity != .products {
            throw CatalogError.invalidValue(field: "scope", value: scope!.rawValue, reason: "only products have a scope")
        }
    }
}

/// A section of a listed result: a name, its index title, and its records in order.
public struct RecordSection<Record: CatalogRecord>: Sendable, Hashable {
    /// The section's name (`Device`, `E`, `Apple`, `2007`).
    public var name: String
    /// The title for a section index: the name's first letter.
    public var indexTitle: String
    /// The records, in the request's order.
    public var records: [Record]
}
