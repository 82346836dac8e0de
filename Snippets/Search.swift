// Search: a declared entity's search, asked with its attributes, in any script.
import Entities
import FetchedResults
import Foundation
import SQLiteStore
import TextSearch

// snippet.hide
let directory = FileManager.default.temporaryDirectory.appendingPathComponent("search-\(UUID().uuidString)")
try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
let queue = try DatabaseQueue(path: directory.appendingPathComponent("recipes.sqlite").path)
// snippet.show

// snippet.describe
struct Recipe: SearchableEntity, Hashable {
    var id: Int64?
    var name: String
    var cuisine: String
    var minutes: Int

    static let declaration = EntityDeclaration<Recipe>(
        table: "recipes", template: Recipe(name: "", cuisine: "", minutes: 0), folding: TextFolding.fold,
        attributes: [
            .text("name", \.name, folded: true, searched: true),        // terms are looked for in it
            .text("cuisine", \.cuisine, folded: true, searched: true),
            .value("minutes", \.minutes, searchedAsNumber: true),       // a number term equals it
        ])

    // The searched attributes, and the cuisine as the scope: a search within one cuisine, or in
    // sections by cuisine, is counted and paged by the indexes.
    static let searchDescription = declaration.searchDescription(scope: \Recipe.cuisine, indexesShortTerms: false)
    static var searchScope: (PartialKeyPath<Recipe> & Sendable)? { \Recipe.cuisine }
}
// snippet.end

// snippet.install
// The table, its folded columns, the search structures and the triggers that keep them are
// generated from the declaration, as the schema's first migration.
let schema = EntitySchema(identity: "com.example.recipes", tables: [EntityTable(Recipe.self)])
try schema.migrate(queue)
// snippet.end

// snippet.write
try queue.write { db in
    for (name, cuisine, minutes) in [
        ("親子丼", "Japanese", 25), ("Crème brûlée", "French", 60), ("Tarte Tatin", "French", 90),
        ("ﾃﾞｼﾞﾀﾙ弁当", "Japanese", 10),
    ] {
        var recipe = Recipe(name: name, cuisine: cuisine, minutes: minutes)
        try recipe.insert(db)                                   // writes the folded columns too
    }
}
// snippet.end

// snippet.scope
// Every term, ignoring case, diacritics and width, within the French recipes, by name.
let french = FetchRequest<Recipe>(
    sortDescriptors: [SortDescriptor(\.name)], searchText: "BRULEE", scope: \.cuisine, in: ["French"])
let controller = FetchedResultsController(request: french, reader: queue)
try controller.performFetch()
let found = try controller.fetchedObjects.map(\.name)
print(found)                                                    // ["Crème brûlée"]
// snippet.end

// snippet.page
// A page and how many match in all, from one snapshot: what a search bar shows.
let request = FetchRequest<Recipe>(sortDescriptors: [SortDescriptor(\.name)], searchText: "ﾃﾞｼﾞﾀﾙ")
let page = try queue.read { db in try request.searchPage(limit: 20, db) }
print(page.records.map(\.name), page.totalCount)               // ["ﾃﾞｼﾞﾀﾙ弁当"] 1
// snippet.end

// snippet.hide
precondition(found == ["Crème brûlée"])
precondition(page.records.map(\.name) == ["ﾃﾞｼﾞﾀﾙ弁当"] && page.totalCount == 1)
try FileManager.default.removeItem(at: directory)
