import FetchedResults
import Foundation
import SQLiteStore
import Testing
import TestSupport

/// Sections, index titles, index paths and batches of a controller over random items, on each
/// engine, checked against the same result computed in Swift.
@Suite struct FetchedResultsControllerTests {
    /// The items in the request's documented order: section key, sort keys, then id ascending.
    static func expectedOrder(_ items: [Item], descendingName: Bool, secondByScore: Bool) -> [[Item]] {
        func before(_ x: [UInt8], _ y: [UInt8]) -> Bool {
            descendingName ? y.lexicographicallyPrecedes(x) : x.lexicographicallyPrecedes(y)
        }
        let sorted = items.sorted { (a: Item, b: Item) -> Bool in
            // SQLite's upper() and lower() change ASCII letters only (the random names hold "é" too),
            // and compare UTF-8 bytes.
            let (ka, kb) = (Self.asciiUpper(a.name.prefix(1)), Self.asciiUpper(b.name.prefix(1)))
            if ka != kb { return before(ka, kb) }
            let (na, nb) = (Self.asciiLower(a.name), Self.asciiLower(b.name))
            if na != nb { return before(na, nb) }
            if secondByScore && a.score != b.score { return a.score > b.score }
            return a.id! < b.id!
        }
        var sections: [[Item]] = []
        for item in sorted {
            if let last = sections.last?.last, asciiUpper(last.name.prefix(1)) == asciiUpper(item.name.prefix(1)) {
                sections[sections.count - 1].append(item)
            } else {
                sections.append([item])
            }
        }
        return sections
    }

    static func asciiUpper(_ text: some StringProtocol) -> [UInt8] {
        text.utf8.map { (97...122).contains($0) ? $0 - 32 : $0 }
    }

    static func asciiLower(_ text: some StringProtocol) -> [UInt8] {
        text.utf8.map { (65...90).contains($0) ? $0 + 32 : $0 }
    }

    static func request(descending: Bool, secondByScore: Bool, batchSize: Int) -> FetchRequest<Item> {
        // Qualified: Foundation, imported here for `#Predicate`, has a SortDescriptor too.
        var sorts = [FetchedResults.SortDescriptor(\Item.name, order: descending ? .reverse : .forward)]
        if secondByScore { sorts.append(SortDescriptor(\Item.score, order: .reverse)) }
        return FetchRequest(sortDescriptors: sorts, sectionKeyPath: \Item.name, batchSize: batchSize)
    }

