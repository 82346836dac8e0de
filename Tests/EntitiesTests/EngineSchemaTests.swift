import Entities
import Foundation
import PostgreSQLStore
import SQLiteStore
import Testing
import TestSupport

/// A jar of the pantry (not searchable, so that its table is made on both engines): a unique folded
/// label with a CHECK, text, numbers, a flag, a default, an optional date, an index by shelf.
struct Jar: DeclaredEntity, Hashable {
    var id: Int64?
    var label: String
    var shelf: String = ""
    var grams: Int = 100
    var sealed: Bool = false
    var servings: Int = 2
    var remarks: String = ""
    var opened: Date?

    static let declaration = EntityDeclaration<Jar>(
        table: "jars", template: Jar(label: ""), folding: { $0.lowercased() },
        attributes: [
            .text("label", \.label, folded: true, unique: true, sqlCheck: "length(label) > 0"),
            .text("shelf", \.shelf, folded: true),
            .value("grams", \.grams, sqlCheck: "grams >= 0"),
            .value("sealed", \.sealed),
            .value("servings", \.servings, default: 2),
            .text("remarks", \.remarks),
            .value("opened", \.opened),
        ],
        indexes: [EntityIndex(\.shelf, \.label, sectionedBy: \.shelf)])
}

/// The jar as first declared: no `servings`, `remarks` called `notes`, no index by shelf.
struct JarBefore: DeclaredEntity, Hashable {
    var id: Int64?
    var label: String
    var shelf: String = ""
    var grams: Int = 100
    var sealed: Bool = false
    var notes: String = ""
    var opened: Date?

    static let declaration = EntityDeclaration<JarBefore>(
        table: "jars", template: JarBefore(label: ""), folding: { $0.lowercased() },
        attributes: [
            .text("label", \.label, folded: true, unique: true, sqlCheck: "length(label) > 0"),
            .text("shelf", \.shelf, folded: true),
            .value("grams", \.grams, sqlCheck: "grams >= 0"),
            .value("sealed", \.sealed),
            .text("notes", \.notes),
            .value("opened", \.opened),
        ])
}

/// A spoon kept in a jar, deleted with it.
struct Spoon: DeclaredEntity, Hashable {
    var id: Int64?
    var jarID: Int64
    var size: Int

    static let declaration = EntityDeclaration<Spoon>(
        table: "spoons", template: Spoon(jarID: 0, size: 0), folding: { $0 },
        attributes: [.reference("jarID", \.jarID, to: Jar.self, onDelete: .cascade), .value("size", \.size)])
}

enum Pantry {
    static let identity = "org.example.pantry"
    static let before = EntitySchema(identity: identity, tables: [EntityTable(JarBefore.self)])
    static let now = EntitySchema(
        identity: identity, tables: [EntityTable(Jar.self), EntityTable(Spoon.self)],
        changes: [
            .addingAttribute("servings", of: Jar.self, version: 2),
            .renamingColumn("notes", to: "remarks", of: Jar.self, version: 3),
            .addingIndexes(of: Jar.self, version: 4),
            .creatingTable(EntityTable(Spoon.self), version: 5),
        ])
}

