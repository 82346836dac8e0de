import Entities
import FetchedResults
import Foundation
import SQLiteStore
import Testing
import TestSupport
import TextSearch

/// `Meal` as first released: a search of its name only, without a scope or an index of short terms.
/// Its table is `Meal`'s (the same columns); only what is searched changed since.
struct MealBefore: SearchableEntity, Hashable {
    var id: Int64?
    var name: String
    var notes: String
    var cuisine: String
    var vegetarian: Bool

    static let declaration = EntityDeclaration<MealBefore>(
        table: "meals", template: MealBefore(name: "", notes: "", cuisine: "", vegetarian: false), folding: TextFolding.fold,
        attributes: [
            .text("name", \.name, folded: true, searched: true),
            .text("notes", \.notes, folded: true),
            .text("cuisine", \.cuisine),
            .value("vegetarian", \.vegetarian),
        ])

    static let searchDescription = declaration.searchDescription(indexesShortTerms: false)
}

/// `Migration.reinstallingSearch(of:version:)` on each engine: a store made when only names were
/// searched finds notes too after the step, exactly as the brute-force filter of every row written
/// from the definition (`TypedSearchTests.matches`), and as a store made with the new search; the
/// step is applied once, and a later step of its kind leaves its checksum valid.
struct SearchReinstallTests {
    static let identity = "test.meals"
    static let before = EntitySchema(identity: identity, tables: [EntityTable(MealBefore.self)])
    static let now = EntitySchema(
        identity: identity, tables: [EntityTable(Meal.self)], changes: [.reinstallingSearch(of: Meal.self, version: 2)])

    /// Random meals, saved with the schema of `MealBefore`, in `queue`.
    static func oldStore(_ queue: any StoreWriter, _ random: inout SplitMix64) throws -> [Meal] {
        try Self.before.migrate(queue)
        var meals: [Meal] = []
        try queue.write { db in
            for index in 0..<Int.random(in: 40...160, using: &random) {
                let words = (0..<Int.random(in: 1...3, using: &random)).map { _ in TypedSearchTests.words.randomElement(using: &random)! }
                let notes = (0..<Int.random(in: 0...2, using: &random)).map { _ in TypedSearchTests.words.randomElement(using: &random)! }
                var meal = MealBefore(
                    name: words.joined(separator: " ") + " \(index)", notes: notes.joined(separator: " "),
                    cuisine: TypedSearchTests.cuisines.randomElement(using: &random)!, vegetarian: Bool.random(using: &random))
                try meal.insert(db)
                meals.append(Meal(id: meal.id, name: meal.name, notes: meal.notes, cuisine: meal.cuisine, vegetarian: meal.vegetarian))
            }
        }
        return meals
    }

    /// The ids of the meals `request` fetches, in order.
    static func ids(_ request: FetchRequest<Meal>, _ reader: any StoreReader) throws -> [Int64] {
        let controller = FetchedResultsController(request: request, reader: reader)
        try controller.performFetch()
        return try controller.fetchedObjects.map { $0.id! }
    }

    @Test(arguments: StoreEngine.all, 0..<4)
    static func afterTheStepASearchFindsWhatTheNewDeclarationSearches(engine: StoreEngine, seed: UInt64) throws {
        var random = SplitMix64(seed: seed)
        let old = try engine.makeStore()
        var meals = try oldStore(old.writer, &random)
        let queue = try old.openAgain()
        #expect(try Self.now.migrate(queue).map(\.version) == [2])

        // The same rows in a store made with the new search from the start.
        let made = try engine.makeStore()
        let fresh = made.writer
        try Self.now.migrate(fresh)
        try fresh.write { db in for var meal in meals { try meal.insert(db) } }

        // The triggers are the new search's: a meal saved after the step is found by its notes.
        var added = Meal(name: "added", notes: "σουβλάκι tarte", cuisine: "French", vegetarian: true)
        for writer in [queue, fresh] {
            var copy = added
            try writer.write { db in try copy.insert(db) }
            added.id = copy.id
        }
        meals.append(added)

        for _ in 0..<16 {
            let text = (0..<Int.random(in: 1...2, using: &random)).map { _ in TypedSearchTests.term(&random) }.joined(separator: " ")
            let chosen = Array(TypedSearchTests.cuisines.shuffled(using: &random).prefix(Int.random(in: 1...2, using: &random)))
            for request in [
                FetchRequest<Meal>(sortDescriptors: [SortDescriptor(\.name)], searchText: text),
                FetchRequest<Meal>(sortDescriptors: [SortDescriptor(\.name)], searchText: text, scope: \.cuisine, in: chosen),
            ] {
                let expected = TypedSearchTests.ordered(meals.filter {
                    TypedSearchTests.matches($0, text) && (request.searchScope == nil || chosen.contains($0.cuisine))
                })
                #expect(try Self.ids(request, queue) == expected, "\(text)")
                #expect(try Self.ids(request, fresh) == expected, "\(text)")
            }
        }
        try queue.read { db in try Self.now.check(db) }
    }

    @Test(arguments: StoreEngine.all) static func theStepIsAppliedOnceAndALaterOneKeepsItsChecksum(engine: StoreEngine) throws {
        var random = SplitMix64(seed: 9)
        let old = try engine.makeStore()
        let meals = try oldStore(old.writer, &random)
        let queue = try old.openAgain()
        // Without the step, opening says what differs and names the step, in one line.
        let withoutStep = EntitySchema(identity: Self.identity, tables: [EntityTable(Meal.self)])
        #expect(throws: SchemaDifference(
            table: "meals",
            reason: "its search indexes name_folded in the database, name_folded, notes_folded in the declaration: add the step Migration.reinstallingSearch(of:version:)")
        ) { try withoutStep.migrate(queue) }
        #expect(try Self.now.migrate(queue).map(\.version) == [2])
        #expect(try Self.now.migrate(queue).isEmpty)

        // A later change of the search comes with a step of its own: the first one's checksum, which
        // names no attribute, is still the file's.
        let later = EntitySchema(
            identity: Self.identity, tables: [EntityTable(Meal.self)],
            changes: [.reinstallingSearch(of: Meal.self, version: 2), .reinstallingSearch(of: Meal.self, version: 3)])
        #expect(try later.migrate(queue).map(\.version) == [3])
        let request = FetchRequest<Meal>(sortDescriptors: [SortDescriptor(\.name)], searchText: "e")
        #expect(try Self.ids(request, queue) == TypedSearchTests.ordered(meals.filter { TypedSearchTests.matches($0, "e") }))

        // On a store whose search is the declared one already, it builds the same again.
        let made = try engine.makeStore()
        let fresh = made.writer
        #expect(try later.migrate(fresh).map(\.version) == [1, 2, 3])
        try fresh.write { db in for var meal in meals { try meal.insert(db) } }
        #expect(try Self.ids(request, fresh) == Self.ids(request, queue))
    }
}
