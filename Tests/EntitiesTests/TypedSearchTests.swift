import Entities
import FetchedResults
import Foundation
import SQLiteStore
import Testing
import TestSupport
import TextSearch

/// A meal: searched by its folded name and notes, its cuisine the search's scope (its indexes count
/// and page each cuisine), and a flag a search may be restricted by too.
struct Meal: SearchableEntity, Hashable {
    var id: Int64?
    var name: String
    var notes: String
    var cuisine: String
    var vegetarian: Bool

    static let declaration = EntityDeclaration<Meal>(
        table: "meals", template: Meal(name: "", notes: "", cuisine: "", vegetarian: false), folding: TextFolding.fold,
        attributes: [
            .text("name", \.name, folded: true, searched: true),
            .text("notes", \.notes, folded: true, searched: true),
            .text("cuisine", \.cuisine),
            .value("vegetarian", \.vegetarian),
        ])

    static let searchDescription = declaration.searchDescription(scope: \Meal.cuisine)
    static var searchScope: (PartialKeyPath<Meal> & Sendable)? { \Meal.cuisine }
}

/// A search asked with the entity's attributes (text, a scope attribute and its values, sort
/// descriptors), checked against a brute-force filter of every row written from the Search article's
/// definition: every term folded (``TextFolding/fold(_:)``) is a substring of a folded searched text.
struct TypedSearchTests {
    static let words = ["Crème", "brûlée", "親子丼", "ramen", "Борщ", "σουβλάκι", "ﾃﾞｼﾞﾀﾙ", "café", "tarte", "KIMCHI", "ü"]
    static let cuisines = ["French", "Japanese", "Русская", "Ελληνική"]

    let store: TestStore
    var queue: any StoreWriter { store.writer }

    /// A store of `engine` holding the meals' table; each test runs on each engine.
    init(_ engine: StoreEngine) throws {
        store = try engine.makeStore()
        try EntitySchema(identity: "test.meals", tables: [EntityTable(Meal.self)]).migrate(store.writer)
    }

    /// Whether `meal` matches `text` by the definition, not by the code.
    static func matches(_ meal: Meal, _ text: String) -> Bool {
        let terms = text.split(whereSeparator: \.isWhitespace).map { TextFolding.fold(String($0)) }.filter { !$0.isEmpty }
        let texts = [TextFolding.fold(meal.name), TextFolding.fold(meal.notes)]
        return terms.allSatisfy { term in texts.contains { $0.contains(term) } }
    }

    /// A term of a word a meal may hold: a piece of it, its case changed, or a word no meal holds.
    static func term(_ random: inout SplitMix64) -> String {
        guard Int.random(in: 0..<6, using: &random) > 0 else { return "zzq" }
        let word = Array(words.randomElement(using: &random)!)
        let start = Int.random(in: 0..<word.count, using: &random)
        let piece = String(word[start..<Int.random(in: (start + 1)...word.count, using: &random)])
        return Bool.random(using: &random) ? piece.uppercased() : piece
    }

    func insertRandomMeals(_ count: Int, _ random: inout SplitMix64) throws -> [Meal] {
        var meals: [Meal] = []
        try queue.write { db in
            for index in 0..<count {
                let name = (0..<Int.random(in: 1...3, using: &random)).map { _ in Self.words.randomElement(using: &random)! }
                var meal = Meal(
                    name: name.joined(separator: " ") + " \(index)", notes: Bool.random(using: &random) ? Self.words.randomElement(using: &random)! : "",
                    cuisine: Self.cuisines.randomElement(using: &random)!, vegetarian: Bool.random(using: &random))
                try meal.insert(db)
                meals.append(meal)
            }
        }
        return meals
    }

    /// The meals in the request's order: by folded name (as its column sorts, byte by byte), then id.
    static func ordered(_ meals: [Meal]) -> [Int64] {
        meals.sorted {
            let (a, b) = (Array(TextFolding.fold($0.name).utf8), Array(TextFolding.fold($1.name).utf8))
            return a == b ? $0.id! < $1.id! : a.lexicographicallyPrecedes(b)
        }.map { $0.id! }
    }

    @Test(arguments: StoreEngine.all, 0..<8)
    static func aScopedSearchIsTheFilterOfEveryRow(engine: StoreEngine, seed: UInt64) throws {
        try Self(engine).aScopedSearchIsTheFilterOfEveryRow(seed: seed)
    }

