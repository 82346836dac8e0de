import Entities
import FetchedResults
import Foundation
import SQLiteStore
import Testing
import TestSupport

/// A to-one reference declared on the child: the foreign key and what deleting the parent does, and
/// a live controller over a parent's children.
struct RelationshipTests {
    let directory: TemporaryDirectory
    let queue: DatabaseQueue

    init() throws {
        directory = try TemporaryDirectory()
        queue = try DatabaseQueue(path: directory.path())
        try Kitchen.now.migrate(queue)
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

    @Test func aChildNeedsItsParentAndCascadesWithIt() throws {
        let oyakodon = try add("親子丼")
        try addStep(oyakodon, 1, "Simmer the onion")
        try addStep(oyakodon, 2, "Add the egg")
        #expect(throws: DatabaseError.self) { try addStep(999, 1, "Orphan") }
        _ = try queue.write { db in try Dish.delete(id: oyakodon, db) }
        #expect(try queue.read { db in try DishStep.fetchCount(db) } == 0)
    }

    @Test func aRestrictingChildKeepsItsParent() throws {
        let brulee = try add("Crème brûlée")
        var tasting = Tasting(dishID: brulee, verdict: "crisp")
        try queue.write { db in try tasting.insert(db) }
        let error = #expect(throws: DatabaseError.self) { try queue.write { db in try Dish.delete(id: brulee, db) } }
        #expect(error?.description.contains("FOREIGN KEY constraint failed") == true)
        #expect(try queue.read { db in try Dish.fetchCount(db) } == 1)
    }

    @Test func aLiveControllerOverAParentsChildrenTracksThem() throws {
        let oyakodon = try add("親子丼")
        let other = try add("Crème brûlée")
        try addStep(oyakodon, 2, "Add the egg")
        try addStep(other, 1, "Caramelise")
        let controller = FetchedResultsController(
            request: DishStep.children(of: oyakodon, \.dishID, sortedBy: [SortDescriptor(\.position)]), reader: queue)
        try controller.startTracking()
        #expect(try controller.fetchedObjects.map(\.text) == ["Add the egg"])

        try addStep(oyakodon, 1, "Simmer the onion")
        try addStep(other, 2, "Chill")  // another parent's child: no change here
        var changes = try controller.applyPendingChanges()
        #expect(changes.changes == [.insert(id: 3, at: ItemPath(section: 0, row: 0))])
        #expect(try controller.fetchedObjects.map(\.text) == ["Simmer the onion", "Add the egg"])

        _ = try queue.write { db in try Dish.delete(id: oyakodon, db) }
        changes = try controller.applyPendingChanges()
        #expect(changes.changes.map(\.id).sorted() == [1, 3])
        #expect(try controller.fetchedObjects.isEmpty)
    }
}
