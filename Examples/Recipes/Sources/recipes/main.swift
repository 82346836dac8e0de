import Entities
import FetchedResults
import Foundation
import Recipes
import SQLiteStore

// recipes DB COMMAND …: a small app over a recipe book (see README.md).
let usage = """
    usage: recipes DB import FILE... [--keep-ids]
           recipes DB export recipes|ingredients FILE
           recipes DB list | search TEXT [--cuisine CUISINE] | show ID | delete ID
           recipes DB add-ingredient RECIPE-ID POSITION NAME [QUANTITY UNIT]
           recipes DB watch ID [SECONDS]

    """

/// Prints `message` on standard error and exits with `code`.
func fail(_ message: String, code: Int32 = 1) -> Never {
    FileHandle.standardError.write(Data("recipes: \(message)\n".utf8))
    exit(code)
}

func line(_ recipe: Recipe) -> String {
    "\(recipe.id!)\t\(recipe.name)\t\(recipe.cuisine)\t\(recipe.minutes) min\(recipe.vegetarian ? "\tvegetarian" : "")"
}

func line(_ ingredient: Ingredient) -> String {
    let quantity = ingredient.quantity.map { $0 == $0.rounded() ? "\(Int($0)) " : "\($0) " } ?? ""
    return "  \(ingredient.position). \(quantity)\(ingredient.unit.isEmpty ? "" : ingredient.unit + " ")\(ingredient.name)"
}

var arguments = Array(CommandLine.arguments.dropFirst())
guard arguments.count >= 2 else { fail(usage, code: 64) }
let path = arguments.removeFirst()
let command = arguments.removeFirst()
@MainActor func argument(_ index: Int) -> String {
    guard index < arguments.count else { fail(usage, code: 64) }
    return arguments[index]
}
@MainActor func id(_ index: Int) -> Int64 {
    guard let id = Int64(argument(index)) else { fail("not an id: \(argument(index))", code: 64) }
    return id
}

do {
    let book = try RecipeBook(path: path)
    switch command {
    case "import":
        // Every file in one transaction, each file's entity told by its fields.
        let files = arguments.filter { $0 != "--keep-ids" }
        guard !files.isEmpty else { fail(usage, code: 64) }
        let report = try book.importFiles(files, keepingIDs: arguments.contains("--keep-ids")) { done in
            FileHandle.standardError.write(Data("\(done) records…\n".utf8))
        }
        print(report)
    case "export":
        let count = switch argument(0) {
        case "recipes": try book.exportFile(argument(1), of: Recipe.self)
        case "ingredients": try book.exportFile(argument(1), of: Ingredient.self)
        case let other: fail("no entity \(other): give recipes or ingredients", code: 64)
        }
        print("\(count) exported")
    case "list":
        let controller = try book.fetch(RecipeBook.byCuisine)
        for (index, section) in controller.sections.enumerated() {
            print(section.name)
            for recipe in try controller.objects(inSection: index) { print(line(recipe)) }
        }
    case "search":
        let cuisine = arguments.firstIndex(of: "--cuisine").map { argument($0 + 1) }
        for recipe in try book.recipes(matching: argument(0), cuisines: cuisine.map { [$0] }) { print(line(recipe)) }
    case "show":
        guard let recipe = try book.database.read({ db in try Recipe.fetchOne(id: id(0), db) }) else { fail("no recipe \(argument(0))") }
        print(line(recipe))
        for ingredient in try book.fetch(RecipeBook.ingredients(of: recipe.id!)).fetchedObjects { print(line(ingredient)) }
    case "delete":
        print("deleted \(try book.deleteRecipe(id: id(0)).name)")
    case "add-ingredient":
        let quantity = arguments.count > 3 ? Double(argument(3)) : nil
        let unit = arguments.count > 4 ? argument(4) : ""
        guard let position = Int(argument(1)) else { fail("not a position: \(argument(1))", code: 64) }
        let added = try book.add(Ingredient(recipeID: id(0), position: position, name: argument(2), quantity: quantity, unit: unit))
        print("added \(added.name)")
    case "watch":
        // A live controller over one recipe's ingredients: prints each change set that any process's
        // commits make (try `recipes DB add-ingredient …` in another terminal), for SECONDS (default 60).
        let controller = try book.track(RecipeBook.ingredients(of: id(0)))
        for ingredient in try controller.fetchedObjects { print(line(ingredient)) }
        let monitor = try ChangeMonitor(path: path)
        let seconds = arguments.count > 1 ? Double(argument(1)) ?? 60 : 60
        let watching = Task {
            for try await changes in controller.changeSets(from: monitor) {
                print(changes)
                for ingredient in try controller.fetchedObjects { print(line(ingredient)) }
            }
        }
        try await Task.sleep(for: .seconds(seconds))
        watching.cancel()
    default:
        fail(usage, code: 64)
    }
} catch {
    fail("\(error)")
}
