import Catalog

/// A ``ResultSource`` of the record type an entity names, chosen at run time: the browse screen
/// switches entities, and its driver holds one source per entity.
protocol RecordResultSource: AnyObject {
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

extension Entity {
    /// A source of results of the entity's record type, reading `catalog`.
    func resultSource(_ catalog: CatalogStore) -> any RecordResultSource {
        func source<Record: CatalogRecord>(_ type: Record.Type) -> any RecordResultSource { ResultSource<Record>(catalog: catalog) }
        return source(recordType)
    }

    /// A source for each entity, reading `catalog`.
    static func resultSources(_ catalog: CatalogStore) -> [Entity: any RecordResultSource] {
        Dictionary(uniqueKeysWithValues: allCases.map { ($0, $0.resultSource(catalog)) })
    }
}

extension CatalogStore {
    /// Deletes the record of `entity` with this id and returns its ``CatalogRecord/summary``.
    ///
    /// - Throws: `CatalogError.notFound` when there is none, `DatabaseError`.
    func deleteRecord(of entity: Entity, id: Int64) throws -> String {
        func delete<Record: CatalogRecord>(_ type: Record.Type) throws -> String { try self.delete(Record.self, id: id).summary }
        return try delete(entity.recordType)
    }
}