/// The generated schema, its typed steps, its check and the entities' writes and reads, the same
/// calls on both engines (`StoreEngine`). Expectations are written by hand from the rules of the
/// Defining an entity article (a column per attribute in snake case, `<column>_folded` for a folded
/// text) and from a model of the rows the test wrote, not from the code.
struct EngineSchemaTests {
    @Test(arguments: StoreEngine.all) func theFirstMigrationCreatesTheDeclaredTables(engine: StoreEngine) throws {
        let store = try engine.makeStore()
        try Pantry.now.migrate(store.writer)
        try store.writer.read { db in
            #expect(try db.columnNames(ofTable: "jars") == [
                "id", "label", "label_folded", "shelf", "shelf_folded", "grams", "sealed", "servings", "remarks", "opened",
            ])
            #expect(try db.columnNames(ofTable: "spoons") == ["id", "jar_id", "size"])
            #expect(try db.tableNames().contains("store_changes"))
            try Pantry.now.check(db)
        }
        // The typed steps found their changes made, and did nothing.
        #expect(try Pantry.now.migrate(store.writer).isEmpty)
        // The table refuses what the declaration refuses, written past the library too.
        #expect(throws: (any Error).self) {
            try store.writer.write { db in
                try db.execute(
                    sql: "INSERT INTO jars(label, label_folded, shelf, shelf_folded, grams, sealed, remarks) VALUES ('', '', '', '', 1, 0, '')",
                    values: [])
            }
        }
        // Every write to a tracked table is logged.
        var jar = Jar(label: "Honey")
        try store.writer.write { db in try jar.insert(db) }
        let logged = try store.writer.read { db in try db.fetchRows(sql: "SELECT row_id, kind FROM store_changes", values: []) }
        #expect(logged == [[.integer(jar.id!), .integer(1)]])
    }

    @Test(arguments: StoreEngine.all) func typedStepsBringAnOlderStoreToTheDeclaration(engine: StoreEngine) throws {
        let store = try engine.makeStore()
        try Pantry.before.migrate(store.writer)
        let opened = Date(timeIntervalSince1970: 450_000_000.25)
        var old = JarBefore(label: "Crème brûlée", shelf: "Top", grams: 250, sealed: true, notes: "torch", opened: opened)
        try store.writer.write { db in try old.insert(db) }
        #expect(try Pantry.now.migrate(store.writer).map(\.version) == [2, 3, 4, 5])
        let jars = try store.writer.read { db in try Jar.fetchAll(db) }
        #expect(jars == [Jar(id: old.id, label: "Crème brûlée", shelf: "Top", grams: 250, sealed: true, servings: 2, remarks: "torch", opened: opened)])
        try store.writer.read { db in try Pantry.now.check(db) }
    }

    @Test(arguments: StoreEngine.all) func aDeclarationChangedWithoutItsStepFailsWithOneLine(engine: StoreEngine) throws {
        let store = try engine.makeStore()
        try Pantry.before.migrate(store.writer)
        let withoutSteps = EntitySchema(identity: Pantry.identity, tables: [EntityTable(Jar.self)])
        #expect(throws: SchemaDifference(table: "jars", reason: "column servings (attribute servings of Jar) is missing: add a migration step that adds it")) {
            try withoutSteps.migrate(store.writer)
        }
    }

    @Test(arguments: StoreEngine.all) func aChangedDefaultUniqueOrReferenceIsNamed(engine: StoreEngine) throws {
        let remarks = engine == .sqlite ? #""remarks" TEXT NOT NULL"# : #""remarks" text COLLATE "C" NOT NULL"#
        let cases: [(original: String, changed: String, reason: String)] = [
            ("DEFAULT 2", "DEFAULT 3", "column servings (attribute servings of Jar) has DEFAULT 3 in the database, DEFAULT 2 in the declaration"),
            (remarks, remarks + " UNIQUE",
             "column remarks (attribute remarks of Jar) is UNIQUE in the database, not UNIQUE in the declaration"),
            (" CHECK (grams >= 0)", "", "column grams (attribute grams of Jar) has no CHECK in the database, CHECK"),
        ]
        for (original, changed, reason) in cases {
            let store = try engine.makeStore()
            let sql = EntityTable(Jar.self).createSQL(dialect: engine == .sqlite ? .sqlite : .postgreSQL)
            #expect(sql.contains(original))
            try store.writer.writeWithoutTransaction { db in try db.execute(sql: sql.replacingOccurrences(of: original, with: changed), values: []) }
            let error = #expect(throws: SchemaDifference.self) { try store.writer.read { db in try EntityTable(Jar.self).check(db) } }
            #expect(error?.description.hasPrefix("table jars does not match its declaration: " + reason) == true, "\(error.map { "\($0)" } ?? "")")
        }
    }

    /// Defining an entity, Writing: a refused row whose error the transaction catches undoes only
    /// its own statement on SQLite, and the other writes commit; on PostgreSQL it aborts the whole
    /// transaction, which commits nothing (`25P02`). `insertUnlessConflicting` refuses nothing, and
    /// leaves the transaction usable on both.
    @Test(arguments: StoreEngine.all) func aCaughtRefusedRowKeepsTheOtherWritesOnlyOnSQLite(engine: StoreEngine) throws {
        let store = try engine.makeStore()
        try Pantry.now.migrate(store.writer)
        var honey = Jar(label: "Honey")
        try store.writer.write { db in try honey.insert(db) }
        let labels = { try store.writer.read { db in try Jar.fetchAll(db).map(\.label) } }

        let caught = Result {
            try store.writer.write { db in
                var salt = Jar(label: "Salt")
                try salt.insert(db)
                var twin = Jar(label: "Honey")
                do { try twin.insert(db) } catch {}
            }
        }
        switch engine {
        case .sqlite:
            #expect(throws: Never.self) { try caught.get() }
            #expect(try labels() == ["Honey", "Salt"])
        case .postgreSQL:
            #expect { try caught.get() } throws: { ($0 as? PostgreSQLError)?.sqlState == "25P02" }
            #expect(try labels() == ["Honey"])
        }

        try store.writer.write { db in
            var twin = Jar(label: "Honey")
            #expect(try !twin.insertUnlessConflicting(db))
            var pepper = Jar(label: "Pepper")
            try pepper.insert(db)
        }
        #expect(try labels().last == "Pepper")
    }

    @Test(arguments: StoreEngine.all) func writesAndReadsAgreeWithAModel(engine: StoreEngine) throws {
        let store = try engine.makeStore()
        try Pantry.now.migrate(store.writer)
        var model: [Int64: Jar] = [:]
        #expect(try store.writer.read { db in try Jar.isEmpty(db) })
        for (index, label) in ["Honey", "親子丼", "Crème brûlée", "Salt"].enumerated() {
            var jar = Jar(label: label, shelf: index % 2 == 0 ? "Top" : "Low", grams: index * 10, sealed: index % 2 == 1,
                          opened: index == 2 ? nil : Date(timeIntervalSince1970: Double(index) * 86_400.5))
            try store.writer.write { db in try jar.insert(db) }
            model[jar.id!] = jar
        }
        var twin = Jar(label: "Honey")
        #expect(try store.writer.write { db in try twin.insertUnlessConflicting(db) } == false)
        #expect(twin.id == nil)
        #expect(throws: (any Error).self) { try store.writer.write { db in try twin.insert(db) } }

        var salt = model.values.first { $0.label == "Salt" }!
        salt.grams = 999
        salt.remarks = "coarse"
        try store.writer.write { db in try salt.update(db) }
        model[salt.id!] = salt
        let honey = model.values.first { $0.label == "Honey" }!
        var spoon = Spoon(jarID: honey.id!, size: 3)
        try store.writer.write { db in try spoon.insert(db) }
        #expect(try store.writer.write { db in try Jar.delete(id: honey.id!, db) } == honey)
        model[honey.id!] = nil
        #expect(throws: EntityError.notFound(table: "jars", id: honey.id!)) { try store.writer.write { db in try honey.update(db) } }

        try store.writer.read { db throws in
            #expect(try Jar.fetchAll(db) == model.keys.sorted().map { model[$0]! })
            #expect(try Jar.fetchCount(db) == model.count)
            #expect(try Jar.fetchOne(id: salt.id!, db) == salt)
            #expect(try Jar.fetchOne(id: honey.id!, db) == nil)
            #expect(try Spoon.fetchCount(db) == 0)  // deleted with its jar
            #expect(try !Jar.isEmpty(db))
        }
    }
}
