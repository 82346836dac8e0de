import Catalog

/// A list as the command line and the browse screen name it: an entity by its word, and the scope,
/// sort, direction and search text of its entity type's `ListRequest`.
struct ListChoice: Hashable, Sendable {
    /// The entity listed.
    var entity: EntityKind
    /// For an entity with a scope (products), only this value of it.
    var scope: ProductType?
    /// The field rows are sorted by.
    var sort: SortField = .name
    /// Whether the sort field is descending.
    var isReversed = false
    /// The search text, as typed.
    var searchText = ""

    /// The request of `Entity`, `entity`'s entity type.
    ///
    /// - Throws: `CatalogError.invalidValue` for a scope or sort the entity type does not take.
    func request<Entity: CatalogEntity>(_ type: Entity.Type) throws -> ListRequest<Entity> {
        let request = ListRequest<Entity>(
            scope: try scope.map { try Self.scope(Entity.self, $0) }, sort: sort, isReversed: isReversed,
            searchText: searchText)
        try request.validate()
        return request
    }

    /// Checks that `entity`'s entity type takes the scope and sort.
    ///
    /// - Throws: `CatalogError.invalidValue`.
    func validate() throws {
        func check<Entity: CatalogEntity>(_ type: Entity.Type) throws { _ = try request(Entity.self) }
        try check(entity.entityType)
    }

    /// `word`'s value of `Entity`'s scope.
    private static func scope<Entity: CatalogEntity>(_ type: Entity.Type, _ word: ProductType) throws -> Entity.Scope {
        guard Entity.hasScope else {
            let scoped = EntityKind.allCases.filter { $0.entityType.hasScope }.map(\.rawValue)
            throw CatalogError.invalidValue(
                field: "scope", value: word.rawValue, reason: "only \(scoped.joined(separator: " and ")) have a scope")
        }
        return try Entity.Scope(parsing: word.rawValue)
    }
}

extension CatalogEntity {
    /// Whether the entity type's lists take a scope.
    static var hasScope: Bool { !Scope.allCases.isEmpty }
}
