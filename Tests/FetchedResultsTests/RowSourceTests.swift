import FetchedResults
import Foundation
import SQLiteStore
import Testing
import TestSupport

/// The controller reads through ``RowSource`` alone: a source that counts its own sections and reads
/// its own pages, whatever it chooses to read first, gives the same result as the plain predicate, on
/// each engine.
struct RowSourceTests {
    /// Items with a score of at least `minimum`, counted and paged by its own SQL.
    struct HighScores: RowSource {
        typealias Entity = Item
        var minimum: Int
        var read: FirstRead

        func condition(_ db: any SQLConnection) throws -> SQLFragment {
            SQLFragment(sql: "score >= ?", arguments: [minimum])
        }

        func sectionCounts(_ sections: SectionGrouping<Item>, _ db: any SQLConnection) throws -> SectionMatches? {
            let expression = Item.column(for: sections.keyPath)!.sectionExpression
            var counts: [DatabaseValue: Int] = [:]
            var ids: [DatabaseValue: [Int64]] = [:]
            try db.forEachRow(sql: "SELECT \(expression), id FROM items WHERE score >= ?", arguments: [minimum]) { row in
                let key = row.databaseValue(at: 0)
                counts[key, default: 0] += 1
                ids[key, default: []].append(try row.decode(Int64.self, at: 1))
            }
            return SectionMatches(counts: counts, ids: ids)
        }

        func page(_ page: SectionPage<Item>, _ db: any SQLConnection) throws -> [Item]? {
            var condition = try self.condition(db)
            if let section = page.section {
                condition = condition && SQLFragment(sql: "\(Item.column(for: section.keyPath)!.sectionExpression) = ?", arguments: [section.key])
            }
            return try db.fetchAll(
                sql: "SELECT \(Item.selection) FROM items WHERE \(condition.sql) ORDER BY \(page.order.sql) LIMIT ? OFFSET ?",
                arguments: condition.arguments + page.order.arguments + [page.limit, page.offset], Item.init(row:))
        }

        func firstRead(_ counts: SectionMatches?, batchSize: Int) -> FirstRead { read }
    }

