import FetchedResults
import Foundation
import PostgreSQLStore
import SQLiteStore
import Testing
import TestSupport

/// `changeSets(from:)` on each engine, woken by commits of a second connection (another connection to
/// SQLite's file, seen by a `ChangeMonitor`; another cluster on PostgreSQL, seen by the primary's
/// notifications): model-checked, each change set applied to the result before it is a fresh fetch.
struct ChangeSetSequenceTests {
    @Test(arguments: StoreEngine.all) func commitsOfASecondConnectionArriveAsChangeSets(engine: StoreEngine) async throws {
        let database = try AsyncFetchTests.trackedDatabase(ItemDatabase.randomItems(40, seed: 21), engine)
        let request = FetchedResultsControllerTests.request(descending: false, secondByScore: true, batchSize: 0)
        let controller = FetchedResultsController(request: request, reader: database.writer)
        try await controller.startTracking()
        let other = try database.store.openAgain()
        switch database.writer {
        case let queue as DatabaseQueue:
            try await follow(controller.changeSets(from: try ChangeMonitor(path: queue.path)), controller, request, written: other, database)
        case let cluster as PostgreSQLCluster:
            try await follow(controller.changeSets(from: cluster.changeNotifications()), controller, request, written: other, database)
        default:
            Issue.record("a store of neither engine")
        }
    }

    /// Makes random writes through `other`, one transaction at a time, each changing the result, and
    /// checks the change set each gives.
    func follow(
        _ changeSets: some AsyncSequence<ChangeSet, any Error>, _ controller: FetchedResultsController<Item>,
        _ request: FetchRequest<Item>, written other: any StoreWriter, _ database: ItemDatabase
    ) async throws {
        var iterator = changeSets.makeAsyncIterator()
        var random = SplitMix64(seed: 22)
        var ids = database.items.compactMap(\.id)
        for step in 0..<12 {
            let before = try #require(controller.trackedSnapshot)
            let (choice, count) = (random.next() % 3, 1 + Int(random.next() % 3))
            let picked = (0..<count).map { _ in ids[Int(random.next() % UInt64(ids.count))] }
            let added = ItemDatabase.randomItems(count, seed: random.next())
            let score = Int(random.next() % 11) - 5
            let inserted = try await other.write { db -> [Item] in
                switch choice {
                case 0:
                    return try ItemDatabase.insert(added, db)
                case 1:
                    for id in picked { try db.execute(sql: "UPDATE items SET score = ?, name = name || 'x' WHERE id = ?", values: [.integer(Int64(score)), .integer(id)]) }
                    return []
                default:
                    for id in picked { try db.execute(sql: "DELETE FROM items WHERE id = ?", values: [.integer(id)]) }
                    return []
                }
            }
            if choice == 2 { ids.removeAll { picked.contains($0) } }
            ids += inserted.compactMap(\.id)
            let change = try #require(try await iterator.next(), "step \(step): the sequence ended")
            let fresh = FetchedResultsController(request: request, reader: database.writer)
            try await fresh.performFetch()
            #expect(try before.applying(change) == fresh.snapshot(), "step \(step)")
            #expect(controller.trackedSnapshot == (try fresh.snapshot()), "step \(step)")
        }
    }
}
