import Entities
import FetchedResults
import Foundation
import Recipes
import SQLiteStore
import Testing

/// A fresh folder for one test's files, removed afterwards.
final class Folder: Sendable {
    let url: URL
    init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("recipes-tests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }
    deinit { try? FileManager.default.removeItem(at: url) }
    func path(_ name: String = "recipes.sqlite") -> String { url.appendingPathComponent(name).path }
}

struct RecipesTests {
    let folder: Folder
    init() throws { folder = try Folder() }

    /// The seed files of the example, beside its Package.swift.
    static func seed(_ name: String) -> String {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Seeds").appendingPathComponent(name).path
    }

    func seededBook() throws -> RecipeBook {
        let book = try RecipeBook(path: folder.path())
        let report = try book.importFiles([Self.seed("recipes.csv"), Self.seed("ingredients.csv")], keepingIDs: true)
        #expect(report[Recipe.self] == ImportReport(inserted: 2) && report[Ingredient.self] == ImportReport(inserted: 8))
        return book
    }

    @Test func theCSVSeedReadsEveryKind() throws {
        let book = try seededBook()
        let recipes = try book.database.read { db in try Recipe.fetchAll(db) }
        #expect(recipes.map(\.name) == ["親子丼", "Crème brûlée"])
        #expect(recipes.map(\.vegetarian) == [false, true])
        #expect(recipes[0].published == Date(timeIntervalSince1970: 1_714_532_400))  // 2024-05-01T12:00:00+09:00
        #expect(recipes.map(\.rating) == [4.5, nil])
        let brulee = try book.fetch(RecipeBook.ingredients(of: 2)).fetchedObjects
        #expect(brulee.map(\.name) == ["cream", "egg yolk", "sugar", "vanilla pod"])
        #expect(brulee.last?.quantity == nil)
        // Seeding again adds nothing; importing the same names updates them.
        #expect(try Recipe.seedFile(Self.seed("recipes.csv"), into: book.database) == ImportReport(skipped: 2))
    }

    @Test func searchFindsEveryScriptIgnoringDiacritics() throws {
        let book = try seededBook()
        #expect(try book.recipes(matching: "brulee").map(\.name) == ["Crème brûlée"])
        #expect(try book.recipes(matching: "親子").map(\.name) == ["親子丼"])
        #expect(try book.recipes(matching: "japanese 25").map(\.name) == ["親子丼"])
        let sections = try book.fetch(RecipeBook.byCuisine).sections.map(\.name)
        #expect(sections == ["French", "Japanese"])
    }

    @Test func aSearchWithinACuisineCountsAndTracksItsOwn() throws {
        let book = try seededBook()
        #expect(try book.recipes(matching: "", cuisines: ["Japanese"]).map(\.name) == ["親子丼"])
        #expect(try book.recipes(matching: "e", cuisines: ["French"]).map(\.name) == ["Crème brûlée"])
        #expect(try book.recipes(matching: "brulee", cuisines: ["Japanese"]).isEmpty)
        var request = RecipeBook.search("tart", cuisines: ["French"])
        request.sectionKeyPath = \Recipe.cuisine
        let controller = try book.track(request)
        #expect(controller.numberOfObjects == 0)
        try book.add(Recipe(name: "Tarte Tatin", cuisine: "French", minutes: 90, vegetarian: true))
        try book.add(Recipe(name: "Tart of Kyoto", cuisine: "Japanese", minutes: 30))   // another cuisine
        #expect(try controller.applyPendingChanges().changes.count == 1)
        #expect(controller.sections.map(\.name) == ["French"] && controller.sections.map(\.numberOfObjects) == [1])
        let page = try book.database.read { db in try request.searchPage(limit: 10, db) }
        #expect(page.records.map(\.name) == ["Tarte Tatin"] && page.totalCount == 1)
    }

    @Test func aLiveControllerSeesAnotherProcesssLikeChangesAndTheCascade() throws {
        let book = try seededBook()
        let controller = try book.track(RecipeBook.ingredients(of: 1))
        #expect(try controller.fetchedObjects.count == 4)
        // Another connection, as another process would write.
        let other = try RecipeBook(path: folder.path())
        try other.add(Ingredient(recipeID: 1, position: 5, name: "三つ葉"))
        var changes = try controller.applyPendingChanges()
        #expect(changes.changes.count == 1)
        #expect(try controller.fetchedObjects.last?.name == "三つ葉")
        try other.deleteRecipe(id: 1)
        changes = try controller.applyPendingChanges()
        #expect(changes.changes.count == 5)
        #expect(try controller.fetchedObjects.isEmpty)
    }