    func aScopedSearchIsTheFilterOfEveryRow(seed: UInt64) throws {
        var random = SplitMix64(seed: seed)
        let meals = try insertRandomMeals(Int.random(in: 20...120, using: &random), &random)
        for _ in 0..<12 {
            let text = (0..<Int.random(in: 0...2, using: &random)).map { _ in Self.term(&random) }.joined(separator: " ")
            let chosen = Array(Self.cuisines.shuffled(using: &random).prefix(Int.random(in: 0...2, using: &random)))
            let batchSize = [0, 3].randomElement(using: &random)!

            // Restricted by the search's scope attribute, unsectioned and sectioned by it.
            var request = FetchRequest<Meal>(
                sortDescriptors: [SortDescriptor(\.name)], searchText: text, scope: \.cuisine, in: chosen, batchSize: batchSize)
            let expected = meals.filter { Self.matches($0, text) && chosen.contains($0.cuisine) }
            var controller = FetchedResultsController(request: request, reader: queue)
            try controller.performFetch()
            #expect(try controller.fetchedObjects.map { $0.id! } == Self.ordered(expected), "\(text) in \(chosen)")
            try expectPage(request, Self.ordered(expected), &random)

            request.sectionKeyPath = \Meal.cuisine
            controller = FetchedResultsController(request: request, reader: queue)
            try controller.performFetch()
            let byCuisine = Dictionary(grouping: expected, by: \.cuisine)
            #expect(controller.sections.map(\.name) == byCuisine.keys.sorted { Array($0.utf8).lexicographicallyPrecedes(Array($1.utf8)) })
            #expect(try controller.sections.indices.map { try controller.objects(inSection: $0).map { $0.id! } }
                == controller.sections.map { Self.ordered(byCuisine[$0.name] ?? []) }, "\(text) in \(chosen)")

            // Restricted by another attribute: a condition beside the search.
            let vegetarian = FetchRequest<Meal>(
                sortDescriptors: [SortDescriptor(\.name)], searchText: text, scope: \.vegetarian, in: [true], batchSize: batchSize)
            controller = FetchedResultsController(request: vegetarian, reader: queue)
            try controller.performFetch()
            #expect(try controller.fetchedObjects.map { $0.id! }
                == Self.ordered(meals.filter { Self.matches($0, text) && $0.vegetarian }), "\(text), vegetarian")
            try expectPage(vegetarian, Self.ordered(meals.filter { Self.matches($0, text) && $0.vegetarian }), &random)
        }
    }

    /// A random page of `request` is that slice of `expected`, with their number.
    func expectPage(_ request: FetchRequest<Meal>, _ expected: [Int64], _ random: inout SplitMix64) throws {
        let (limit, offset) = (Int.random(in: 0...8, using: &random), Int.random(in: 0...10, using: &random))
        let page = try queue.read { db in try request.searchPage(limit: limit, offset: offset, db) }
        #expect(page.records.map { $0.id! } == Array(expected.dropFirst(offset).prefix(limit)), "\(request.searchText ?? "")")
        #expect(page.totalCount == expected.count)
    }

    /// A negative offset is a mistake of the calling code (a command checks what a user typed): the
    /// page traps, naming the limit and offset, not the predicate a search page also refuses.
    @Test static func aNegativeSearchPageOffsetTrapsNamingIt() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let directory = try TemporaryDirectory()
            let queue = try DatabaseQueue(path: directory.path())
            _ = try queue.read { db in try FetchRequest<Meal>(searchText: "tarte").searchPage(limit: 20, offset: -1, db) }
        }
        let message = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
        #expect(message.contains("a search page's limit and offset are not negative, not 20 and -1"), "\(message)")
    }

    @Test static func theScopeStaysWithTheTextAsEitherChanges() {
        var request = FetchRequest<Meal>(searchText: "tarte", scope: \.cuisine, in: ["French"])
        request.searchText = "brûlée"
        #expect(request.searchScope == SearchScope(\Meal.cuisine, in: ["French"]))
        request.searchText = nil
        #expect(request.searchScope != nil && request.searchText == nil)
        request.searchScope = nil
        #expect(request.filter == nil)
    }

    @Test(arguments: StoreEngine.all) static func aControllerOverAScopedSearchTracksInsertsAndDeletes(engine: StoreEngine) throws {
        try Self(engine).aControllerOverAScopedSearchTracksInsertsAndDeletes()
    }

    func aControllerOverAScopedSearchTracksInsertsAndDeletes() throws {
        var tarte = Meal(name: "Tarte Tatin", notes: "", cuisine: "French", vegetarian: true)
        try queue.write { db in try tarte.insert(db) }
        let controller = FetchedResultsController(
            request: FetchRequest<Meal>(
                sortDescriptors: [SortDescriptor(\.name)], searchText: "TARTE", scope: \.cuisine, in: ["French"],
                sectionKeyPath: \Meal.cuisine),
            reader: queue)
        try controller.startTracking()
        #expect(try controller.fetchedObjects.map(\.name) == ["Tarte Tatin"])

        var flambee = Meal(name: "Tarte flambée", notes: "", cuisine: "French", vegetarian: false)
        var elsewhere = Meal(name: "Tarte of Tokyo", notes: "", cuisine: "Japanese", vegetarian: false)
        try queue.write { db in
            try flambee.insert(db)
            try elsewhere.insert(db)   // another cuisine: no change here
        }
        var changes = try controller.applyPendingChanges()
        #expect(changes.changes == [.insert(id: flambee.id!, at: ItemPath(section: 0, row: 0))])
        #expect(try controller.fetchedObjects.map(\.name) == ["Tarte flambée", "Tarte Tatin"])
        #expect(controller.sections.map(\.numberOfObjects) == [2])

        _ = try queue.write { db in try Meal.delete(id: tarte.id!, db) }
        changes = try controller.applyPendingChanges()
        #expect(changes.changes.map(\.id) == [tarte.id!])
        #expect(try controller.fetchedObjects.map(\.name) == ["Tarte flambée"])
    }
}
