import Entities
import FetchedResults
import Foundation
import SQLiteStore
import Testing
import TestSupport

/// The table generated from a declaration, its typed migration steps, and the check at open, on
/// real files. The expected columns are written by hand from the rules of `EntityTable` (a column per
/// attribute, its type from the Swift type, NOT NULL unless optional), not from the code.
struct EntitySchemaTests {
    let directory: TemporaryDirectory
    init() throws { directory = try TemporaryDirectory() }

    typealias ColumnInfo = (name: String, type: String, notNull: Bool, defaultValue: String?)

    static func columns(_ table: String, _ db: Database) throws -> [String: ColumnInfo] {
        let rows = try db.fetchAll(sql: "SELECT name, type, \"notnull\", dflt_value FROM pragma_table_xinfo(?)", arguments: [table]) { row in
            (name: try row.decode(String.self, at: 0), type: try row.decode(String.self, at: 1), notNull: try row.decode(Bool.self, at: 2),
             defaultValue: try row.decode(String?.self, at: 3))
        }
        return Dictionary(uniqueKeysWithValues: rows.map { ($0.name, $0) })
    }

    static func names(_ sql: String, _ db: Database) throws -> Set<String> {
        Set(try db.fetchAll(sql: sql) { try $0.decode(String.self, at: 0) })
    }

    @Test func theFirstMigrationCreatesTheDeclaredTable() throws {
        let queue = try DatabaseQueue(path: directory.path())
        try Kitchen.now.migrate(queue)
        try queue.read { db in
            let columns = try Self.columns("dishes", db)
            let expected: [(String, String, Bool)] = [
                ("id", "INTEGER", false), ("name", "TEXT", true), ("name_folded", "TEXT", true), ("cuisine", "TEXT", true),
                ("cuisine_folded", "TEXT", true), ("minutes", "INTEGER", true), ("vegetarian", "INTEGER", true),
                ("servings", "INTEGER", true), ("remarks", "TEXT", true), ("tasted", "REAL", false),
            ]
            #expect(columns.count == expected.count)
            for (name, type, notNull) in expected {
                #expect(columns[name]?.type == type && columns[name]?.notNull == notNull, "\(name)")
            }
            #expect(columns["servings"]?.defaultValue == "2")
            #expect(try Self.columns("dish_steps", db)["dish_id"]?.type == "INTEGER")
            let indexes = try Self.names("SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'dishes'", db)
            #expect(indexes.contains("dishes_by_cuisine_name"))
            #expect(try Self.names("SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'dish_steps'", db) == ["dish_steps_by_dish_id"])
            let triggers = try Self.names("SELECT name FROM sqlite_master WHERE type = 'trigger' AND tbl_name = 'dishes'", db)
            #expect(triggers.contains("store_changes_dishes_insert"))
            #expect(try Self.names("SELECT name FROM sqlite_master WHERE type = 'table'", db).contains("dishes_search"))
        }
        // The typed steps found their changes made, and did nothing.
        #expect(try Kitchen.now.migrate(queue).isEmpty)
    }

