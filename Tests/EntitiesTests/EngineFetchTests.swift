import Entities
import FetchedResults
import Foundation
import PostgreSQLStore
import SQLiteStore
import Testing
import TestSupport

/// Fetch requests (`#Predicate`, sort descriptors, sections, batches, limits) and the fetched-results
/// controller over the same declared entity on both engines, each result checked against the same
/// result computed in Swift from the documented order: a folded text by its folded UTF-8 bytes, NULL
/// before every value ascending (after descending), the id ascending last; sections by the
/// section key in that order, a folded text's by its folded text then its stored value.
struct EngineFetchTests {
    /// Random jars: labels in several scripts and cases, three shelves spelled in two cases, some
    /// without an opening date.
    static func jars(seed: UInt64) -> [Jar] {
        var random = SplitMix64(seed: seed)
        let words = ["honey", "Honey", "親子丼", "Crème", "crème", "apple", "Äpfel", "zest", "Salt", "salt", "éclair", "Oat"]
        let shelves = ["Top", "top", "Low", "Middle"]
        return (0..<60).map { index in
            Jar(label: "\(words[Int(random.next() % UInt64(words.count))]) \(index)", shelf: shelves[Int(random.next() % 4)],
                grams: Int(random.next() % 100), sealed: random.next() % 2 == 0,
                opened: random.next() % 3 == 0 ? nil : Date(timeIntervalSince1970: Double(random.next() % 1_000) * 3600))
        }
    }

    static func bytes(_ text: String) -> [UInt8] { Array(text.utf8) }

    /// `a` before `b` by the label's folded bytes, then the id.
    static func byLabel(_ a: Jar, _ b: Jar) -> Bool {
        let (x, y) = (bytes(a.label.lowercased()), bytes(b.label.lowercased()))
        return x != y ? x.lexicographicallyPrecedes(y) : a.id! < b.id!
    }

    func filled(_ engine: StoreEngine) throws -> (TestStore, [Jar]) {
        let store = try engine.makeStore()
        try Pantry.now.migrate(store.writer)
        var jars = Self.jars(seed: 34)
        try store.writer.write { db in
            for index in jars.indices { try jars[index].insert(db) }
        }
        return (store, jars)
    }

    @Test(arguments: StoreEngine.all) func sectionsByAFoldedTextInTheDocumentedOrder(engine: StoreEngine) throws {
        let (store, jars) = try filled(engine)
        let controller = FetchedResultsController(
            request: FetchRequest<Jar>(sortDescriptors: [SortDescriptor(\.label)], sectionKeyPath: \Jar.shelf), reader: store.writer)
        try controller.performFetch()
        // Sections by folded shelf, then stored shelf; rows by folded label, then id.
        let shelves = Set(jars.map(\.shelf)).sorted { a, b in
            let (x, y) = (Self.bytes(a.lowercased()), Self.bytes(b.lowercased()))
            return x != y ? x.lexicographicallyPrecedes(y) : Self.bytes(a).lexicographicallyPrecedes(Self.bytes(b))
        }
        #expect(controller.sections.map(\.name) == shelves)
        for (index, shelf) in shelves.enumerated() {
            #expect(try controller.objects(inSection: index) == jars.filter { $0.shelf == shelf }.sorted(by: Self.byLabel))
        }
    }

    /// `performFetch()` reads the first batch with the sections' counts, in one read: the first rows
    /// shown are those of the snapshot that counted them, whatever commits after it (W5).
    @Test(arguments: StoreEngine.all) func theCountsAndTheFirstBatchComeFromOneSnapshot(engine: StoreEngine) throws {
        let (store, jars) = try filled(engine)
        let controller = FetchedResultsController(
            request: FetchRequest<Jar>(sortDescriptors: [SortDescriptor(\.label)], sectionKeyPath: \Jar.shelf, batchSize: 5),
            reader: store.writer)
        try controller.performFetch()
        let shelf = try #require(controller.sections.first?.name)
        let first = Array(jars.filter { $0.shelf == shelf }.sorted(by: Self.byLabel).prefix(5))
        try store.writer.write { db in _ = try Jar.delete(id: first[0].id!, db) }
        #expect(try (0..<5).map { try controller.object(at: ItemPath(section: 0, row: $0)) } == first)
    }

