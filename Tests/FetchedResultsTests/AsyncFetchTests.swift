import FetchedResults
import Foundation
import SQLiteStore
import Testing
import TestSupport

/// `performFetch()` from async code, through concurrent readers (a pool's on SQLite, the replicas on
/// PostgreSQL): the same result as the documented order (the reference of
/// ``FetchedResultsControllerTests``), cancellable.
struct AsyncFetchTests {
    /// A database holding `items`, whose changes the engine's change log records.
    static func trackedDatabase(_ items: [Item], _ engine: StoreEngine) throws -> ItemDatabase {
        let database = try ItemDatabase(engine: engine)
        try database.insert(items)
        try database.trackChanges()
        return database
    }

    @Test(arguments: StoreEngine.all, [(false, 0), (true, 3)])
    func asyncFetchThroughConcurrentReadersReadsTheDocumentedOrder(engine: StoreEngine, order: (descending: Bool, batchSize: Int)) async throws {
        let (descending, batchSize) = order
        let database = try ItemDatabase(engine: engine)
        try database.insert(ItemDatabase.randomItems(150, seed: 11))
        let expected = FetchedResultsControllerTests.expectedOrder(database.items, descendingName: descending, secondByScore: false)
        let reader = try database.concurrentReader()
        let controller = FetchedResultsController(
            request: FetchedResultsControllerTests.request(descending: descending, secondByScore: false, batchSize: batchSize),
            reader: reader)
        try await controller.performFetch()
        #expect(controller.sections.map(\.numberOfObjects) == expected.map(\.count))
        #expect(try controller.fetchedObjects.map(\.id) == expected.flatMap { $0 }.map(\.id))
        if let pool = reader as? DatabasePool { #expect(pool.readerCount >= 1) }
    }

    /// `object(at:)` from async code reads each batch through a reader: every row in the documented
    /// order, forwards (keyset), backwards after eviction (by id) and while tracking (by id).
    @Test(arguments: StoreEngine.all) func asyncObjectAtReadsEveryRowInTheDocumentedOrder(engine: StoreEngine) async throws {
        let database = try Self.trackedDatabase(ItemDatabase.randomItems(120, seed: 17), engine)
        let expected = FetchedResultsControllerTests.expectedOrder(database.items, descendingName: false, secondByScore: true)
        let controller = FetchedResultsController(
            request: FetchedResultsControllerTests.request(descending: false, secondByScore: true, batchSize: 7),
            reader: try database.concurrentReader())
        controller.cachedBatchLimit = 1
        try await controller.performFetch()
        let paths = expected.enumerated().flatMap { section, rows in rows.indices.map { ItemPath(section: section, row: $0) } }
        let ids = expected.flatMap { $0 }.map(\.id)
        var forwards: [Int64?] = []
        for path in paths { forwards.append(try await controller.object(at: path).id) }
        #expect(forwards == ids)
        #expect(controller.loadedObjectCount <= 7)
        var backwards: [Int64?] = []
        for path in paths.reversed() { backwards.append(try await controller.object(at: path).id) }
        #expect(backwards == ids.reversed())
        try await controller.startTracking()
        var tracked: [Int64?] = []
        for path in paths { tracked.append(try await controller.object(at: path).id) }
        #expect(tracked == ids)
    }

    /// A cancelled `object(at:)` throws `CancellationError` and keeps nothing; the next call reads the
    /// batch (one the fetch did not read with its first: the second section's).
    @Test(arguments: StoreEngine.all) func aCancelledObjectAtThrowsAndLoadsNothing(engine: StoreEngine) async throws {
        let database = try ItemDatabase(engine: engine)
        try database.insert(ItemDatabase.randomItems(40, seed: 9))
        let reader = database.writer
        let task = Task { () -> (error: (any Error)?, loaded: Int, id: Int64?) in
            let controller = FetchedResultsController(
                request: FetchedResultsControllerTests.request(descending: false, secondByScore: false, batchSize: 5), reader: reader)
            try await controller.performFetch()
            let path = ItemPath(section: 1, row: 0)
            let fetched = controller.loadedObjectCount
            withUnsafeCurrentTask { $0?.cancel() }
            var error: (any Error)?
            do { _ = try await controller.object(at: path) } catch let thrown { error = thrown }
            let loaded = controller.loadedObjectCount - fetched
            // The task stays cancelled: read the batch with the synchronous call.
            let readSynchronously = { try controller.object(at: path) }
            return (error, loaded, try readSynchronously().id)
        }
        let (error, loaded, id) = try await task.value
        #expect(error is CancellationError)
        #expect(loaded == 0)
        let first = FetchedResultsControllerTests.expectedOrder(database.items, descendingName: false, secondByScore: false)[1][0]
        #expect(id == first.id)
    }

    @Test(arguments: StoreEngine.all) func aCancelledFetchThrowsAndKeepsThePreviousResult(engine: StoreEngine) async throws {
        let database = try ItemDatabase(engine: engine)
        try database.insert(ItemDatabase.randomItems(40, seed: 3))
        let reader = database.writer
        // The controller lives in the task that is cancelled (it is not Sendable).
        let task = Task { () -> (before: [FetchedSection], error: (any Error)?, after: [FetchedSection]) in
            let controller = FetchedResultsController(request: FetchRequest<Item>(), reader: reader)
            try await controller.performFetch()
            let before = controller.sections
            try await reader.write { db in try db.execute(sql: "DELETE FROM items WHERE id <= 10", values: []) }
            withUnsafeCurrentTask { $0?.cancel() }
            do {
                try await controller.performFetch()
                return (before, nil, controller.sections)
            } catch {
                return (before, error, controller.sections)
            }
        }
        let (before, error, after) = try await task.value
        #expect(error is CancellationError)
        #expect(after == before)
        #expect(before.map(\.numberOfObjects).reduce(0, +) == 40)
    }

    @Test(arguments: StoreEngine.all) func trackingThroughConcurrentReadersAppliesChangesAsync(engine: StoreEngine) async throws {
        let database = try Self.trackedDatabase(ItemDatabase.randomItems(30, seed: 5), engine)
        let reader = try database.concurrentReader()
        let controller = FetchedResultsController(
            request: FetchedResultsControllerTests.request(descending: false, secondByScore: false, batchSize: 5), reader: reader)
        try await controller.startTracking()
        let before = try #require(controller.trackedSnapshot)
        try database.insert(ItemDatabase.randomItems(3, seed: 6))
        try await database.writer.write { db in try db.execute(sql: "DELETE FROM items WHERE id IN (1, 2)", values: []) }
        let changeSet = try await controller.applyPendingChanges()
        #expect(try before.applying(changeSet) == controller.snapshot())
        #expect(controller.numberOfObjects == 31)
    }
}
