import FetchedResults
import SQLiteStore

extension CatalogStore {
    /// The controller of a listed result: the fetch request `request` describes, fetched.
    ///
    /// `list`, `show PATH` and `delete --at PATH` all resolve through this, so an index path names
    /// the same row in each for the same request.
    ///
    /// - Parameters:
    ///   - request: the scope, search, sort and direction of the list.
    ///   - batchSize: entities loaded at a time; 0 loads them all.
    /// - Throws: ``CatalogError/invalidValue(field:value:reason:)`` for a sort the entity type does not
    ///   offer, `DatabaseError` when reading fails.
    public func fetchedResults<Entity: CatalogEntity>(
        _ request: ListRequest<Entity>, batchSize: Int = 0
    ) throws -> FetchedResultsController<Entity> {
        let controller = try makeController(request, batchSize: batchSize)
        try controller.performFetch()
        return controller
    }

    /// A controller, not fetched yet, for the fetch request `request` describes, reading through
    /// ``writer``.
    func makeController<Entity: CatalogEntity>(
        _ request: ListRequest<Entity>, batchSize: Int
    ) throws -> FetchedResultsController<Entity> {
        var fetch = try request.fetchRequest()
        fetch.batchSize = batchSize
        return FetchedResultsController(request: fetch, reader: writer)
    }

    /// The records of a request, in sections, all loaded.
    public func sections<Entity: CatalogEntity>(_ request: ListRequest<Entity>) throws -> [EntitySection<Entity>] {
        try fetchedResults(request).entitySections()
    }

    /// Reads the result of `request` without holding it, from one snapshot: its sections and their
    /// counts first (given to `sectionsRead`), then each record in order with its index path (given to
    /// `body`), one row at a time. How `catalog list` and `search` write a table or a data format in
    /// the memory of one row, whatever the result's size.
    ///
    /// The first `firstRows` entities are read as a search reads a page (`FetchedResultsController/forEachObject(sectionsRead:_:)`
    /// with that batch size), so that they come at once however many match; the rest in one
    /// query from the last of them.
    ///
    /// ```swift
    /// try store.forEachEntity(in: ListRequest<Product>(searchText: "mac"), firstRows: 50, sectionsRead: { _ in }) { path, product in
    ///     print(path, product.name)
    /// }
    /// ```
    ///
    /// - Throws: ``CatalogError/invalidValue(field:value:reason:)``, `DatabaseError`, and what
    ///   `sectionsRead` or `body` throws, which ends the read.
    public func forEachEntity<Entity: CatalogEntity>(
        in request: ListRequest<Entity>, firstRows: Int, sectionsRead: ([FetchedSection]) throws -> Void,
        _ body: (ItemPath, Entity) throws -> Void
    ) throws {
        try makeController(request, batchSize: firstRows).forEachObject(sectionsRead: sectionsRead, body)
    }

    /// Reads the result of `request` as ``forEachEntity(in:firstRows:sectionsRead:_:)`` does, each
    /// record given with its index path and its section's name, for a caller that needs no section's
    /// count before the rows (`catalog list` and `search` in a data format): a search whose counts
    /// would read its matches is not counted first, but read in one query in order
    /// (`FetchedResultsController/forEachObject(_:)`), so that its first row comes sooner.
    ///
    /// - Throws: ``CatalogError/invalidValue(field:value:reason:)``, `DatabaseError`, and what `body`
    ///   throws, which ends the read.
    public func forEachEntity<Entity: CatalogEntity>(
        in request: ListRequest<Entity>, firstRows: Int, _ body: (ItemPath, _ sectionName: String, Entity) throws -> Void
    ) throws {
        try makeController(request, batchSize: firstRows).forEachObject(body)
    }

    /// The record at `path` in the result of `request`, reading that one row. A search sectioned by
    /// its scope whose counts would read its matches does not count them
    /// (`FetchRequest.searchRecord(at:costs:_:)`: which sections hold one, each from its first match,
    /// and the row); any other result is fetched with a batch of one (a process that shows one row
    /// would otherwise read 49 more, each from a page of its own).
    ///
    /// - Throws: ``CatalogError/indexPathOutOfRange(_:sectionCount:)`` when the result has no row there.
    public func record<Entity: CatalogEntity>(at path: ItemPath, in request: ListRequest<Entity>) throws -> Entity {
        let fetch = try request.fetchRequest()
        // Only a request `searchRecord` reads, on a file: no read for the others.
        if file != nil, fetch.searchRecordSections != nil {
            switch try writer.read({ db in try fetch.searchRecord(at: path, db) }) {
            case .found(let record): return record
            case .outOfRange(let sectionCount): throw CatalogError.indexPathOutOfRange(path.description, sectionCount: sectionCount)
            case nil: break
            }
        }
        let controller = try fetchedResults(request, batchSize: 1)
        guard controller.contains(path) else {
            throw CatalogError.indexPathOutOfRange(path.description, sectionCount: controller.sections.count)
        }
        return try controller.object(at: path)
    }

    /// The index path of the record with this id in the result of `request`, if it is there.
    public func itemPath<Entity: CatalogEntity>(ofID id: Int64, in request: ListRequest<Entity>) throws -> ItemPath? {
        try fetchedResults(request, batchSize: 50).indexPath(forID: id)
    }

    /// Deletes the record at `path` in the result of `request` and returns it.
    ///
    /// - Throws: ``CatalogError/indexPathOutOfRange(_:sectionCount:)`` when the result has no row there.
    @discardableResult
    public func delete<Entity: CatalogEntity>(at path: ItemPath, in request: ListRequest<Entity>) throws -> Entity {
        let record = try record(at: path, in: request)
        return try delete(Entity.self, id: record.id!)
    }
}

extension CatalogStore {
    /// A controller over the result of `request` that tracks the database's changes: fetched, with the
    /// change-log position of its result, ready for `FetchedResultsController/applyPendingChanges()`
    /// or `FetchedResultsController/changeSets(from:)`.
    ///
    /// For a database file the controller reads on the pool's reader connections, so that reading
    /// never waits for this store's writes (WAL); an in-memory store shares its one connection.
    ///
    /// - Parameters:
    ///   - request: the scope, search, sort and direction of the list.
    ///   - batchSize: entities loaded at a time; 0 loads them all at each read.
    /// - Throws: ``CatalogError/invalidValue(field:value:reason:)`` for a sort the entity type does not
    ///   offer, `DatabaseError` when reading fails.
    public func trackedResults<Entity: CatalogEntity>(
        _ request: ListRequest<Entity>, batchSize: Int = 50
    ) throws -> FetchedResultsController<Entity> {
        let controller = try makeController(request, batchSize: batchSize)
        try controller.startTracking()
        return controller
    }
}

extension FetchedResultsController where Entity: CatalogEntity {
    /// The whole result as sections of records, read a batch at a time.
    public func entitySections() throws -> [EntitySection<Entity>] {
        try sections.indices.map { index in
            let section = sections[index]
            return EntitySection(name: section.name, indexTitle: section.indexTitle, records: try objects(inSection: index))
        }
    }
}
