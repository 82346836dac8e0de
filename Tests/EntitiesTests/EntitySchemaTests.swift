import Entities
import FetchedResults
import Foundation
import PostgreSQLSearch
import SQLiteStore
import Testing
import TestSupport

/// The table generated from a declaration, its typed migration steps, and the check at open, on each
/// engine. The expected columns are written by hand from the rules of `EntityTable` (a column per
/// attribute, its type from the Swift type, NOT NULL unless optional), not from the code.
struct EntitySchemaTests {
    typealias ColumnInfo = (type: String, notNull: Bool, defaultValue: String?)

    /// A change numbered 1 (the tables' creation) or below is a mistake in the code that lists the
    /// changes: the schema traps, rather than throw an error every embedder would have to `try!`.
    /// Version 0, which collides with no other migration, so only the schema's own check traps.
    @Test func aChangeAtVersionOneOrBelowTraps() async {
        await #expect(processExitsWith: .failure) {
            _ = EntitySchema(identity: "org.example.mistake", tables: [], changes: [Migration(version: 0, name: "early", sql: "")])
        }
    }

    /// Each column of `table` as the engine's catalog describes it.
    static func columns(_ table: String, _ db: some SQLConnection) throws -> [String: ColumnInfo] {
        let sql = db.dialect == .sqlite
            ? "SELECT name, type, \"notnull\", dflt_value FROM pragma_table_xinfo(?)"
            : """
            SELECT column_name::text, data_type::text, (is_nullable = 'NO')::int, column_default::text FROM information_schema.columns
            WHERE table_schema = current_schema() AND table_name = ?
            """
        let rows = try db.fetchAll(sql: sql, arguments: [table]) { row in
            (name: try row.decode(String.self, at: 0), info: (type: try row.decode(String.self, at: 1), notNull: try row.decode(Bool.self, at: 2),
             defaultValue: try row.decode(String?.self, at: 3)))
        }
        return Dictionary(uniqueKeysWithValues: rows.map { ($0.name, $0.info) })
    }

    /// The names of `table`'s indexes (`index`) or triggers (`trigger`), from the engine's catalog.
    static func names(_ kind: String, of table: String, _ db: some SQLConnection) throws -> Set<String> {
        let sql = switch (db.dialect, kind) {
        case (.sqlite, _): "SELECT name FROM sqlite_master WHERE type = '\(kind)' AND tbl_name = ?"
        case (.postgreSQL, "index"): "SELECT indexname::text FROM pg_indexes WHERE schemaname = current_schema() AND tablename = ?"
        case (.postgreSQL, _): "SELECT tgname::text FROM pg_trigger WHERE tgrelid = to_regclass(?) AND NOT tgisinternal"
        }
        return Set(try db.fetchAll(sql: sql, arguments: [table]) { try $0.decode(String.self, at: 0) })
    }

    @Test(arguments: StoreEngine.all) func theFirstMigrationCreatesTheDeclaredTable(engine: StoreEngine) throws {
        let store = try engine.makeStore()
        try Kitchen.now.migrate(store.writer)
        let (integer, text, real) = engine == .sqlite ? ("INTEGER", "TEXT", "REAL") : ("bigint", "text", "double precision")
        try store.writer.read { db in
            let columns = try Self.columns("dishes", db)
            let expected: [(String, String, Bool)] = [
                ("id", integer, engine == .postgreSQL), ("name", text, true), ("name_folded", text, true), ("cuisine", text, true),
                ("cuisine_folded", text, true), ("minutes", integer, true), ("vegetarian", integer, true),
                ("servings", integer, true), ("remarks", text, true), ("tasted", real, false),
            ]
            #expect(columns.count == expected.count)
            for (name, type, notNull) in expected {
                #expect(columns[name]?.type == type && columns[name]?.notNull == notNull, "\(name)")
            }
            #expect(columns["servings"]?.defaultValue == "2")
            #expect(try Self.columns("dish_steps", db)["dish_id"]?.type == integer)
            #expect(try Self.names("index", of: "dishes", db).contains("dishes_by_cuisine_name"))
            #expect(try Self.names("index", of: "dish_steps", db).contains("dish_steps_by_dish_id"))
            let trigger = engine == .sqlite ? "store_changes_dishes_insert" : "dishes_store_changes"
            #expect(try Self.names("trigger", of: "dishes", db).contains(trigger))
            // SQLite's search is an FTS5 table; PostgreSQL's, indexes on the table (SearchOnBothEnginesTests).
            if engine == .sqlite { #expect(try db.tableNames().contains("dishes_search")) }
        }
        // The typed steps found their changes made, and did nothing.
        #expect(try Kitchen.now.migrate(store.writer).isEmpty)
    }

    @Test(arguments: StoreEngine.all) func theTableEnforcesWhatTheDeclarationSays(engine: StoreEngine) throws {
        let store = try Kitchen.store(engine)
        let queue = store.writer
        var dish = Dish(name: "Oyakodon", minutes: 20)
        try queue.write { db in try dish.insert(db) }
        // Written past the library, the table still refuses what the declaration refuses.
        #expect(throws: (any Error).self) {
            try queue.write { db in try db.execute(sql: "INSERT INTO dishes(name, name_folded, cuisine, cuisine_folded, minutes, vegetarian, remarks) VALUES ('', '', '', '', 1, 0, '')", values: []) }
        }
        #expect(throws: (any Error).self) {
            try queue.write { db in try db.execute(sql: "INSERT INTO dishes(name, name_folded, cuisine, cuisine_folded, minutes, vegetarian, remarks) VALUES ('x', 'x', '', '', -1, 0, '')", values: []) }
        }
        var twin = Dish(name: "Oyakodon")
        #expect(throws: (any Error).self) { try queue.write { db in try twin.insert(db) } }
        // A search of the generated structures finds it.
        let controller = FetchedResultsController(request: FetchRequest<Dish>(searchText: "yako"), reader: queue)
        try controller.performFetch()
        #expect(try controller.fetchedObjects.map(\.name) == ["Oyakodon"])
    }

    /// A server store made when the search kept each row's grams in a column (`search_grams`, its
    /// counts then kept from it): opening it names the column and the step, which moves the grams to
    /// the index and counts them again; on SQLite the step does nothing.
    @Test(arguments: StoreEngine.all) func theGramsColumnOfAnOlderServerStoreMovesToTheIndex(engine: StoreEngine) throws {
        let store = try Self.expectRepaired(
            engine, by: .indexingSearchGrams(of: [Dish.self], version: 7),
            reason: "its search keeps its grams in column search_grams, as an older version did: add the step Migration.indexingSearchGrams(of:version:name:)"
        ) { db in
            try db.execute(sql: "ALTER TABLE dishes ADD COLUMN search_grams bigint[]; DELETE FROM dishes_gram_counts", values: [])
        }
        let columns = try store.writer.read { db in try Self.columns("dishes", db) }
        #expect(columns["search_grams"] == nil)
    }

    /// A server store whose grams index is an older version's (its PL/pgSQL function's index of
    /// integer keys, ``olderGramsIndexSQL(_:)``): opening it names the step, which, under another
    /// name, builds this version's index, drops the older function and counts the grams again; on
    /// SQLite the step does nothing.
    @Test(arguments: StoreEngine.all) func anOlderGramsIndexMovesToThisVersions(engine: StoreEngine) throws {
        let search = PostgreSQLTextSearch(Dish.searchDescription)
        let store = try Self.expectRepaired(
            engine, by: .indexingSearchGrams(of: [Dish.self], version: 7, name: "index_search_pairs"),
            reason: "its search's grams index is an older version's: add the step Migration.indexingSearchGrams(of:version:name:)"
        ) { db in
            try db.execute(sql: "DROP INDEX \(search.gramsIndex); \(Self.olderGramsIndexSQL(search)) DELETE FROM dishes_gram_counts", values: [])
            #expect(try search.gramsIndexState(db) == .older)
        }
        if engine == .postgreSQL {
            // The older version's function is gone with its index.
            let older = "SELECT count(*) FROM pg_proc WHERE oid = to_regprocedure('\(search.gramsFunction)(text[])')"
            let found = try store.writer.read { db in try db.fetchRows(sql: older, values: []) }
            #expect(found == [[.integer(0)]])
        }
    }

    /// A server store whose grams index was dropped (damage, not an older version): opening it says
    /// the index is missing, not that it is an older version's, and names the step that reinstalls
    /// the search, which builds it again; on SQLite the step rebuilds the same structures.
    @Test(arguments: StoreEngine.all) func aMissingGramsIndexIsSaidMissing(engine: StoreEngine) throws {
        let search = PostgreSQLTextSearch(Dish.searchDescription)
        _ = try Self.expectRepaired(
            engine, by: .reinstallingSearch(of: Dish.self, version: 7),
            reason: "its search's grams index dishes_search_grams_index is missing: add a migration step that reinstalls its search (Migration.reinstallingSearch(of:version:))"
        ) { db in
            try db.execute(sql: "DROP INDEX \(search.gramsIndex)", values: [])
            #expect(try search.gramsIndexState(db) == .missing)
        }
    }

    /// A store of `engine` with one dish; on a server, `damage` run on it, after which opening it
    /// throws `reason`. Then `step` (version 7) migrates it to a store whose schema checks clean, whose
    /// search on a server checks clean with this version's grams index, and which finds the dish again.
    static func expectRepaired(
        _ engine: StoreEngine, by step: Migration, reason: String, damage: (any SQLConnection) throws -> Void
    ) throws -> TestStore {
        let store = try Kitchen.store(engine)
        let queue = store.writer
        var dish = Dish(name: "Oyakodon", minutes: 20)
        try queue.write { db in try dish.insert(db) }
        let withStep = EntitySchema(identity: Kitchen.identity, tables: Kitchen.tables, changes: Kitchen.changes + [step])
        if engine == .postgreSQL {
            try queue.write { db in try damage(db) }
            #expect(throws: SchemaDifference(table: "dishes", reason: reason)) { try Kitchen.now.migrate(queue) }
        }
        #expect(try withStep.migrate(queue).map(\.version) == [7])
        let search = PostgreSQLTextSearch(Dish.searchDescription)
        try queue.read { db in
            try withStep.check(db)
            if engine == .postgreSQL { #expect(try search.check(db) == [] && search.gramsIndexState(db) == .current) }
        }
        let controller = FetchedResultsController(request: FetchRequest<Dish>(searchText: "y"), reader: queue)
        try controller.performFetch()
        #expect(try controller.fetchedObjects.map(\.name) == ["Oyakodon"])
        return store
    }

    /// The grams index an older version made (catalog migration 3, `index_search_grams`; main at
    /// 896bbdc), as its `installSQL` created it: a GIN index of a PL/pgSQL function of the row's
    /// texts that lists each scalar's integer key and each pair's (the first's value times 2²¹ plus
    /// the second's).
    static func olderGramsIndexSQL(_ search: PostgreSQLTextSearch) -> String {
        let texts = "ARRAY[" + search.description.textColumns.joined(separator: ", ") + "]::text[]"
        return """
            CREATE FUNCTION \(search.gramsFunction)(texts text[]) RETURNS bigint[]
                LANGUAGE plpgsql IMMUTABLE PARALLEL SAFE AS $$
                DECLARE
                    keys bigint[] := '{}';
                    t text;
                    c text;
                    key bigint;
                    previous bigint;
                BEGIN
                    FOREACH t IN ARRAY texts LOOP
                        CONTINUE WHEN t IS NULL;
                        previous := 0;
                        FOREACH c IN ARRAY string_to_array(t, NULL) LOOP
                            key := ascii(c);
                            keys := array_append(keys, key);
                            keys := array_append(keys, previous << 21 | key);
                            previous := key;
                        END LOOP;
                    END LOOP;
                    RETURN keys;
                END
                $$;
            CREATE INDEX \(search.gramsIndex) ON \(search.description.table) USING gin (\(search.gramsFunction)(\(texts)));
            """
    }

    @Test(arguments: StoreEngine.all) func typedStepsBringAnOlderStoreToTheDeclaration(engine: StoreEngine) throws {
        let store = try engine.makeStore()
        do {
            try Kitchen.before.migrate(store.writer)
            var old = DishBefore(name: "Crème brûlée", cuisine: "French", minutes: 60, vegetarian: true, notes: "torch")
            try store.writer.write { db in try old.insert(db) }
        }
        // Opened again, as the next release of the program opens it.
        let queue = try store.openAgain()
        #expect(try Kitchen.now.migrate(queue).map(\.version) == [2, 3, 4, 5, 6])
        let dish = try queue.read { db in try Dish.fetchAll(db) }
        #expect(dish.map(\.servings) == [2] && dish.map(\.remarks) == ["torch"] && dish.map(\.vegetarian) == [true])
        try queue.read { db in try Kitchen.now.check(db) }
    }

    @Test(arguments: StoreEngine.all) func aDeclarationChangedWithoutItsStepFailsAtOpenWithOneLine(engine: StoreEngine) throws {
        let store = try engine.makeStore()
        let queue = store.writer
        try Kitchen.before.migrate(queue)
        let withoutSteps = EntitySchema(identity: Kitchen.identity, tables: [EntityTable(Dish.self)])
        let error = #expect(throws: SchemaDifference.self) { try withoutSteps.migrate(queue) }
        #expect(error?.description == "table dishes does not match its declaration: column servings (attribute servings of Dish) is missing: add a migration step that adds it")
        #expect(error?.description.contains("\n") == false)
        // A step that adds the column without its rename: the old column is the next difference.
        let halfway = EntitySchema(
            identity: Kitchen.identity, tables: [EntityTable(Dish.self)], changes: [.addingAttribute("servings", of: Dish.self, version: 2)])
        #expect(throws: SchemaDifference(table: "dishes", reason: "column remarks (attribute remarks of Dish) is missing: add a migration step that adds it")) {
            try halfway.migrate(queue)
        }
    }

    @Test(arguments: StoreEngine.all) func aTypeOrNullabilityDifferenceIsNamed(engine: StoreEngine) throws {
        let store = try engine.makeStore()
        let queue = store.writer
        let (id, integer, text) = engine == .sqlite
            ? ("INTEGER PRIMARY KEY", "INTEGER", "TEXT") : ("bigint GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY", "bigint", "text")
        try queue.write { db in
            try db.execute(sql: "CREATE TABLE dishes (id \(id))", values: [])
            try db.execute(
                sql: "CREATE TABLE dish_steps (id \(id), dish_id \(integer) NOT NULL REFERENCES dishes(id) ON DELETE CASCADE, position \(text) NOT NULL, text \(text) NOT NULL)",
                values: [])
        }
        #expect(throws: SchemaDifference(table: "dish_steps", reason: "column position (attribute position of DishStep) is \(text) in the database, \(integer) in the declaration")) {
            try queue.read { db in try EntityTable(DishStep.self).check(db) }
        }
        try queue.write { db in
            try db.execute(sql: "DROP TABLE dish_steps", values: [])
            try db.execute(sql: "CREATE TABLE dish_steps (id \(id), dish_id \(integer), position \(integer) NOT NULL, text \(text) NOT NULL, extra \(text))", values: [])
        }
        #expect(throws: SchemaDifference(table: "dish_steps", reason: "column dish_id (attribute dishID of DishStep) is nullable in the database, NOT NULL in the declaration")) {
            try queue.read { db in try EntityTable(DishStep.self).check(db) }
        }
        #expect(throws: SchemaDifference(table: "tastings", reason: "the database has no such table (is its migration missing?)")) {
            try queue.read { db in try EntityTable(Tasting.self).check(db) }
        }
    }

    /// The table `Entity`'s declaration generates in `engine`'s dialect, with `original` replaced by
    /// `changed` in its SQL, checked against the declaration, in a store of its own (with a table
    /// `dishes` that a reference can name).
    func check<Entity: DeclaredEntity>(_ type: Entity.Type, _ engine: StoreEngine, replacing original: String, with changed: String) throws {
        let store = try engine.makeStore()
        let table = EntityTable(Entity.self)
        let sql = table.createSQL(dialect: engine == .sqlite ? .sqlite : .postgreSQL)
        #expect(sql.contains(original))
        try store.writer.writeWithoutTransaction { db in
            if ObjectIdentifier(Entity.self) != ObjectIdentifier(Dish.self) { try db.execute(sql: "CREATE TABLE dishes (id \(db.dialect.integerPrimaryKey))", values: []) }
            try db.execute(sql: sql.replacingOccurrences(of: original, with: changed), values: [])
        }
        try store.writer.read { db in try table.check(db) }
    }

    @Test(arguments: StoreEngine.all) func aDefaultDifferenceIsNamed(engine: StoreEngine) throws {
        #expect(throws: SchemaDifference(table: "dishes", reason: "column servings (attribute servings of Dish) has DEFAULT 3 in the database, DEFAULT 2 in the declaration")) {
            try check(Dish.self, engine, replacing: "DEFAULT 2", with: "DEFAULT 3")
        }
    }

    @Test(arguments: StoreEngine.all) func aCheckDifferenceIsNamed(engine: StoreEngine) throws {
        // PostgreSQL keeps a CHECK only in its own normalised form: whether there is one is compared there.
        if engine == .sqlite {
            #expect(throws: SchemaDifference(table: "dishes", reason: "column minutes (attribute minutes of Dish) has CHECK (minutes > 0) in the database, CHECK (minutes >= 0) in the declaration")) {
                try check(Dish.self, engine, replacing: "CHECK (minutes >= 0)", with: "CHECK (minutes > 0)")
            }
        }
        let declared = engine == .sqlite ? "CHECK (length(name) > 0)" : "CHECK (…)"
        #expect(throws: SchemaDifference(table: "dishes", reason: "column name (attribute name of Dish) has no CHECK in the database, \(declared) in the declaration")) {
            try check(Dish.self, engine, replacing: " CHECK (length(name) > 0)", with: "")
        }
    }

    @Test(arguments: StoreEngine.all) func aUniqueDifferenceIsNamed(engine: StoreEngine) throws {
        let text = engine == .sqlite ? "TEXT" : "text COLLATE \"C\""
        #expect(throws: SchemaDifference(table: "dishes", reason: "column name (attribute name of Dish) is not UNIQUE in the database, UNIQUE in the declaration")) {
            try check(Dish.self, engine, replacing: "name \(text) NOT NULL UNIQUE", with: "name \(text) NOT NULL")
        }
        #expect(throws: SchemaDifference(table: "dishes", reason: "column cuisine (attribute cuisine of Dish) is UNIQUE in the database, not UNIQUE in the declaration")) {
            try check(Dish.self, engine, replacing: "cuisine \(text) NOT NULL", with: "cuisine \(text) NOT NULL UNIQUE")
        }
    }

    @Test(arguments: StoreEngine.all) func aReferenceDifferenceIsNamed(engine: StoreEngine) throws {
        #expect(throws: SchemaDifference(table: "dish_steps", reason: "column dish_id (attribute dishID of DishStep) has REFERENCES dishes(id) ON DELETE RESTRICT in the database, REFERENCES dishes(id) ON DELETE CASCADE in the declaration")) {
            try check(DishStep.self, engine, replacing: "ON DELETE CASCADE", with: "ON DELETE RESTRICT")
        }
        #expect(throws: SchemaDifference(table: "dish_steps", reason: "column dish_id (attribute dishID of DishStep) has no REFERENCES in the database, REFERENCES dishes(id) ON DELETE CASCADE in the declaration")) {
            try check(DishStep.self, engine, replacing: " REFERENCES dishes(id) ON DELETE CASCADE", with: "")
        }
    }
}
