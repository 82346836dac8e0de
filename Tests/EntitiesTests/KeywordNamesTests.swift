import Entities
import FetchedResults
import Foundation
import RecordFormats
import SQLiteStore
import Testing
import TestSupport
import TextSearch

/// A parent whose one attribute is named after an SQL keyword.
struct Stage: DeclaredEntity, Hashable {
    var id: Int64?
    var choice: String

    static let declaration = EntityDeclaration<Stage>(
        table: "stages", template: Stage(choice: ""), folding: TextFolding.fold,
        attributes: [.text("select", \.choice, unique: true)])
}

/// An entity whose every attribute is named after an SQL keyword (so are its columns): sorted,
/// sectioned, searched, indexed, unique and a reference among them.
struct Slot: SearchableEntity, Hashable {
    var id: Int64?
    var position: Int
    var band: String
    var origin: String
    var target: Int
    var isDefault: Bool
    var amounts: String?
    var moment: Date?
    var rank: Int
    var stageID: Int64

    static let declaration = EntityDeclaration<Slot>(
        table: "slots",
        template: Slot(position: 0, band: "", origin: "", target: 0, isDefault: false, rank: 0, stageID: 0),
        folding: TextFolding.fold,
        attributes: [
            .value("order", \.position, sqlCheck: #""order" >= 0"#),
            .text("group", \.band, folded: true),
            .text("from", \.origin, folded: true, searched: true, sections: .initial),
            .value("to", \.target, searchedAsNumber: true),
            .value("default", \.isDefault, default: false),
            .value("values", \.amounts),
            .value("when", \.moment),
            .value("index", \.rank, unique: true),
            .reference("user", \.stageID, to: Stage.self, onDelete: .cascade),
        ],
        indexes: [EntityIndex(\.band, \.position, sectionedBy: \.band)])

    static let searchDescription = declaration.searchDescription(indexesShortTerms: false)
}

/// Declared entities whose attributes are named after SQL keywords work on both engines as any
/// other: the schema, writes, fetches, live change sets, files and search.
struct KeywordNamesTests {
    static let schema = EntitySchema(
        identity: "org.example.keywords", tables: [EntityTable(Stage.self), EntityTable(Slot.self)],
        changes: [.addingIndexes(of: Slot.self, version: 2)])

    static func store(_ engine: StoreEngine) throws -> TestStore {
        let store = try engine.makeStore()
        try schema.migrate(store.writer)
        return store
    }

    static func slots(stage: Int64) -> [Slot] {
        let bands = ["Low", "high", "Mid"]
        let origins = ["north gate", "south pier", "east yard"]
        return (0..<12).map { (index: Int) -> Slot in
            let amounts: String? = index % 5 == 0 ? nil : "v\(index)"
            let moment: Date? = index % 3 == 0 ? nil : Date(timeIntervalSince1970: Double(index) * 60)
            return Slot(
                position: 12 - index, band: bands[index % 3], origin: origins[index % 3] + " \(index)", target: index % 4,
                isDefault: index % 2 == 0, amounts: amounts, moment: moment, rank: index, stageID: stage)
        }
    }

    /// A store with two stages and the slots of the first.
    static func filled(_ engine: StoreEngine) throws -> (TestStore, [Slot]) {
        let store = try store(engine)
        var slots: [Slot] = []
        try store.writer.write { db in
            var stage = Stage(choice: "first")
            try stage.insert(db)
            var other = Stage(choice: "second")
            try other.insert(db)
            for var slot in Self.slots(stage: stage.id!) {
                try slot.insert(db)
                slots.append(slot)
            }
        }
        return (store, slots)
    }

    @Test(arguments: StoreEngine.all) func migratingTwiceAndWritingWork(engine: StoreEngine) throws {
        let (store, slots) = try Self.filled(engine)
        #expect(try Self.schema.migrate(store.writer).isEmpty)
        try store.writer.write { db in
            var changed = slots[0]
            changed.origin = "west dock"
            changed.target = 3
            try changed.update(db)
            _ = try Slot.delete(id: slots[1].id!, db)
        }
        let read = try store.writer.read { db in try Slot.fetchAll(db) }
        var expected = slots
        expected[0].origin = "west dock"
        expected[0].target = 3
        expected.remove(at: 1)
        #expect(read == expected)
        // The unique index refuses a second slot of the same index.
        #expect(throws: (any Error).self) {
            try store.writer.write { db in var copy = slots[2]; copy.id = nil; try copy.insert(db) }
        }
        // Deleting the stage deletes its slots by the reference.
        try store.writer.write { db in _ = try Stage.delete(id: slots[0].stageID, db) }
        #expect(try store.writer.read { db in try Slot.fetchCount(db) } == 0)
    }

