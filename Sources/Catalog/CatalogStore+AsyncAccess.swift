import FetchedResults
import SQLiteStore

/// The store from async code: each call runs on a connection's own queue (a pool reader for reads,
/// the writer for writes) while the calling task is suspended, so no thread of the cooperative pool
/// waits for SQLite, and reads run beside each other and beside a write.
///
/// ```swift
/// let store = try CatalogStore(path: "/tmp/catalog.sqlite")
/// let iPhone = try await store.insert(Product(type: .device, name: "iPhone", yearIntroduced: 2007, introPrice: 599))
/// async let names = store.suggest(prefix: "ip")
/// async let count = store.count(Product.self)
/// print(try await names, try await count)
/// ```
///
/// Cancelling the calling task interrupts the running statement: the call throws `CancellationError`,
/// and a write is rolled back, leaving nothing.
extension CatalogStore {
    // MARK: - Writing

    /// Saves a new record and returns it with its id: ``insert(_:)-(Entity)`` from async code.
    ///
    /// - Throws: `CancellationError`, ``CatalogError/invalidValue(field:value:reason:)``,
    ///   ``CatalogError/duplicateName(entity:name:)``, or `DatabaseError`.
    @discardableResult
    public func insert<Entity: CatalogEntity>(_ record: Entity) async throws -> Entity {
        try await writer.write { db in try Self.insert(record, db) }
    }

    /// Replaces the stored fields of a saved record: ``update(_:)-(Entity)`` from async code.
    ///
    /// - Throws: `CancellationError`, ``CatalogError/notFound(entity:id:)`` when no record has its id.
    public func update<Entity: CatalogEntity>(_ record: Entity) async throws {
        guard record.id != nil else { throw CatalogError.invalidValue(field: "id", value: "nil", reason: "the record was never saved") }
        try await writer.write { db in try Self.update(record, db) }
    }

    /// Deletes the record with this id and returns it: ``delete(_:id:)-(Entity.Type,_)`` from async code.
    ///
    /// - Throws: `CancellationError`, ``CatalogError/notFound(entity:id:)`` when there is none.
    @discardableResult
    public func delete<Entity: CatalogEntity>(_ type: Entity.Type, id: Int64) async throws -> Entity {
        try await writer.write { db in try Self.delete(Entity.self, id: id, db) }
    }

    // MARK: - Reading

    /// The record with this id, if any.
    ///
    /// - Throws: `CancellationError`, `DatabaseError`.
    public func fetchOne<Entity: CatalogEntity>(_ type: Entity.Type, id: Int64) async throws -> Entity? {
        try await writer.read { db in try Entity.fetchOne(id: id, db) }
    }

    /// Every record of a type, by id.
    ///
    /// - Throws: `CancellationError`, `DatabaseError`.
    public func fetchAll<Entity: CatalogEntity>(_ type: Entity.Type) async throws -> [Entity] {
        try await writer.read { db in try Entity.fetchAll(db) }
    }

    /// The number of records of a type.
    ///
    /// - Throws: `CancellationError`, `DatabaseError`.
    public func count<Entity: CatalogEntity>(_ type: Entity.Type) async throws -> Int {
        try await writer.read { db in try Entity.fetchCount(db) }
    }

    /// Whether no record of a type is stored (without counting them).
    ///
    /// - Throws: `CancellationError`, `DatabaseError`.
    public func isEmpty<Entity: CatalogEntity>(_ type: Entity.Type) async throws -> Bool {
        try await writer.read { db in try Entity.isEmpty(db) }
    }

    /// Names that complete a typed prefix: ``suggest(prefix:limit:entity:)`` from async code, so that a
    /// newer keystroke can cancel it.
    ///
    /// - Throws: `CancellationError`, `DatabaseError`.
    /// - Precondition: `limit` is not negative, as for the synchronous `suggest`.
    public func suggest(prefix: String, limit: Int = 10, entity: EntityKind = .products) async throws -> [String] {
        precondition(limit >= 0, "a suggestions' limit is not negative, not \(limit)")
        return try await writer.read { db in try Self.suggestions(prefix: prefix, limit: limit, entity: entity, db) }
    }

    /// The controller of a listed result, fetched on a reader connection: ``fetchedResults(_:batchSize:)``
    /// from async code.
    ///
    /// - Throws: `CancellationError`, ``CatalogError/invalidValue(field:value:reason:)``, `DatabaseError`.
    public func fetchedResults<Entity: CatalogEntity>(
        _ request: ListRequest<Entity>, batchSize: Int = 0
    ) async throws -> FetchedResultsController<Entity> {
        let controller = try makeController(request, batchSize: batchSize)
        try await controller.performFetch()
        return controller
    }
}