    /// A controller on a new cluster reads its counts and first batch on one connection of the
    /// primary, not the writer's and a reader's (W5 on PostgreSQL). PostgreSQL-only: a cluster's.
    @Test func aControllerOnANewClusterReadsOnOneConnection() throws {
        guard StoreEngine.all.contains(.postgreSQL) else { return }
        let schema = try TestSchema()
        let name = "w5_" + String(UInt64.random(in: 0...UInt64.max))
        let cluster = try PostgreSQLCluster(PostgreSQLConfiguration(primary: schema.primary + "&application_name=" + name))
        defer { cluster.close() }
        let setUp = try PostgreSQLCluster(PostgreSQLConfiguration(primary: schema.primary))
        try Pantry.now.migrate(setUp)
        try setUp.write { db in
            for var jar in Self.jars(seed: 34) { try jar.insert(db) }
        }
        setUp.close()
        let controller = FetchedResultsController(
            request: FetchRequest<Jar>(sortDescriptors: [SortDescriptor(\.label)], sectionKeyPath: \Jar.shelf, batchSize: 5), reader: cluster)
        try controller.performFetch()
        _ = try (0..<5).map { try controller.object(at: ItemPath(section: 0, row: $0)) }
        let observer = try schema.connect()
        let connections = try observer.scalar(sql: "SELECT count(*) FROM pg_stat_activity WHERE application_name = $1", arguments: [.text(name)])
        #expect(connections == .integer(1))
    }

    @Test(arguments: StoreEngine.all) func aPredicateAndADescendingOptionalSortInBatches(engine: StoreEngine) async throws {
        let (store, jars) = try filled(engine)
        var request = FetchRequest<Jar>(
            predicate: #Predicate { $0.grams >= 30 && $0.label.contains("e") && $0.shelf != "Low" },
            sortDescriptors: [SortDescriptor(\.opened, order: .reverse), SortDescriptor(\.grams)])
        request.batchSize = 7
        let controller = FetchedResultsController(request: request, reader: store.writer)
        try await controller.performFetch()
        // Descending: NULL after every date; then grams ascending, then the id.
        let expected = jars.filter { $0.grams >= 30 && $0.label.contains("e") && $0.shelf != "Low" }.sorted { a, b in
            switch (a.opened, b.opened) {
            case let (x?, y?) where x != y: return x > y
            case (nil, _?): return false
            case (_?, nil): return true
            default: return a.grams != b.grams ? a.grams < b.grams : a.id! < b.id!
            }
        }
        #expect(controller.numberOfObjects == expected.count)
        // Every row read by its index path, batch by batch (keyset pagination), then backwards.
        var read: [Jar] = []
        for row in 0..<controller.numberOfObjects { read.append(try await controller.object(at: ItemPath(section: 0, row: row))) }
        #expect(read == expected)
        var backwards: [Jar] = []
        for row in (0..<controller.numberOfObjects).reversed() { backwards.append(try await controller.object(at: ItemPath(section: 0, row: row))) }
        #expect(backwards == expected.reversed())
    }

    @Test(arguments: StoreEngine.all) func aLimitAndOffsetAndAnIDListAndNil(engine: StoreEngine) throws {
        let (store, jars) = try filled(engine)
        let ids: [Int64?] = jars.prefix(20).map(\.id)
        var request = FetchRequest<Jar>(
            predicate: #Predicate { ids.contains($0.id) && ($0.opened == nil || $0.sealed == true) },
            sortDescriptors: [SortDescriptor(\.label)])
        request.fetchLimit = 5
        request.fetchOffset = 2
        let controller = FetchedResultsController(request: request, reader: store.writer)
        try controller.performFetch()
        let expected = jars.prefix(20).filter { $0.opened == nil || $0.sealed }.sorted(by: Self.byLabel).dropFirst(2).prefix(5)
        #expect(try controller.fetchedObjects == Array(expected))
        // The whole result streamed, as a listing reads it.
        var streamed: [Jar] = []
        try controller.forEachObject(sectionsRead: { _ in }) { _, jar in streamed.append(jar) }
        #expect(streamed == Array(expected))
    }

