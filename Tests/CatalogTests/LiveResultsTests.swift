import Catalog
import FetchedResults
import Foundation
import PostgreSQLStore
import Synchronization
import SQLiteStore
import TestSupport
import Testing
import TextSearch

/// The live controller, model-checked: after every random history of commits and rollbacks, applying
/// its change set to the previous snapshot gives exactly a fresh fetch, under random requests; each
/// test on each engine (`StoreEngine`).
struct LiveResultsTests {
    struct Rollback: Error {}

    static let words = ["Mac", "iPod", "Café", "Crème", "東京", "Pro", "mini", "Air", "Book", "a", "Zed", "Über"]

    static func randomName(_ random: inout SplitMix64) -> String {
        (0..<Int.random(in: 1...3, using: &random)).map { _ in words.randomElement(using: &random)! }.joined(separator: " ")
            + " " + String(Int.random(in: 0...999, using: &random))
    }

    static func randomRequest(_ random: inout SplitMix64) -> ListRequest<Product> {
        ListRequest(
            scope: [nil, nil, ProductType.device, .desktop].randomElement(using: &random)!,
            sort: [SortField.name, .year, .price].randomElement(using: &random)!,
            isReversed: Bool.random(using: &random),
            searchText: ["", "", "a", "mac", "cafe", "東", "1", "pro 2"].randomElement(using: &random)!)
    }

    /// One random write: an insert, a rename, a retype, a reprice or a delete, in SQL both engines read.
    static func randomWrite(_ db: some SQLConnection, _ store: CatalogStore, _ random: inout SplitMix64) throws {
        let ids = try db.fetchAll(sql: "SELECT id FROM products ORDER BY id") { try $0.decode(Int64.self, at: 0) }
        let choice = ids.isEmpty ? 0 : Int.random(in: 0..<6, using: &random)
        switch choice {
        case 0, 1:
            let product = Product(
                type: ProductType.allCases.randomElement(using: &random)!, name: randomName(&random),
                yearIntroduced: Int.random(in: 2000...2005, using: &random), introPrice: Double(Int.random(in: 1...5, using: &random)))
            try db.execute(
                sql: "INSERT INTO products(\(Product.columnNames.joined(separator: ", "))) VALUES (?, ?, ?, ?, ?) ON CONFLICT(name) DO NOTHING",
                values: product.persistedValues)
        case 2:
            // A rename to a name another product has changes nothing (SQLite's UPDATE OR IGNORE).
            let name = randomName(&random)
            try db.execute(
                sql: "UPDATE products SET name = ?, name_folded = ? WHERE id = ? AND NOT EXISTS (SELECT 1 FROM products WHERE name = ?)",
                values: [.text(name), .text(TextFolding.fold(name)), .integer(ids.randomElement(using: &random)!), .text(name)])
        case 3:
            try db.execute(
                sql: "UPDATE products SET type = ? WHERE id = ?",
                values: [ProductType.allCases.randomElement(using: &random)!.databaseValue, .integer(ids.randomElement(using: &random)!)])
        case 4:
            try db.execute(
                sql: "UPDATE products SET intro_price = ?, year_introduced = ? WHERE id = ?",
                values: [
                    .real(Double(Int.random(in: 1...5, using: &random))), .integer(Int64(Int.random(in: 2000...2005, using: &random))),
                    .integer(ids.randomElement(using: &random)!),
                ])
        default:
            try db.execute(sql: "DELETE FROM products WHERE id = ?", values: [.integer(ids.randomElement(using: &random)!)])
        }
    }

    /// The result of `request` fetched afresh, as sections of ids.
    static func freshSnapshot<Entity: CatalogEntity>(_ store: CatalogStore, _ request: ListRequest<Entity>) throws -> (ResultSnapshot, [FetchedSection]) {
        let controller = try store.fetchedResults(request, batchSize: 10)
        return (try controller.snapshot(), controller.sections)
    }

    /// 80 histories on SQLite; 16 on PostgreSQL, whose every read waits for the replica to replay the
    /// last write (a round trip or more each), so that the suite stays a small part of CI's time.
    static let histories = seeds(sqlite: 80, postgreSQL: 16)

