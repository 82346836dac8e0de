import Entities
import FetchedResults
import Foundation
import SQLiteStore
import Testing
import TestSupport

/// A to-one reference declared on the child: the foreign key and what deleting the parent does, and
/// a live controller over a parent's children, on each engine.
struct RelationshipTests {
    let store: TestStore
    var queue: any StoreWriter { store.writer }

    init(_ engine: StoreEngine) throws {
        store = try Kitchen.store(engine)
    }

    func add(_ name: String) throws -> Int64 {
        var dish = Dish(name: name)
        try queue.write { db in try dish.insert(db) }
        return dish.id!
    }

    func addStep(_ dishID: Int64, _ position: Int, _ text: String) throws {
        var step = DishStep(dishID: dishID, position: position, text: text)
        try queue.write { db in try step.insert(db) }
    }

    @Test(arguments: StoreEngine.all) static func aChildNeedsItsParentAndCascadesWithIt(engine: StoreEngine) throws {
        let test = try Self(engine)
        let oyakodon = try test.add("親子丼")
        try test.addStep(oyakodon, 1, "Simmer the onion")
        try test.addStep(oyakodon, 2, "Add the egg")
        let orphan = #expect(throws: (any Error).self) { try test.addStep(999, 1, "Orphan") }
        #expect("\(orphan.map { "\($0)" } ?? "")".localizedCaseInsensitiveContains("foreign key"))
        _ = try test.queue.write { db in try Dish.delete(id: oyakodon, db) }
        #expect(try test.queue.read { db in try DishStep.fetchCount(db) } == 0)
    }

    @Test(arguments: StoreEngine.all) static func aRestrictingChildKeepsItsParent(engine: StoreEngine) throws {
        let test = try Self(engine)
        let brulee = try test.add("Crème brûlée")
        var tasting = Tasting(dishID: brulee, verdict: "crisp")
        try test.queue.write { db in try tasting.insert(db) }
        let error = #expect(throws: (any Error).self) { try test.queue.write { db in try Dish.delete(id: brulee, db) } }
        // SQLite: "FOREIGN KEY constraint failed"; PostgreSQL: "… violates foreign key constraint …".
        #expect("\(error.map { "\($0)" } ?? "")".localizedCaseInsensitiveContains("foreign key"))
        #expect(try test.queue.read { db in try Dish.fetchCount(db) } == 1)
    }

    @Test(arguments: StoreEngine.all) static func aLiveControllerOverAParentsChildrenTracksThem(engine: StoreEngine) throws {
        let test = try Self(engine)
        let oyakodon = try test.add("親子丼")
        let other = try test.add("Crème brûlée")
        try test.addStep(oyakodon, 2, "Add the egg")
        try test.addStep(other, 1, "Caramelise")
        let controller = FetchedResultsController(
            request: DishStep.children(of: oyakodon, \.dishID, sortedBy: [SortDescriptor(\.position)]), reader: test.queue)
        try controller.startTracking()
        #expect(try controller.fetchedObjects.map(\.text) == ["Add the egg"])

        try test.addStep(oyakodon, 1, "Simmer the onion")
        try test.addStep(other, 2, "Chill")  // another parent's child: no change here
        var changes = try controller.applyPendingChanges()
        #expect(changes.changes == [.insert(id: 3, at: ItemPath(section: 0, row: 0))])
        #expect(try controller.fetchedObjects.map(\.text) == ["Simmer the onion", "Add the egg"])

        _ = try test.queue.write { db in try Dish.delete(id: oyakodon, db) }
        changes = try controller.applyPendingChanges()
        #expect(changes.changes.map(\.id).sorted() == [1, 3])
        #expect(try controller.fetchedObjects.isEmpty)
    }
}