    /// Model-based: after random writes, the change set applied to the tracked result before them is
    /// the result a fresh controller reads (SQLite's change log, PostgreSQL's snapshot-read log).
    @Test(arguments: StoreEngine.all) func liveChangeSetsFollowRandomWrites(engine: StoreEngine) throws {
        let (store, jars) = try filled(engine)
        let request = FetchRequest<Jar>(
            predicate: #Predicate { $0.grams >= 20 }, sortDescriptors: [SortDescriptor(\.label)], sectionKeyPath: \Jar.shelf)
        let controller = FetchedResultsController(request: request, reader: store.writer)
        try controller.performFetch()
        try controller.startTracking()
        var random = SplitMix64(seed: 35)
        var ids = jars.compactMap(\.id)
        var made = 0
        for _ in 0..<12 {
            let before = try #require(controller.trackedSnapshot)
            try store.writer.write { db in
                for _ in 0..<(1 + random.next() % 5) {
                    let shelf = ["Top", "Low", "Fresh"][Int(random.next() % 3)]
                    switch random.next() % 3 {
                    case 0:
                        made += 1
                        var jar = Jar(label: "new \(made)", shelf: shelf, grams: Int(random.next() % 60))
                        try jar.insert(db)
                        ids.append(jar.id!)
                    case 1:
                        guard var jar = try Jar.fetchOne(id: ids[Int(random.next() % UInt64(ids.count))], db) else { continue }
                        jar.grams = Int(random.next() % 60)
                        jar.shelf = shelf
                        try jar.update(db)
                    default:
                        let id = ids.remove(at: Int(random.next() % UInt64(ids.count)))
                        try Jar.delete(id: id, db)
                    }
                }
            }
            let change = try controller.applyPendingChanges()
            let fresh = FetchedResultsController(request: request, reader: store.writer)
            try fresh.performFetch()
            #expect(try before.applying(change) == fresh.snapshot())
            #expect(controller.trackedSnapshot == (try fresh.snapshot()))
        }
        #expect(try controller.fetchedObjects == (try FetchedResultsController(request: request, reader: store.writer).fetchedObjectsAfterFetch()))
    }
}

/// A tag, whose table logs no changes.
struct Tag: DeclaredEntity, Hashable {
    var id: Int64?
    var name: String

    static let declaration = EntityDeclaration<Tag>(
        table: "tags", template: Tag(name: ""), folding: { $0 }, attributes: [.text("name", \.name)], tracksChanges: false)
}

extension EngineFetchTests {
    @Test(arguments: StoreEngine.all) func trackingATableWithoutTheLogFailsAndLeavesTheStoreUsable(engine: StoreEngine) throws {
        let store = try engine.makeStore()
        try EntitySchema(identity: "org.example.tags", tables: [EntityTable(Tag.self)]).migrate(store.writer)
        var tag = Tag(name: "b")
        try store.writer.write { db in try tag.insert(db) }
        let controller = FetchedResultsController(request: FetchRequest<Tag>(sortDescriptors: [SortDescriptor(\.name)]), reader: store.writer)
        #expect(throws: (any Error).self) { try controller.startTracking() }
        try controller.performFetch()
        #expect(try controller.fetchedObjects == [tag])
    }
}

extension FetchedResultsController {
    /// The objects of a fetch made now.
    func fetchedObjectsAfterFetch() throws -> [Entity] {
        try performFetch()
        return try fetchedObjects
    }
}