    @Test(arguments: StoreEngine.all, [(false, false, 0), (false, true, 3), (true, false, 4), (true, true, 1)])
    func sectionsRowsAndIndexPathsMatchTheOrder(engine: StoreEngine, order: (descending: Bool, secondByScore: Bool, batchSize: Int)) throws {
        let (descending, secondByScore, batchSize) = order
        let database = try ItemDatabase(engine: engine)
        try database.insert(ItemDatabase.randomItems(120, seed: 7))
        let expected = Self.expectedOrder(database.items, descendingName: descending, secondByScore: secondByScore)
        let controller = FetchedResultsController(
            request: Self.request(descending: descending, secondByScore: secondByScore, batchSize: batchSize),
            reader: database.writer)
        controller.cachedBatchLimit = 2
        try controller.performFetch()

        #expect(controller.sections.map(\.numberOfObjects) == expected.map(\.count))
        #expect(controller.sections.map(\.name) == expected.map { String(decoding: Self.asciiUpper($0[0].name.prefix(1)), as: UTF8.self) })
        #expect(controller.numberOfObjects == 120)
        if batchSize > 0 {
            #expect(controller.loadedObjectCount == min(batchSize, expected[0].count), "a batched fetch loads its first batch only")
        }

        // Every row, in order (keyset pagination from batch to batch), and back from object to path.
        for (section, items) in expected.enumerated() {
            for (row, item) in items.enumerated() {
                let path = ItemPath(section: section, row: row)
                #expect(try controller.object(at: path) == item, "object at \(path)")
                #expect(try controller.indexPath(for: item) == path)
                if batchSize > 0 { #expect(controller.loadedObjectCount <= 2 * batchSize) }
            }
        }
        #expect(try controller.fetchedObjects == expected.flatMap { $0 })
        #expect(try controller.snapshot().sections.map(\.ids) == expected.map { $0.map { $0.id! } })
    }

    @Test(arguments: StoreEngine.all) func jumpsAndEvictedBatchesReadTheSameRows(engine: StoreEngine) throws {
        let database = try ItemDatabase(engine: engine)
        try database.insert(ItemDatabase.randomItems(200, seed: 3))
        let reference = FetchedResultsController(request: Self.request(descending: false, secondByScore: false, batchSize: 0), reader: database.writer)
        try reference.performFetch()
        let batched = FetchedResultsController(request: Self.request(descending: false, secondByScore: false, batchSize: 5), reader: database.writer)
        batched.cachedBatchLimit = 1
        try batched.performFetch()
        var random = SplitMix64(seed: 11)
        for _ in 0..<300 {
            let section = Int.random(in: 0..<reference.sections.count, using: &random)
            let path = ItemPath(section: section, row: Int.random(in: 0..<reference.sections[section].numberOfObjects, using: &random))
            #expect(try batched.object(at: path) == reference.object(at: path))
        }
        #expect(batched.loadedObjectCount <= 5)
    }

    @Test(arguments: StoreEngine.all) func tiesAreBrokenByIDAscending(engine: StoreEngine) throws {
        let database = try ItemDatabase(engine: engine)
        try database.insert((0..<10).map { Item(name: "same", nick: nil, score: $0 % 2, price: 1, flag: false) })
        for order in [SortOrder.forward, .reverse] {
            let controller = FetchedResultsController(
                request: FetchRequest(sortDescriptors: [SortDescriptor(\Item.name, order: order)], batchSize: 3), reader: database.writer)
            try controller.performFetch()
            #expect(try controller.fetchedObjects.map(\.id!) == Array(1...10))
        }
    }

    @Test(arguments: StoreEngine.all) func unsectionedResultsAndLimits(engine: StoreEngine) throws {
        let database = try ItemDatabase(engine: engine)
        try database.insert(ItemDatabase.randomItems(50, seed: 5))
        var request = FetchRequest<Item>(
            predicate: #Predicate { $0.flag }, sortDescriptors: [SortDescriptor(\.score), SortDescriptor(\.price, order: .reverse)],
            fetchLimit: 10, fetchOffset: 3, batchSize: 4)
        let controller = FetchedResultsController(request: request, reader: database.writer)
        try controller.performFetch()
        let all = database.items.filter(\.flag).sorted { ($0.score, -$0.price, $0.id!) < ($1.score, -$1.price, $1.id!) }
        #expect(controller.sections.map(\.name) == [""])
        #expect(try controller.fetchedObjects == Array(all.dropFirst(3).prefix(10)))

        // A search bar changes the request and fetches again.
        request.fetchLimit = nil
        request.fetchOffset = 0
        controller.request = request
        try controller.performFetch()
        #expect(try controller.fetchedObjects == all)
        #expect(!controller.contains(ItemPath(section: 0, row: all.count)))
        #expect(!controller.contains(ItemPath(section: 1, row: 0)))
    }

    @Test(arguments: StoreEngine.all) func sectionIndexTitlesAreDistinct(engine: StoreEngine) throws {
        let database = try ItemDatabase(engine: engine)
        try database.insert(["apple", "Avocado", "banana", "Cherry"].map { Item(name: $0, nick: nil, score: 0, price: 0, flag: true) })
        let controller = FetchedResultsController(request: Self.request(descending: false, secondByScore: false, batchSize: 0), reader: database.writer)
        try controller.performFetch()
        #expect(controller.sections.map(\.name) == ["A", "B", "C"])
        #expect(controller.sectionIndexTitles == ["A", "B", "C"])
        #expect(controller.section(forSectionIndexTitle: "B") == 1)
        for unknown in ["Z", "b", "", "AB"] {
            #expect(controller.section(forSectionIndexTitle: unknown) == nil)
        }
    }

    /// More change-log entries than ``FetchedResultsController/incrementalLimit``: for one row (renamed
    /// again and again) the controller still moves only it; for that many rows it fetches again. Both
    /// change sets bring the result to what a fresh read gives (on PostgreSQL the changed rows'
    /// places are read with the entries, unless there are that many).
    @Test(arguments: StoreEngine.all) func manyEntriesForOneRowMoveItAndForManyRowsRefetch(engine: StoreEngine) throws {
        let database = try AsyncFetchTests.trackedDatabase(ItemDatabase.randomItems(30, seed: 7), engine)
        let controller = FetchedResultsController(
            request: Self.request(descending: false, secondByScore: false, batchSize: 5), reader: database.writer)
        try controller.startTracking()
        let limit = FetchedResultsController<Item>.incrementalLimit
        var before = try #require(controller.trackedSnapshot)
        try database.writer.write { db in
            for round in 0...limit { try db.execute(sql: "UPDATE items SET name = ? WHERE id = 1", values: [.text("n\(round)")]) }
        }
        var changeSet = try controller.applyPendingChanges()
        #expect(try before.applying(changeSet) == controller.snapshot())
        #expect(controller.trackingStatistics?.incrementalUpdates == 1)

        before = try #require(controller.trackedSnapshot)
        try database.insert(ItemDatabase.randomItems(limit + 1, seed: 8))
        changeSet = try controller.applyPendingChanges()
        #expect(try before.applying(changeSet) == controller.snapshot())
        #expect(controller.trackingStatistics?.refetches == 1)
        #expect(controller.numberOfObjects == 30 + limit + 1)
    }
}
