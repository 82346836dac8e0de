import Entities
import SQLiteStore
import TextSearch

extension CatalogStore {
    /// The records that match `query` within `request` (scope, sort), in its sections and order: the
    /// same as ``sections(_:)`` with `request.searchText = query.text`.
    ///
    /// ```swift
    /// let sections = try store.search(SearchQuery("mac"), in: ListRequest<Product>(scope: .desktop))
    /// ```
    ///
    /// - Throws: ``CatalogError/invalidValue(field:value:reason:)``, `DatabaseError`.
    public func search<Entity: CatalogEntity>(_ query: SearchQuery, in request: ListRequest<Entity>) throws -> [EntitySection<Entity>] {
        var request = request
        request.searchQuery = query
        return try sections(request)
    }

    /// A page of the records that match the request's search, in its order, and how many match in all,
    /// read from one snapshot of the database: `SearchDescription/page(_:scope:order:limit:offset:totalCount:matchIDs:selection:costs:_:decode:)`
    /// of the entity type's description.
    ///
    /// ```swift
    /// let page = try store.searchPage(ListRequest<Product>(searchText: "ip"), limit: 50)
    /// ```
    ///
    /// - Throws: ``CatalogError/invalidValue(field:value:reason:)`` for a request's value a user gave;
    ///   `DatabaseError`.
    /// - Precondition: `limit` and `offset` are not negative: a mistake of the calling code, which
    ///   checks a number a user typed before it asks for a page (an offset past the matches is no
    ///   mistake: its page is empty).
    public func searchPage<Entity: CatalogEntity>(
        _ request: ListRequest<Entity>, limit: Int = 50, offset: Int = 0
    ) throws -> SearchPage<Entity> {
        try searchPage(request, limit: limit, offset: offset, costs: .standard)
    }

    /// `searchPage(_:limit:offset:)` with the executor's cost model (tests force each strategy).
    @_spi(Testing)
    public func searchPage<Entity: CatalogEntity>(
        _ request: ListRequest<Entity>, limit: Int, offset: Int, costs: SearchCosts
    ) throws -> SearchPage<Entity> {
        let read = try Self.searchPageRead(request, limit: limit, offset: offset, costs: costs)
        return try writer.read(read)
    }

    /// A page of the records that match the request's search, and how many match in all:
    /// the synchronous `searchPage` from async code, on a reader connection of the pool.
    ///
    /// ```swift
    /// let page = try await store.searchPage(ListRequest<Product>(searchText: "ip"), limit: 50)
    /// ```
    ///
    /// Cancelling the calling task interrupts the search's statement (as a newer keystroke does in
    /// ``searchResults(for:in:limit:debounce:)``).
    ///
    /// - Throws: `CancellationError`, ``CatalogError/invalidValue(field:value:reason:)``, `DatabaseError`.
    /// - Precondition: `limit` and `offset` are not negative, as for the synchronous `searchPage`.
    public func searchPage<Entity: CatalogEntity>(
        _ request: ListRequest<Entity>, limit: Int = 50, offset: Int = 0
    ) async throws -> SearchPage<Entity> {
        let read = try Self.searchPageRead(request, limit: limit, offset: offset, costs: .standard)
        return try await writer.read(read)
    }

    /// The read that makes a search page of `request`, once the request is checked.
    private static func searchPageRead<Entity: CatalogEntity>(
        _ request: ListRequest<Entity>, limit: Int, offset: Int, costs: SearchCosts
    ) throws -> @Sendable (any SQLConnection) throws -> SearchPage<Entity> {
        let fetch = try request.fetchRequest()
        return { db in try fetch.searchPage(limit: limit, offset: offset, costs: costs, db) }
    }

    /// The number of records that match the request's search.
    ///
    /// - Throws: ``CatalogError/invalidValue(field:value:reason:)``, `DatabaseError`.
    public func searchCount<Entity: CatalogEntity>(_ request: ListRequest<Entity>) throws -> Int {
        try request.validate()
        return try writer.read { db in
            if let db = db as? Database {
                return try Entity.searchDescription.count(request.searchQuery, scope: request.scope?.databaseValue, db)
            }
            let search = try EntitySearch<Entity>(request.searchQuery).condition(db)
            let scope = request.scopeCondition ?? .alwaysTrue
            let condition = SQLFragment(sql: "(") + search + SQLFragment(sql: ") AND ") + scope
            return try db.scalar(
                Int.self, sql: "SELECT count(*) FROM \(Entity.tableName) WHERE \(condition.sql)", arguments: condition.arguments) ?? 0
        }
    }

    /// Whether the entity type has any record in the request's scope, search aside: tells "the store
    /// is empty" from "nothing matched this search".
    ///
    /// - Throws: `DatabaseError`.
    public func hasEntities<Entity: CatalogEntity>(_ request: ListRequest<Entity>) throws -> Bool {
        let scope = request.scopeCondition ?? .alwaysTrue
        return try writer.read { db in
            try db.scalar(
                Int.self, sql: "SELECT CASE WHEN EXISTS (SELECT 1 FROM \(Entity.tableName) WHERE \(scope.sql)) THEN 1 ELSE 0 END",
                arguments: scope.arguments) == 1
        }
    }
}
