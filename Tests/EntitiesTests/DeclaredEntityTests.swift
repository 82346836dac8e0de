import Entities
import FetchedResults
import Foundation
import SQLiteStore
import Testing
import TestSupport

/// A declared entity's CRUD, checks and fetch requests, on each engine.
struct DeclaredEntityTests {
    @Test func columnsFollowTheDeclaration() {
        #expect(Note.declaration.storedColumns == ["title", "title_folded", "kind", "priority", "due_date"])
        #expect(Note.selection == #"id, "title", "kind", "priority", "due_date""#)
        #expect(Note.declaration.searchedTextColumns == ["title_folded"])
        #expect(Note.declaration.searchedNumberColumns == ["priority"])
        // A required attribute's expressions are never NULL; an optional one's may be.
        #expect(Note.column(for: \Note.title) == EntityColumn(
            "title", sortedBy: #""title_folded""#, sectionedBy: #"substr("title_folded", 1, 1)"#, canBeNull: false))
        #expect(Note.column(for: \Note.id) == EntityColumn("id", canBeNull: false))
        #expect(Note.column(for: \Note.due) == EntityColumn("due_date"))
        #expect(Note.declaration.trackingSQL == ChangeLog.trackingSQL(forTable: "notes"))
    }

    @Test(arguments: StoreEngine.all) func insertValidatesStoresFoldedTextAndSetsTheID(engine: StoreEngine) throws {
        let store = try Note.store(engine)
        let queue = store.writer
        var note = Note(title: "  Café ", kind: .task, priority: 3, due: 1.5)
        try queue.write { db in try note.insert(db) }
        #expect(note.id == 1 && note.title == "Café")
        #expect(try queue.read { db in try Note.isEmpty(db) } == false)
        let folded = try queue.read { db in try db.scalar(String.self, sql: "SELECT title_folded FROM notes") }
        #expect(folded == "cafe")
        #expect(try queue.read { db in try Note.fetchOne(id: 1, db) } == note)
    }

    @Test(arguments: StoreEngine.all) func aRefusedValueWritesNothing(engine: StoreEngine) throws {
        let store = try Note.store(engine)
        let queue = store.writer
        var note = Note(title: "x", kind: .idea, priority: 12)
        #expect(throws: Note.Refused(field: "priority")) { try queue.write { db in try note.insert(db) } }
        note = Note(title: "  ", kind: .idea, priority: 1)
        #expect(throws: Note.Refused(field: "title")) { try queue.write { db in try note.insert(db) } }
        #expect(try queue.read { db in try Note.fetchCount(db) } == 0)
        #expect(try queue.read { db in try Note.isEmpty(db) })
    }

    @Test(arguments: StoreEngine.all) func updateAndDeleteNameTheirRow(engine: StoreEngine) throws {
        let store = try Note.store(engine)
        let queue = store.writer
        var note = Note(title: "One", kind: .idea, priority: 1)
        try queue.write { db in try note.insert(db) }
        note.priority = 2
        note.due = nil
        try queue.write { db in try note.update(db) }
        #expect(try queue.read { db in try Note.fetchAll(db) } == [note])
        var stranger = note
        stranger.id = 99
        #expect(throws: EntityError.notFound(table: "notes", id: 99)) { try queue.write { db in try stranger.update(db) } }
        #expect(throws: EntityError.notSaved(table: "notes")) {
            try queue.write { db in try Note(title: "x", kind: .idea, priority: 1).update(db) }
        }
        #expect(try queue.write { db in try Note.delete(id: note.id!, db) } == note)
        #expect(throws: EntityError.notFound(table: "notes", id: note.id!)) { try queue.write { db in try Note.delete(id: note.id!, db) } }
    }

    @Test(arguments: StoreEngine.all) func insertUnlessConflictingSkipsATakenUniqueValueOnly(engine: StoreEngine) throws {
        let store = try Note.store(engine)
        let queue = store.writer
        var first = Note(title: "Same", kind: .idea, priority: 1)
        var second = Note(title: "Same", kind: .task, priority: 2)
        let saved = try queue.write { db in (try first.insertUnlessConflicting(db), try second.insertUnlessConflicting(db)) }
        #expect(saved == (true, false))
        #expect(second.id == nil)
        var duplicate = Note(title: "Same", kind: .task, priority: 2)
        #expect(throws: (any Error).self) { try queue.write { db in try duplicate.insert(db) } }
    }

    @Test(arguments: StoreEngine.all) func fetchRequestsUseTheDeclaredSortsAndSections(engine: StoreEngine) throws {
        let store = try Note.store(engine)
        let queue = store.writer
        try queue.write { db in
            for (title, kind, priority) in [("éclair", Note.Kind.task, 1), ("Apple", .idea, 2), ("egg", .idea, 3), ("banana", .task, 4)] {
                var note = Note(title: title, kind: kind, priority: priority)
                try note.insert(db)
            }
        }
        let byTitle = FetchedResultsController(
            request: FetchRequest<Note>(sortDescriptors: [SortDescriptor(\.title)], sectionKeyPath: \Note.title), reader: queue)
        try byTitle.performFetch()
        #expect(byTitle.sections.map(\.name) == ["A", "B", "E"])
        #expect(try byTitle.fetchedObjects.map(\.title) == ["Apple", "banana", "éclair", "egg"])

        let byKind = FetchedResultsController(
            request: FetchRequest<Note>(
                predicate: #Predicate { $0.priority > 1 }, sortDescriptors: [SortDescriptor(\.priority, order: .reverse)],
                sectionKeyPath: \Note.kind),
            reader: queue)
        try byKind.performFetch()
        #expect(byKind.sections.map(\.name) == ["Kind idea", "Kind task"])
        #expect(try byKind.fetchedObjects.map(\.priority) == [3, 2, 4])
    }
}