    /// `sqlite` seeds on SQLite and `postgreSQL` on PostgreSQL, as a test's arguments.
    static func seeds(sqlite: Int, postgreSQL: Int) -> [(StoreEngine, UInt64)] {
        StoreEngine.all.flatMap { engine in (0..<(engine == .sqlite ? sqlite : postgreSQL)).map { (engine, UInt64($0)) } }
    }

    /// A catalog on a store of `engine` the test made, with what keeps that store.
    static func catalog(_ engine: StoreEngine) throws -> (CatalogStore, TestStore) {
        let test = try engine.makeStore()
        return (try CatalogStore(writer: test.writer), test)
    }

    @Test(arguments: histories)
    func changeSetsRebuildAFreshFetch(engine: StoreEngine, seed: UInt64) throws {
        // A file opened as the catalog opens it (a pool), or a schema on the test servers.
        let directory = try TemporaryDirectory()
        let server = engine == .postgreSQL ? try engine.makeStore() : nil
        let store = try server.map { try CatalogStore(writer: $0.writer) } ?? CatalogStore(path: directory.path())
        var random = SplitMix64(seed: seed &+ 1000)
        try store.writer.write { db in
            for _ in 0..<Int.random(in: 0...25, using: &random) { try Self.randomWrite(db, store, &random) }
        }
        let request = Self.randomRequest(&random)
        let controller = try store.trackedResults(request, batchSize: 7)
        var previous = try #require(controller.trackedSnapshot)
        #expect(previous == (try Self.freshSnapshot(store, request).0))

        for step in 0..<30 {
            // A few commits, some rolled back, some with several writes.
            for _ in 0..<Int.random(in: 1...3, using: &random) {
                let rollsBack = Int.random(in: 0..<5, using: &random) == 0
                do {
                    try store.writer.write { db in
                        for _ in 0..<Int.random(in: 1...3, using: &random) { try Self.randomWrite(db, store, &random) }
                        if rollsBack { throw Rollback() }
                    }
                } catch is Rollback {}
            }
            let changeSet = try controller.applyPendingChanges()
            let (fresh, freshSections) = try Self.freshSnapshot(store, request)
            let context = "seed \(seed) step \(step) \(request)"
            #expect(try previous.applying(changeSet) == fresh, "\(context): \(previous) + \(changeSet)")
            #expect(controller.trackedSnapshot == fresh, "\(context)")
            #expect(controller.sections == freshSections, "\(context)")
            if let first = fresh.sections.first?.ids.first {
                #expect(try controller.object(at: ItemPath(section: 0, row: 0)).id == first)
            }
            previous = fresh
        }
        let statistics = try #require(controller.trackingStatistics)
        #expect(statistics.refetches == 0, "no gap, no schema change: every change set is incremental")
    }

    /// A search's fetch reads its whole result in one pass (sections, ids, the change log's position),
    /// and tracking started afterwards reuses that read: it reads nothing, and the commits made between
    /// the fetch and `startTracking()` arrive in the first change set.
    @Test(arguments: seeds(sqlite: 40, postgreSQL: 8))
    func trackingAfterASearchFetchStartsWhereTheFetchStood(engine: StoreEngine, seed: UInt64) throws {
        // The statements are counted by SQLite's trace (PostgreSQL's connection has none).
        let directory = try TemporaryDirectory()
        let statements = Mutex(0)
        var configuration = Configuration()
        configuration.trace = { _ in statements.withLock { $0 += 1 } }
        let server = engine == .postgreSQL ? try engine.makeStore() : nil
        let store = try server.map { try CatalogStore(writer: $0.writer) } ?? CatalogStore(path: directory.path(), configuration: configuration)
        var random = SplitMix64(seed: seed &+ 3000)
        try store.writer.write { db in
            for _ in 0..<Int.random(in: 0...40, using: &random) { try Self.randomWrite(db, store, &random) }
        }
        // Terms of 3+ characters, or a scope: no maintained counts give these sections.
        var request = Self.randomRequest(&random)
        request.searchText = ["mac", "cafe", "pro 2", "book", "a"].randomElement(using: &random)!
        if request.searchText == "a" { request.scope = .desktop }
        let controller = try store.fetchedResults(request, batchSize: 3)
        let (fetched, fetchedSections) = try Self.freshSnapshot(store, request)
        #expect(controller.sections == fetchedSections)
        #expect(try controller.fetchedObjects.map { $0.id } == fetched.sections.flatMap(\.ids))

        try store.writer.write { db in
            for _ in 0..<Int.random(in: 1...4, using: &random) { try Self.randomWrite(db, store, &random) }
        }
        let before = statements.withLock { $0 }
        try controller.startTracking()
        #expect(statements.withLock { $0 } == before, "tracking reuses what the fetch read")
        #expect(controller.trackedSnapshot == fetched)

        let changeSet = try controller.applyPendingChanges()
        let (fresh, freshSections) = try Self.freshSnapshot(store, request)
        let context = "seed \(seed) \(request)"
        #expect(try fetched.applying(changeSet) == fresh, "\(context): \(fetched) + \(changeSet)")
        #expect(controller.trackedSnapshot == fresh, "\(context)")
        #expect(controller.sections == freshSections, "\(context)")
    }

