import Entities
import FetchedResults
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import SQLiteStore
import TextSearch

/// A field a list can be sorted by: the word the command line and a saved browse state name it by.
/// Which fields an entity type sorts by, and how, is its own (``CatalogEntity/listFetchRequest(sortedBy:order:)``).
public enum SortField: String, CaseIterable, Codable, Sendable {
    /// By name, folded (case and diacritics ignored).
    case name
    /// By maker (phones only).
    case maker
    /// By year introduced (products) or released (phones).
    case year
    /// By intro price (products only).
    case price
}

/// What to list of an entity type: an optional scope, a search text, a sort, and its direction.
///
/// ```swift
/// let request = ListRequest<Product>(scope: .portable, sort: .price, searchText: "mac")
/// let sections = try store.sections(request)
/// ```
///
/// Products are sectioned by type (`Desktop`, `Device`, `Portable`), sorted within a section by the
/// sort field. Phones are sectioned by their sort field: by the first letter of the folded name
/// (`É` files under `E`), by maker, or by year. Ties are broken by id, ascending, so the order is total
/// and the same on every run. A search (``searchText``, see `SearchQuery`) keeps only the matching
/// records, in the same sections and order, like a filtered table view.
///
/// The sort fields a request accepts and its scope's type are the entity type's
/// (``CatalogEntity/sortFields``, ``CatalogEntity/Scope``); its order is its fetch request's
/// (``fetchRequest()``), which lists and search pages alike sort by.
public struct ListRequest<Entity: CatalogEntity>: Sendable, Hashable {
    /// Only records whose scope attribute has this value (products of one type); nil for all.
    public var scope: Entity.Scope?
    /// The field rows are sorted by: one of ``CatalogEntity/sortFields``.
    public var sort: SortField
    /// Whether the sort field is descending.
    public var isReversed: Bool
    /// The search, parsed once when its text is set: what the request's fetch request and search
    /// pages carry (no terms keeps every record).
    public var searchQuery: SearchQuery

    /// Creates a request.
    public init(scope: Entity.Scope? = nil, sort: SortField = .name, isReversed: Bool = false, searchText: String = "") {
        self.scope = scope
        self.sort = sort
        self.isReversed = isReversed
        self.searchQuery = SearchQuery(searchText)
    }

    /// The search text, as typed; empty (or only white space) keeps every record. Setting it parses it
    /// into ``searchQuery``.
    public var searchText: String {
        get { searchQuery.text }
        set { searchQuery = SearchQuery(newValue) }
    }

    /// Checks that the entity type sorts by the sort field.
    ///
    /// - Throws: ``CatalogError/invalidValue(field:value:reason:)``.
    public func validate() throws {
        _ = try fetchRequest()
    }

    /// The fetch request that lists the records as this request says: its scope, search, sort and
    /// sections; the one definition of the list's order.
    ///
    /// - Throws: ``CatalogError/invalidValue(field:value:reason:)`` for a field the entity type does not
    ///   sort by.
    public func fetchRequest() throws -> FetchRequest<Entity> {
        guard var fetch = Entity.listFetchRequest(sortedBy: sort, order: isReversed ? .reverse : .forward) else {
            throw CatalogError.invalidValue(
                field: "sort", value: sort.rawValue,
                reason: "\(Entity.tableName) sort by " + Entity.sortFields.map(\.rawValue).joined(separator: ", "))
        }
        fetch.searchQuery = searchQuery.text.isEmpty ? nil : searchQuery
        if let scope, let keyPath = Entity.scopeKeyPath { fetch.searchScope = SearchScope(keyPath, in: [scope]) }
        return fetch
    }

    /// The condition of the request's scope on the entity type's table, for a statement of its own.
    var scopeCondition: SQLFragment? {
        guard let scope, let column = Entity.searchDescription.scopeColumn else { return nil }
        return SQLFragment(sql: "\(column) = ?", arguments: [scope.databaseValue])
    }
}

/// A section of a listed result: a name, its index title, and its records in order.
public struct EntitySection<Entity: CatalogEntity>: Sendable, Hashable {
    /// The section's name (`Device`, `E`, `Apple`, `2007`).
    public var name: String
    /// The title for a section index: the name's first letter.
    public var indexTitle: String
    /// The records, in the request's order.
    public var records: [Entity]
}
