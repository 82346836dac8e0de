import FetchedResults
import Foundation
import SQLiteStore
import Testing

/// `performFetch()` from async code, through a pool's readers: the same result as the documented
/// order (the reference of ``FetchedResultsControllerTests``), cancellable.
struct AsyncFetchTests {
    @Test(arguments: [(false, 0), (true, 3)])
    func asyncFetchThroughAPoolReadsTheDocumentedOrder(descending: Bool, batchSize: Int) async throws {
        let database = try ItemDatabase()
        try database.insert(ItemDatabase.randomItems(150, seed: 11))
        let expected = FetchedResultsControllerTests.expectedOrder(database.items, descendingName: descending, secondByScore: false)
        let pool = try DatabasePool(path: database.queue.path, maximumReaderCount: 2)
        let controller = FetchedResultsController(
            request: FetchedResultsControllerTests.request(descending: descending, secondByScore: false, batchSize: batchSize),
            reader: pool)
        try await controller.performFetch()
        #expect(controller.sections.map(\.numberOfObjects) == expected.map(\.count))
        #expect(try controller.fetchedObjects.map(\.id) == expected.flatMap { $0 }.map(\.id))
        #expect(pool.readerCount >= 1)
    }

    @Test func aCancelledFetchThrowsAndKeepsThePreviousResult() async throws {
        let database = try ItemDatabase()
        try database.insert(ItemDatabase.randomItems(40, seed: 3))
        let reader = database.queue
        // The controller lives in the task that is cancelled (it is not Sendable).
        let task = Task { () -> (before: [FetchedSection], error: (any Error)?, after: [FetchedSection]) in
            let controller = FetchedResultsController(request: FetchRequest<Item>(), reader: reader)
            try await controller.performFetch()
            let before = controller.sections
            try await reader.write { db in try db.execute(sql: "DELETE FROM items WHERE id <= 10") }
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

    @Test func trackingThroughAPoolAppliesChangesAsync() async throws {
        let database = try ItemDatabase()
        try database.insert(ItemDatabase.randomItems(30, seed: 5))
        try await database.queue.writeWithoutTransaction { db in
            try ChangeLog.install(db)
            try ChangeLog.installTracking(forTable: "items", db)
        }
        let pool = try DatabasePool(path: database.queue.path)
        let controller = FetchedResultsController(
            request: FetchedResultsControllerTests.request(descending: false, secondByScore: false, batchSize: 5), reader: pool)
        try await controller.startTracking()
        let before = try #require(controller.trackedSnapshot)
        try database.insert(ItemDatabase.randomItems(3, seed: 6))
        try await pool.write { db in try db.execute(sql: "DELETE FROM items WHERE id IN (1, 2)") }
        let changeSet = try await controller.applyPendingChanges()
        #expect(try before.applying(changeSet) == controller.snapshot())
        #expect(controller.numberOfObjects == 31)
    }
}
