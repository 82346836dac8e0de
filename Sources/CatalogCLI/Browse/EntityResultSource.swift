import Catalog

/// A ``ResultSource`` of the entity type an entity names, chosen at run time: the browse screen
/// switches entities, and its driver holds one source per entity.
protocol EntityResultSource: AnyObject {
    /// Fetches `order`'s request: see ``ResultSource/fetch(_:)-(FetchOrder)``.
    func fetch(_ order: FetchOrder) throws -> ResultArrival
    /// How long the controller's `performFetch()` took in the last synchronous fetch.
    var lastControllerFetch: Duration { get }
    /// Fetches `order`'s request on the pool's readers, cancellably.
    nonisolated(nonsending) func fetch(_ order: FetchOrder) async throws -> ResultArrival
    /// Starts tracking changes for the last fetch.
    func startTracking(window: Int, selection: Int) throws -> ChangeArrival?
    /// Starts tracking changes for the last fetch on a pool's reader, cancellably.
    nonisolated(nonsending) func startTracking(window: Int, selection: Int) async throws -> ChangeArrival?
    /// The rows at flat positions `range` of the last fetch.
    func rows(_ range: Range<Int>) throws -> [Int: BrowseRow]
    /// Applies the commits since the last change set.
    func applyChanges(_ order: FetchOrder) throws -> ChangeArrival?
}

extension EntityKind {
    /// A source of results of the kind's entity type, reading `catalog`.
    func resultSource(_ catalog: CatalogStore) -> any EntityResultSource {
        func source<Entity: CatalogEntity>(_ type: Entity.Type) -> any EntityResultSource { ResultSource<Entity>(catalog: catalog) }
        return source(entityType)
    }

    /// A source for each entity, reading `catalog`.
    static func resultSources(_ catalog: CatalogStore) -> [EntityKind: any EntityResultSource] {
        Dictionary(uniqueKeysWithValues: allCases.map { ($0, $0.resultSource(catalog)) })
    }
}

extension CatalogStore {
    /// Deletes the record of `entity` with this id and returns its ``CatalogEntity/summary``.
    ///
    /// - Throws: `CatalogError.notFound` when there is none, `DatabaseError`.
    func deleteEntity(of entity: EntityKind, id: Int64) throws -> String {
        func delete<Entity: CatalogEntity>(_ type: Entity.Type) throws -> String { try self.delete(Entity.self, id: id).summary }
        return try delete(entity.entityType)
    }
}