    /// Phones section by initial, maker or year: renames and maker changes move rows across sections.
    @Test(arguments: seeds(sqlite: 30, postgreSQL: 8))
    func phoneChangeSetsRebuildAFreshFetch(engine: StoreEngine, seed: UInt64) throws {
        let (store, kept) = try Self.catalog(engine)
        defer { withExtendedLifetime(kept) {} }
        var random = SplitMix64(seed: seed &+ 5000)
        let makers = ["Apple", "apple", "Sony", "ソニー", "Nokia"]
        func write(_ db: some SQLConnection) throws {
            let ids = try db.fetchAll(sql: "SELECT id FROM phones ORDER BY id") { try $0.decode(Int64.self, at: 0) }
            switch ids.isEmpty ? 0 : Int.random(in: 0..<4, using: &random) {
            case 0:
                let phone = Phone(
                    name: Self.randomName(&random), maker: makers.randomElement(using: &random)!,
                    yearReleased: Int.random(in: 2000...2003, using: &random), operatingSystem: "X", screenInches: 5)
                try db.execute(
                    sql: "INSERT INTO phones(\(Phone.columnNames.joined(separator: ", "))) VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT(name) DO NOTHING",
                    values: phone.persistedValues)
            case 1:
                // A rename to a name another phone has changes nothing (SQLite's UPDATE OR IGNORE).
                let name = Self.randomName(&random)
                try db.execute(
                    sql: "UPDATE phones SET name = ?, name_folded = ? WHERE id = ? AND NOT EXISTS (SELECT 1 FROM phones WHERE name = ?)",
                    values: [.text(name), .text(TextFolding.fold(name)), .integer(ids.randomElement(using: &random)!), .text(name)])
            case 2:
                let maker = makers.randomElement(using: &random)!
                try db.execute(
                    sql: "UPDATE phones SET maker = ?, maker_folded = ?, year_released = ? WHERE id = ?",
                    values: [
                        .text(maker), .text(TextFolding.fold(maker)), .integer(Int64(Int.random(in: 2000...2003, using: &random))),
                        .integer(ids.randomElement(using: &random)!),
                    ])
            default:
                try db.execute(sql: "DELETE FROM phones WHERE id = ?", values: [.integer(ids.randomElement(using: &random)!)])
            }
        }
        try store.writer.write { db in for _ in 0..<15 { try write(db) } }
        let request = ListRequest<Phone>(
            sort: [SortField.name, .maker, .year].randomElement(using: &random)!,
            isReversed: Bool.random(using: &random), searchText: ["", "a", "ソ", "mac 1"].randomElement(using: &random)!)
        let controller = try store.trackedResults(request, batchSize: 5)
        var previous = try #require(controller.trackedSnapshot)
        for step in 0..<30 {
            try store.writer.write { db in for _ in 0..<Int.random(in: 1...3, using: &random) { try write(db) } }
            let changeSet = try controller.applyPendingChanges()
            let fresh = try store.fetchedResults(request).snapshot()
            #expect(try previous.applying(changeSet) == fresh, "seed \(seed) step \(step) \(request): \(previous) + \(changeSet)")
            #expect(controller.trackedSnapshot == fresh)
            previous = fresh
        }
    }