    @Test func theTableEnforcesWhatTheDeclarationSays() throws {
        let queue = try DatabaseQueue(path: directory.path())
        try Kitchen.now.migrate(queue)
        var dish = Dish(name: "Oyakodon", minutes: 20)
        try queue.write { db in try dish.insert(db) }
        // Written past the library, the table still refuses what the declaration refuses.
        #expect(throws: DatabaseError.self) {
            try queue.write { db in try db.execute(sql: "INSERT INTO dishes(name, name_folded, cuisine, cuisine_folded, minutes, vegetarian, remarks) VALUES ('', '', '', '', 1, 0, '')") }
        }
        #expect(throws: DatabaseError.self) {
            try queue.write { db in try db.execute(sql: "INSERT INTO dishes(name, name_folded, cuisine, cuisine_folded, minutes, vegetarian, remarks) VALUES ('x', 'x', '', '', -1, 0, '')") }
        }
        var twin = Dish(name: "Oyakodon")
        #expect(throws: DatabaseError.self) { try queue.write { db in try twin.insert(db) } }
        // A search of the generated structures finds it.
        let controller = FetchedResultsController(request: FetchRequest<Dish>(searchText: "yako"), reader: queue)
        try controller.performFetch()
        #expect(try controller.fetchedObjects.map(\.name) == ["Oyakodon"])
    }

    @Test func typedStepsBringAnOlderFileToTheDeclaration() throws {
        let path = directory.path()
        do {
            let queue = try DatabaseQueue(path: path)
            try Kitchen.before.migrate(queue)
            var old = DishBefore(name: "Crème brûlée", cuisine: "French", minutes: 60, vegetarian: true, notes: "torch")
            try queue.write { db in try old.insert(db) }
        }
        let queue = try DatabaseQueue(path: path)
        #expect(try Kitchen.now.migrate(queue).map(\.version) == [2, 3, 4, 5, 6])
        let dish = try queue.read { db in try Dish.fetchAll(db) }
        #expect(dish.map(\.servings) == [2] && dish.map(\.remarks) == ["torch"] && dish.map(\.vegetarian) == [true])
        try queue.read { db in try Kitchen.now.check(db) }
    }

    @Test func aDeclarationChangedWithoutItsStepFailsAtOpenWithOneLine() throws {
        let queue = try DatabaseQueue(path: directory.path())
        try Kitchen.before.migrate(queue)
        let withoutSteps = try EntitySchema(identity: Kitchen.identity, tables: [EntityTable(Dish.self)])
        let error = #expect(throws: SchemaDifference.self) { try withoutSteps.migrate(queue) }
        #expect(error?.description == "table dishes does not match its declaration: column servings (attribute servings of Dish) is missing: add a migration step that adds it")
        #expect(error?.description.contains("\n") == false)
        // A step that adds the column without its rename: the old column is the next difference.
        let halfway = try EntitySchema(
            identity: Kitchen.identity, tables: [EntityTable(Dish.self)], changes: [.addingAttribute("servings", of: Dish.self, version: 2)])
        #expect(throws: SchemaDifference(table: "dishes", reason: "column remarks (attribute remarks of Dish) is missing: add a migration step that adds it")) {
            try halfway.migrate(queue)
        }
    }

    @Test func aTypeOrNullabilityDifferenceIsNamed() throws {
        let queue = try DatabaseQueue(path: directory.path())
        try queue.write { db in
            try db.execute(sql: "CREATE TABLE dish_steps (id INTEGER PRIMARY KEY, dish_id INTEGER NOT NULL REFERENCES dishes(id) ON DELETE CASCADE, position TEXT NOT NULL, text TEXT NOT NULL)")
        }
        #expect(throws: SchemaDifference(table: "dish_steps", reason: "column position (attribute position of DishStep) is TEXT in the database, INTEGER in the declaration")) {
            try queue.read { db in try EntityTable(DishStep.self).check(db) }
        }
        try queue.write { db in try db.execute(sql: "DROP TABLE dish_steps; CREATE TABLE dish_steps (id INTEGER PRIMARY KEY, dish_id INTEGER, position INTEGER NOT NULL, text TEXT NOT NULL, extra TEXT)") }
        #expect(throws: SchemaDifference(table: "dish_steps", reason: "column dish_id (attribute dishID of DishStep) is nullable in the database, NOT NULL in the declaration")) {
            try queue.read { db in try EntityTable(DishStep.self).check(db) }
        }
        #expect(throws: SchemaDifference(table: "tastings", reason: "the database has no such table (is its migration missing?)")) {
            try queue.read { db in try EntityTable(Tasting.self).check(db) }
        }
    }

    /// The table `Entity`'s declaration generates, with `original` replaced by `changed` in its SQL,
    /// checked against the declaration, in a file of its own.
    func check<Entity: DeclaredEntity>(_ type: Entity.Type, replacing original: String, with changed: String) throws {
        let directory = try TemporaryDirectory()
        let queue = try DatabaseQueue(path: directory.path())
        let table = EntityTable(Entity.self)
        let sql = table.createSQL()
        #expect(sql.contains(original))
        try queue.write { db in try db.execute(sql: sql.replacingOccurrences(of: original, with: changed)) }
        try queue.read { db in try table.check(db) }
    }

    @Test func aDefaultDifferenceIsNamed() throws {
        #expect(throws: SchemaDifference(table: "dishes", reason: "column servings (attribute servings of Dish) has DEFAULT 3 in the database, DEFAULT 2 in the declaration")) {
            try check(Dish.self, replacing: "DEFAULT 2", with: "DEFAULT 3")
        }
    }

    @Test func aCheckDifferenceIsNamed() throws {
        #expect(throws: SchemaDifference(table: "dishes", reason: "column minutes (attribute minutes of Dish) has CHECK (minutes > 0) in the database, CHECK (minutes >= 0) in the declaration")) {
            try check(Dish.self, replacing: "CHECK (minutes >= 0)", with: "CHECK (minutes > 0)")
        }
        #expect(throws: SchemaDifference(table: "dishes", reason: "column name (attribute name of Dish) has no CHECK in the database, CHECK (length(name) > 0) in the declaration")) {
            try check(Dish.self, replacing: " CHECK (length(name) > 0)", with: "")
        }
    }

    @Test func aUniqueDifferenceIsNamed() throws {
        #expect(throws: SchemaDifference(table: "dishes", reason: "column name (attribute name of Dish) is not UNIQUE in the database, UNIQUE in the declaration")) {
            try check(Dish.self, replacing: "name TEXT NOT NULL UNIQUE", with: "name TEXT NOT NULL")
        }
        #expect(throws: SchemaDifference(table: "dishes", reason: "column cuisine (attribute cuisine of Dish) is UNIQUE in the database, not UNIQUE in the declaration")) {
            try check(Dish.self, replacing: "cuisine TEXT NOT NULL", with: "cuisine TEXT NOT NULL UNIQUE")
        }
    }

    @Test func aReferenceDifferenceIsNamed() throws {
        #expect(throws: SchemaDifference(table: "dish_steps", reason: "column dish_id (attribute dishID of DishStep) has REFERENCES dishes(id) ON DELETE RESTRICT in the database, REFERENCES dishes(id) ON DELETE CASCADE in the declaration")) {
            try check(DishStep.self, replacing: "ON DELETE CASCADE", with: "ON DELETE RESTRICT")
        }
        #expect(throws: SchemaDifference(table: "dish_steps", reason: "column dish_id (attribute dishID of DishStep) has no REFERENCES in the database, REFERENCES dishes(id) ON DELETE CASCADE in the declaration")) {
            try check(DishStep.self, replacing: " REFERENCES dishes(id) ON DELETE CASCADE", with: "")
        }
    }
}
