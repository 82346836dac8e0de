import Entities
import FetchedResults
import Foundation
import RecordFormats
import SQLiteStore

/// A recipe book: recipes and their ingredients in one SQLite file, opened once per process (one
/// pool: its writer writes, its readers read, fetch and track changes).
///
/// ```swift
/// let book = try RecipeBook(path: "recipes.sqlite")
/// try book.importFiles(["Seeds/recipes.csv", "Seeds/ingredients.csv"], keepingIDs: true)
/// let found = try book.recipes(matching: "brûlée")          // Crème brûlée
/// ```
public final class RecipeBook: Sendable {
    /// The schema: the tables generated from the declarations (migration 1), then the changes since
    /// the first release, as typed steps.
    public static let schema = EntitySchema(
        identity: "org.example.recipes", tables: [EntityTable(Recipe.self), EntityTable(Ingredient.self)],
        changes: [
            // Version 2 declared `servings`: files made by version 1 gain the column, their
            // recipes serving 2 (its default).
            .addingAttribute("servings", of: Recipe.self, version: 2),
        ])

    /// The file's connections.
    public let database: DatabasePool

    /// Opens the book at `path`, creating or migrating its tables, and checking them against the
    /// declarations.
    ///
    /// - Throws: `MigrationError` for a file of a newer version or changed migrations,
    ///   `SchemaDifference` for a table that is not what its declaration says; `DatabaseError`.
    public init(path: String) throws {
        database = try DatabasePool(path: path)
        try Self.schema.migrate(database)
    }

    // MARK: - Writing

    /// Saves a new recipe or ingredient and returns it with its id.
    ///
    /// - Throws: ``Refused`` for a bad field; `DatabaseError` (a taken name, a missing recipe).
    @discardableResult
    public func add<Entity: DeclaredEntity>(_ entity: Entity) throws -> Entity {
        var saved = entity
        try database.write { db in try saved.insert(db) }
        return saved
    }

    /// Deletes a recipe, and its ingredients with it.
    @discardableResult
    public func deleteRecipe(id: Int64) throws -> Recipe {
        try database.write { db in try Recipe.delete(id: id, db) }
    }

    // MARK: - Files

    /// Imports files of recipes and ingredients (JSON, JSON lines, CSV or TSV) in one transaction,
    /// read one record at a time: each file's entity is told by its fields (ingredients have a
    /// `recipeID`), a recipe with the name of a stored one updates it, and a bad record adds
    /// nothing at all. `progress` is called with the records stored so far every
    /// `EntityFiles.progressInterval` records.
    ///
    /// - Throws: `EntityFileError` naming the file, line, column and field at fault; `DatabaseError`.
    @discardableResult
    public func importFiles(_ paths: [String], keepingIDs: Bool = false, progress: ((Int) -> Void)? = nil) throws -> EntityFiles.Report {
        let sources = try paths.map { path in
            try EntitySource(path: path, of: nil, among: [Recipe.self, Ingredient.self], keepingIDs: keepingIDs)
        }
        return try EntityFiles.importSources(sources, progress: progress, into: database)
    }

    /// Writes every recipe or ingredient to a file, in the format its extension names.
    @discardableResult
    public func exportFile<Entity: DeclaredEntity>(_ path: String, of type: Entity.Type) throws -> Int {
        try Entity.exportFile(path, from: database)
    }

    // MARK: - Reading

    /// Recipes by cuisine, then name, in sections by cuisine.
    public static let byCuisine = FetchRequest<Recipe>(
        sortDescriptors: [SortDescriptor(\.cuisine), SortDescriptor(\.name)], sectionKeyPath: \Recipe.cuisine)

    /// The recipes that match `text`, by name: every term in the name or cuisine (ignoring case,
    /// diacritics and width, in any script) or, for a number, the minutes; of the given cuisines only,
    /// when `cuisines` is not nil.
    public func recipes(matching text: String, cuisines: [String]? = nil) throws -> [Recipe] {
        try fetch(Self.search(text, cuisines: cuisines)).fetchedObjects
    }

    /// The request of the recipes that match `text` (see ``recipes(matching:cuisines:)``), by name.
    public static func search(_ text: String, cuisines: [String]? = nil) -> FetchRequest<Recipe> {
        guard let cuisines else { return FetchRequest(sortDescriptors: [SortDescriptor(\.name)], searchText: text) }
        return FetchRequest(sortDescriptors: [SortDescriptor(\.name)], searchText: text, scope: \.cuisine, in: cuisines)
    }

    /// The ingredients of a recipe, in order.
    public static func ingredients(of recipeID: Int64) -> FetchRequest<Ingredient> {
        Ingredient.children(of: recipeID, \.recipeID, sortedBy: [SortDescriptor(\.position)])
    }

    /// The result of `request`, fetched.
    public func fetch<Entity: FetchableEntity>(_ request: FetchRequest<Entity>) throws -> FetchedResultsController<Entity> {
        let controller = FetchedResultsController(request: request, reader: database)
        try controller.performFetch()
        return controller
    }

    /// The result of `request`, tracking every commit to the file, from this process or another:
    /// `applyPendingChanges()`, or `changeSets(from:)` of a `ChangeMonitor`, gives its change sets.
    public func track<Entity: FetchableEntity>(_ request: FetchRequest<Entity>) throws -> FetchedResultsController<Entity> {
        let controller = FetchedResultsController(request: request, reader: database)
        try controller.startTracking()
        return controller
    }
}