    @Test(arguments: StoreEngine.all) func fetchesSortSectionAndFilterByKeywordColumns(engine: StoreEngine) throws {
        let (store, slots) = try Self.filled(engine)
        let request = FetchRequest<Slot>(
            predicate: #Predicate { $0.target >= 1 && $0.isDefault == false },
            sortDescriptors: [SortDescriptor(\.position)], sectionKeyPath: \Slot.band)
        let controller = FetchedResultsController(request: request, reader: store.writer)
        try controller.performFetch()
        let kept = slots.filter { (slot: Slot) in slot.target >= 1 && !slot.isDefault }
        let bands = Set(kept.map { (slot: Slot) in slot.band }).sorted { (a: String, b: String) in a.lowercased() < b.lowercased() }
        #expect(controller.sections.map(\.name) == bands)
        for (index, band) in bands.enumerated() {
            let expected = kept.filter { (slot: Slot) in slot.band == band }.sorted { (a: Slot, b: Slot) in a.position < b.position }
            #expect(try controller.objects(inSection: index) == expected)
        }
        let bySearchedText = FetchedResultsController(
            request: FetchRequest<Slot>(sortDescriptors: [SortDescriptor(\.moment, order: .reverse)], sectionKeyPath: \Slot.origin),
            reader: store.writer)
        try bySearchedText.performFetch()
        #expect(bySearchedText.sections.map { (section: FetchedSection) in section.name } == ["E", "N", "S"])
        #expect(try store.writer.read { db in try SectionCounts.problems(db) } == [])
    }

    @Test(arguments: StoreEngine.all) func aLiveControllerFollowsWrites(engine: StoreEngine) throws {
        let (store, slots) = try Self.filled(engine)
        let request = FetchRequest<Slot>(sortDescriptors: [SortDescriptor(\.position)], sectionKeyPath: \Slot.band)
        let controller = FetchedResultsController(request: request, reader: store.writer)
        try controller.performFetch()
        try controller.startTracking()
        let writes: [(any SQLConnection) throws -> Void] = [
            { db in var slot = slots[3]; slot.band = "Low"; slot.position = 40; try slot.update(db) },
            { db in _ = try Slot.delete(id: slots[4].id!, db) },
            { db in var slot = Slot(position: 7, band: "New", origin: "pier", target: 1, isDefault: true, rank: 99, stageID: slots[0].stageID); try slot.insert(db) },
        ]
        for write in writes {
            let before = try #require(controller.trackedSnapshot)
            try store.writer.write { db in try write(db) }
            let applied = try before.applying(try controller.applyPendingChanges())
            let fresh = FetchedResultsController(request: request, reader: store.writer)
            try fresh.performFetch()
            #expect(applied == (try fresh.snapshot()))
        }
        #expect(try store.writer.read { db in try SectionCounts.problems(db) } == [])
    }

    @Test(arguments: StoreEngine.all) func filesOutAndIn(engine: StoreEngine) throws {
        let (store, _) = try Self.filled(engine)
        let directory = try TemporaryDirectory()
        let before = try store.writer.read { db in (try Stage.fetchAll(db), try Slot.fetchAll(db)) }
        let copy = try Self.store(engine)
        for format in DataFormat.allCases {
            let (stages, slots) = (directory.path("stages.\(format.rawValue)"), directory.path("slots.\(format.rawValue)"))
            #expect(try Stage.exportFile(stages, from: store.writer) == 2)
            #expect(try Slot.exportFile(slots, from: store.writer) == 12)
            try copy.writer.write { db in _ = try db.execute(sql: "DELETE FROM stages", values: []) }
            #expect(try Stage.importFile(stages, keepingIDs: true, into: copy.writer) == ImportReport(inserted: 2))
            #expect(try Slot.importFile(slots, keepingIDs: true, into: copy.writer) == ImportReport(inserted: 12))
            let after = try copy.writer.read { db in (try Stage.fetchAll(db), try Slot.fetchAll(db)) }
            #expect(after.0 == before.0 && after.1 == before.1, "\(format)")
            // Imported again without ids, each slot is updated by its unique index.
            #expect(try Slot.importFile(slots, into: copy.writer) == ImportReport(updated: 12), "\(format)")
        }
    }

    @Test(arguments: StoreEngine.all) func searchFindsByTheKeywordColumns(engine: StoreEngine) throws {
        let (store, slots) = try Self.filled(engine)
        try store.writer.write { db in var slot = slots[0]; slot.origin = "harbour light"; try slot.update(db) }
        // A text in `from`, a number in `to`: `3` matches the slots whose `to` is 3 or whose `from` holds it.
        let searches = [
            ("north", slots.filter { $0.origin.hasPrefix("north") && $0.id != slots[0].id }),
            ("harbo", [slots[0]]),
            ("3", slots.filter { $0.target == 3 || ($0.origin.contains("3") && $0.id != slots[0].id) }),
        ]
        for (text, expected) in searches {
            let controller = FetchedResultsController(
                request: FetchRequest<Slot>(sortDescriptors: [SortDescriptor(\.position)], searchText: text), reader: store.writer)
            try controller.performFetch()
            #expect(try controller.fetchedObjects.map(\.id) == expected.sorted { $0.position < $1.position }.map(\.id), "\(text)")
        }
    }
}