    @Test(arguments: StoreEngine.all) func aGapInTheLogFallsBackToRefetching(engine: StoreEngine) throws {
        let (store, kept) = try Self.catalog(engine)
        defer { withExtendedLifetime(kept) {} }
        try store.seed(SeedFile.builtIn)
        let controller = try store.trackedResults(ListRequest<Product>())
        let before = try #require(controller.trackedSnapshot)
        try store.insert(Product(type: .desktop, name: "Mac mini", yearIntroduced: 2005, introPrice: 499))
        if let cluster = store.writer as? PostgreSQLCluster {
            try cluster.write { db in _ = try PostgreSQLChangeLog.prune(keepingLatest: 0, db) }
        } else {
            try store.file!.write { db in _ = try ChangeLog.prune(keepingLatest: 0, db) }
        }
        let changeSet = try controller.applyPendingChanges()
        #expect(controller.trackingStatistics?.refetches == 1)
        #expect(try before.applying(changeSet) == (try Self.freshSnapshot(store, ListRequest<Product>()).0))
        #expect(changeSet.changes.contains { if case .insert = $0 { true } else { false } })
    }

    final class Recorder: FetchedResultsControllerDelegate {
        var events: [String] = []
        func controllerWillChangeContent() { events.append("will") }
        func controllerDidChangeSection(_ section: ChangeSet.SectionChange, isInsertion: Bool) {
            events.append("\(isInsertion ? "insert" : "delete") section \(section.name)")
        }
        func controllerDidChangeObject(_ change: ChangeSet.Change) { events.append("\(change)") }
        func controllerDidChangeContent(_ changeSet: ChangeSet) { events.append("did") }
    }

    @Test(arguments: StoreEngine.all) func theDelegateHearsCoreDataOrder(engine: StoreEngine) throws {
        let (store, kept) = try Self.catalog(engine)
        defer { withExtendedLifetime(kept) {} }
        try store.seed(SeedFile.builtIn)
        let controller = try store.trackedResults(ListRequest<Product>(scope: .portable))
        let recorder = Recorder()
        controller.delegate = recorder
        let air = try #require(try store.fetchAll(Product.self).first { $0.name == "MacBook Air" })
        try store.writer.write { db in
            try db.execute(sql: "UPDATE products SET type = 'desktop' WHERE id = ?", values: [.integer(air.id!)])
            try db.execute(sql: "UPDATE products SET intro_price = 1 WHERE name = 'MacBook Pro'", values: [])
        }
        let changeSet = try controller.applyPendingChanges()
        #expect(recorder.events == [
            "will",
            "delete \(air.id!) at 0.0",
            "update \(air.id! + 1) 0.1 → 0.0",
            "did",
        ])
        #expect(changeSet.changes.count == 2)
        #expect(try controller.object(at: ItemPath(section: 0, row: 0)).introPrice == 1)

        try store.writer.write { db in try db.execute(sql: "DELETE FROM products WHERE type = 'portable'", values: []) }
        recorder.events = []
        try controller.applyPendingChanges()
        #expect(recorder.events == ["will", "delete section Portable", "delete \(air.id! + 1) at 0.0", "did"])
        #expect(controller.sections.isEmpty)
    }

    /// A commit of another store on the same database (a second process's) arrives as a change set:
    /// woken by SQLite's file monitor, or by the primary's notifications.
    @Test(arguments: StoreEngine.all) func theSequenceDeliversChangesFromAnotherConnection(engine: StoreEngine) async throws {
        let (store, kept) = try Self.catalog(engine)
        try store.seed(SeedFile.builtIn)
        let controller = try store.trackedResults(ListRequest<Product>(scope: .device))
        let writer = try CatalogStore(writer: kept.openAgain())
        try await writer.insert(Product(type: .device, name: "iPhone 16", yearIntroduced: 2024, introPrice: 799))
        let changeSet: ChangeSet?
        if let cluster = store.writer as? PostgreSQLCluster {
            var iterator = controller.changeSets(from: cluster.changeNotifications()).makeAsyncIterator()
            changeSet = try await iterator.next()
        } else {
            let monitor = try ChangeMonitor(path: try #require(store.file).path)
            defer { monitor.stop() }
            var iterator = controller.changeSets(from: monitor).makeAsyncIterator()
            changeSet = try await iterator.next()
        }
        #expect(try #require(changeSet).changes.count == 1)
        #expect(controller.sections.map(\.numberOfObjects) == [6])
    }
}