    @Test(arguments: StoreEngine.all, [FirstRead.sections, .firstBatch, .wholeSections, .onePass].flatMap { read in [1, 3, 0].map { (read, $0) } })
    func aSourceReadsWhatThePredicateReads(engine: StoreEngine, reading: (read: FirstRead, batchSize: Int)) throws {
        let (read, batchSize) = reading
        let database = try ItemDatabase(engine: engine)
        try database.insert(ItemDatabase.randomItems(120, seed: 0x5EA7))
        let sort: [FetchedResults.SortDescriptor<Item>] = [SortDescriptor(\.name), SortDescriptor(\.score, order: .reverse)]
        let plain = FetchedResultsController(
            request: FetchRequest(
                predicate: #Predicate { $0.score >= 2 }, sortDescriptors: sort, sectionKeyPath: \Item.name, batchSize: batchSize),
            reader: database.writer)
        let sourced = FetchedResultsController(
            request: FetchRequest(
                sortDescriptors: sort, filter: HighScores(minimum: 2, read: read), sectionKeyPath: \Item.name,
                batchSize: batchSize),
            reader: database.writer)
        try plain.performFetch()
        try sourced.performFetch()
        #expect(sourced.sections == plain.sections)
        #expect(try sourced.fetchedObjects == plain.fetchedObjects)
        for item in try plain.fetchedObjects.prefix(10) {
            #expect(try sourced.indexPath(for: item) == plain.indexPath(for: item))
        }
        #expect(try sourced.snapshot() == plain.snapshot())
    }

    /// Items with a score of at least `minimum`, a source that gives no counts: its sections are
    /// counted by a `GROUP BY`, or, streamed uncounted, found as its rows come.
    struct UncountedScores: RowSource {
        typealias Entity = Item
        var minimum: Int

        func condition(_ db: any SQLConnection) throws -> SQLFragment {
            SQLFragment(sql: "score >= ?", arguments: [minimum])
        }
    }

    /// A whole result streamed with each row's section name (`forEachObject(_:)`), of a source that
    /// gives no counts: read in one query, the same rows at the same paths in the same sections as
    /// the plain predicate's, and the same sections afterwards, whatever the batch size, in orders
    /// with descending sections, ties and NULL section keys; an empty result reads no section.
    @Test(arguments: StoreEngine.all) func anUncountedStreamFindsTheSectionsOfItsRows(engine: StoreEngine) throws {
        let database = try ItemDatabase(engine: engine)
        try database.insert(ItemDatabase.randomItems(60, seed: 0x0C0_7ED))
        let cases: [(FetchedResults.SortDescriptor<Item>, PartialKeyPath<Item> & Sendable)] = [
            (SortDescriptor(\.name), \Item.name), (SortDescriptor(\.name, order: .reverse), \Item.name),
            (SortDescriptor(\.nick), \Item.nick), (SortDescriptor(\.nick, order: .reverse), \Item.nick),
        ]
        for (sort, sectionKeyPath) in cases {
            for minimum in [0, 2, 1_000] {
                let plain = FetchedResultsController(
                    request: FetchRequest(
                        predicate: #Predicate { $0.score >= minimum }, sortDescriptors: [sort], sectionKeyPath: sectionKeyPath),
                    reader: database.writer)
                try plain.performFetch()
                var expected: [(ItemPath, String, Item)] = []
                for (section, info) in plain.sections.enumerated() {
                    for row in 0..<info.numberOfObjects {
                        let path = ItemPath(section: section, row: row)
                        expected.append((path, info.name, try plain.object(at: path)))
                    }
                }
                for batchSize in [0, 1, 50] {
                    let streamed = FetchedResultsController(
                        request: FetchRequest(
                            sortDescriptors: [sort], filter: UncountedScores(minimum: minimum), sectionKeyPath: sectionKeyPath,
                            batchSize: batchSize),
                        reader: database.writer)
                    var rows: [(ItemPath, String, Item)] = []
                    try streamed.forEachObject { path, section, item in rows.append((path, section, item)) }
                    let context = "\(sort) \(minimum) \(batchSize)"
                    #expect(rows.map(\.0) == expected.map(\.0), "\(context)")
                    #expect(rows.map(\.1) == expected.map(\.1), "\(context)")
                    #expect(rows.map(\.2) == expected.map(\.2), "\(context)")
                    #expect(streamed.sections == plain.sections, "\(context)")
                }
            }
        }
    }

    /// A whole result streamed (`forEachObject`), its first `batchSize` rows read as the source's pages
    /// and the rest in one query from the last of them: the same rows at the same paths as the plain
    /// predicate's, wherever the first rows end (within a section, at a section's end, past the result),
    /// in orders with descending terms, ties and NULLs.
    @Test(arguments: StoreEngine.all) func aStreamedResultGoesOnFromTheSourcesPages(engine: StoreEngine) throws {
        let database = try ItemDatabase(engine: engine)
        try database.insert(ItemDatabase.randomItems(60, seed: 0x57EA))
        let orders: [[FetchedResults.SortDescriptor<Item>]] = [
            [SortDescriptor(\.name), SortDescriptor(\.score, order: .reverse)],
            [SortDescriptor(\.nick)],
            [SortDescriptor(\.nick, order: .reverse), SortDescriptor(\.price)],
        ]
        for sort in orders {
            let plain = FetchedResultsController(
                request: FetchRequest(predicate: #Predicate { $0.score >= 0 }, sortDescriptors: sort, sectionKeyPath: \Item.name),
                reader: database.writer)
            try plain.performFetch()
            var expected: [(ItemPath, Item)] = []
            for (section, info) in plain.sections.enumerated() {
                for row in 0..<info.numberOfObjects {
                    expected.append((ItemPath(section: section, row: row), try plain.object(at: ItemPath(section: section, row: row))))
                }
            }
            for batchSize in 0...(expected.count + 1) {
                let streamed = FetchedResultsController(
                    request: FetchRequest(
                        sortDescriptors: sort, filter: HighScores(minimum: 0, read: .sections), sectionKeyPath: \Item.name,
                        batchSize: batchSize),
                    reader: database.writer)
                var sections: [FetchedSection] = []
                var rows: [(ItemPath, Item)] = []
                try streamed.forEachObject(sectionsRead: { sections = $0 }) { path, item in rows.append((path, item)) }
                #expect(sections == plain.sections, "\(sort) \(batchSize)")
                #expect(rows.map(\.0) == expected.map(\.0), "\(sort) \(batchSize)")
                #expect(rows.map(\.1) == expected.map(\.1), "\(sort) \(batchSize)")
            }
        }
    }
}