    @Test func aBadFileNamesItsLineAndFieldAndAddsNothing() throws {
        let book = try RecipeBook(path: folder.path())
        let path = folder.path("bad.csv")
        try "name,cuisine,minutes,vegetarian,published,rating\nMiso soup,Japanese,10,perhaps,,\n".write(toFile: path, atomically: true, encoding: .utf8)
        let error = #expect(throws: EntityFileError.self) { try book.importFiles([Self.seed("recipes.csv"), path]) }
        #expect(error?.description == "\(path): line 2, column 4 (vegetarian): expected true, false, yes, no, 1 or 0, found \"perhaps\"")
        #expect(try book.database.read { db in try Recipe.fetchCount(db) } == 0)
    }

    /// Many recipes and their ingredients in one call: the progress is called every
    /// `EntityFiles.progressInterval` records, counted over both files.
    @Test func aLargeImportOfBothEntitiesReportsItsProgress() throws {
        let book = try RecipeBook(path: folder.path())
        let (recipes, ingredients) = (folder.path("many-recipes.jsonl"), folder.path("many-ingredients.csv"))
        try (1...1_500).map { #"{"id": \#($0), "name": "Recipe \#($0)", "cuisine": "Cuisine \#($0 % 9)", "minutes": \#($0), "vegetarian": false, "servings": 2, "published": null, "rating": null}"# }
            .joined(separator: "\n").write(toFile: recipes, atomically: true, encoding: .utf8)
        try ("recipeID,position,name,quantity,unit\n" + (1...1_500).map { "\($0),1,salt,1,g\n" }.joined())
            .write(toFile: ingredients, atomically: true, encoding: .utf8)
        var calls: [Int] = []
        let report = try book.importFiles([recipes, ingredients], keepingIDs: true) { calls.append($0) }
        #expect(calls == [1_000, 2_000, 3_000])
        #expect(report.total == ImportReport(inserted: 3_000))
        #expect(try book.recipes(matching: "recipe 1499").map(\.name) == ["Recipe 1499"])
        #expect(try book.fetch(RecipeBook.ingredients(of: 1_499)).fetchedObjects.map(\.name) == ["salt"])
    }

    @Test func exportWritesTheDatesInISO8601() throws {
        let book = try seededBook()
        let path = folder.path("recipes.json")
        #expect(try book.exportFile(path, of: Recipe.self) == 2)
        let text = try String(contentsOfFile: path, encoding: .utf8)
        #expect(text.contains(#""published" : "2024-05-01T03:00:00Z""#))
    }

    /// A file made by version 1 (no `servings`) gains the column at open; a table changed behind the
    /// declaration's back is refused in one line.
    @Test func theSchemaChangeAndTheCheckAtOpen() throws {
        let path = folder.path()
        do {
            let queue = try DatabaseQueue(path: path)
            // Migration 1 recorded as applied (its revision, not its tables, is what is recorded)…
            try EntitySchema(identity: "org.example.recipes", tables: []).migrate(queue)
            // …and the tables it made in version 1, before `servings`.
            try queue.write { db in
                try db.execute(sql: EntityTable(Recipe.self).createSQL() + EntityTable(Ingredient.self).createSQL())
                try db.execute(sql: "ALTER TABLE recipes DROP COLUMN servings")
                try db.execute(sql: "INSERT INTO recipes(name, name_folded, cuisine, cuisine_folded, minutes, vegetarian) VALUES ('Udon', 'udon', 'Japanese', 'japanese', 15, 1)")
            }
        }
        let book = try RecipeBook(path: path)
        #expect(try book.database.read { db in try Recipe.fetchAll(db) }.map(\.servings) == [2])
        try book.database.write { db in try db.execute(sql: "ALTER TABLE ingredients ADD COLUMN note TEXT") }
        let error = #expect(throws: SchemaDifference.self) { try RecipeBook(path: path) }
        #expect(error?.description == "table ingredients does not match its declaration: column note is not declared by Ingredient (drop or rename it in a migration step, or declare it)")
    }
}
