import Catalog

/// A list as the command line and the browse screen name it: an entity by its word, and the scope,
/// sort, direction and search text of its record type's `ListRequest`.
struct ListChoice: Hashable, Sendable {
    /// The entity listed.
    var entity: Entity
    /// For an entity with a scope (products), only this value of it.
    var scope: ProductType?
    /// The field rows are sorted by.
    var sort: SortField = .name
    /// Whether the sort field is descending.
    var isReversed = false
    /// The search text, as typed.
    var searchText = ""

    /// The request of `Record`, the entity's record type.
    ///
    /// - Throws: `CatalogError.invalidValue` for a scope or sort the record type does not take.
    func request<Record: CatalogRecord>(_ type: Record.Type) throws -> ListRequest<Record> {
        let request = ListRequest<Record>(
            scope: try scope.map { try Self.scope(Record.self, $0) }, sort: sort, isReversed: isReversed,
            searchText: searchText)
        try request.validate()
        return request
    }

    /// Checks that the entity's record type takes the scope and sort.
    ///
    /// - Throws: `CatalogError.invalidValue`.
    func validate() throws {
        func check<Record: CatalogRecord>(_ type: Record.Type) throws { _ = try request(Record.self) }
        try check(entity.recordType)
    }

    /// `word`'s value of `Record`'s scope.
    private static func scope<Record: CatalogRecord>(_ type: Record.Type, _ word: ProductType) throws -> Record.Scope {
        guard Record.hasScope else {
            let scoped = Entity.allCases.filter { $0.recordType.hasScope }.map(\.rawValue)
            throw CatalogError.invalidValue(
                field: "scope", value: word.rawValue, reason: "only \(scoped.joined(separator: " and ")) have a scope")
        }
        return try Record.Scope(parsing: word.rawValue)
    }
}

extension CatalogRecord {
    /// Whether the record type's lists take a scope.
    static var hasScope: Bool { !Scope.allCases.isEmpty }
}
