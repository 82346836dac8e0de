import Foundation
import PostgreSQLStore
import SQLiteStore
import Synchronization
import TestSupport
import Testing

/// Maintained counts against their definition, on both engines: after any sequence of writes, the
/// counts of a pair are what `SELECT section, count(*) … GROUP BY section` says of the table now.
struct SectionCountsTests {
    /// Three counted expressions over one table: a plain column holding NULL and texts, an expression
    /// of another column, and a number (ordered by value, not as text).
    static let sections: [(expression: String, isText: Bool)] = [
        ("grp", true), ("upper(substr(name, 1, 1))", true), ("length(name)", false),
    ]

    private func makeStore(_ engine: StoreEngine) throws -> TestStore {
        let store = try engine.makeStore()
        try Self.createItems(store.writer)
        return store
    }

    /// The counted table, with three rows.
    private static func createItems(_ writer: any StoreWriter) throws {
        try writer.write { db in
            let text = db.dialect.columnType(.text) + (db.dialect == .postgreSQL ? " COLLATE \"C\"" : "")
            try db.execute(sql: "CREATE TABLE items(id \(db.dialect.integerPrimaryKey), name \(text) NOT NULL UNIQUE, grp \(text))", values: [])
            try db.execute(sql: "INSERT INTO items(name, grp) VALUES ('apple', 'a'), ('Avocado', NULL), ('banana', '2')", values: [])
            for section in Self.sections {
                try SectionCounts.installCounting(forTable: "items", section: section.expression, in: db)
            }
        }
    }

    /// The reference: a `GROUP BY` over the table in the section's order (SQLite's: NULL lowest, text
    /// by its bytes).
    private static func reference(_ section: (expression: String, isText: Bool), descending: Bool, _ db: some SQLConnection) throws -> [String] {
        let order = db.dialect.orderTerm(section.expression, descending: descending, isText: section.isText)
        return try db.fetchRows(sql: "SELECT \(section.expression), count(*) FROM items GROUP BY \(section.expression) ORDER BY \(order)", values: [])
            .map { "\($0[0]) \($0[1])" }
    }

    private static func counted(_ section: String, descending: Bool, _ db: some SQLConnection) throws -> [String] {
        let counts = try #require(try SectionCounts.counts(forTable: "items", section: section, descending: descending, in: db))
        return counts.map { "\($0.key) \(DatabaseValue.integer(Int64($0.count)))" }
    }

    private func expectCountsMatch(_ store: TestStore, _ comment: String) throws {
        try Self.expectCountsMatch(store.writer, comment)
    }

    private static func expectCountsMatch(_ writer: any StoreWriter, _ comment: String) throws {
        for section in Self.sections {
            for descending in [false, true] {
                let (counts, expected) = try writer.read { db in
                    (try Self.counted(section.expression, descending: descending, db), try Self.reference(section, descending: descending, db))
                }
                #expect(counts == expected, "\(section.expression): \(comment)")
            }
        }
        #expect(try writer.read { db in try SectionCounts.problems(db) } == [], "\(comment)")
    }

    @Test(arguments: StoreEngine.all) func countsFollowRandomWritesAndRollbacks(engine: StoreEngine) throws {
        let store = try makeStore(engine)
        var random = SplitMix64(seed: 16)
        let groups = ["NULL", "'a'", "'b'", "'1'", "'2'", "'10'"]
        let names = ["apple", "Avocado", "banana", "Blueberry", "cherry", "date", "Elder", "fig", "grape", "", "über"]
        // SQLite's `OR IGNORE`, PostgreSQL's `ON CONFLICT DO NOTHING` (a refused update fails the write).
        let (insert, ignoring, update) = engine == .sqlite
            ? ("INSERT OR IGNORE INTO", "", "UPDATE OR IGNORE") : ("INSERT INTO", " ON CONFLICT DO NOTHING", "UPDATE")
        for step in 0..<240 {
            let group = groups.randomElement(using: &random)!
            let name = names.randomElement(using: &random)! + String(Int.random(in: 0..<4, using: &random))
            let id = Int.random(in: 1..<30, using: &random)
            let sql = switch Int.random(in: 0..<8, using: &random) {
            case 0, 1: "\(insert) items(name, grp) VALUES ('\(name)', \(group))\(ignoring)"
            case 2: "\(insert) items(name, grp) VALUES ('\(name)x', \(group)), ('\(name)y', 'b'), ('\(name)long name', NULL)\(ignoring)"
            case 3: "\(update) items SET grp = \(group) WHERE id = \(id)"
            case 4: "\(update) items SET grp = \(group) WHERE id % 3 = \(id % 3)"
            case 5: "\(update) items SET name = '\(name)' WHERE id = \(id)"
            case 6: "\(update) items SET id = \(id + 30) WHERE id = \(id)"
            default: step % 2 == 0 ? "DELETE FROM items WHERE id = \(id)" : "DELETE FROM items WHERE id % 5 = \(id % 5)"
            }
            let rollsBack = step % 7 == 0
            do {
                try store.writer.write { db in
                    try db.execute(sql: sql, values: [])
                    if rollsBack { throw CancellationError() }
                }
            } catch is CancellationError {
            } catch where engine == .postgreSQL {
                // A unique name or id refused: the whole statement is, with its counts.
            }
            try expectCountsMatch(store, sql)
        }
        if engine == .postgreSQL {
            try store.writer.write { db in try db.execute(sql: "TRUNCATE items", values: []) }
            try expectCountsMatch(store, "TRUNCATE")
        }
    }

    @Test(arguments: StoreEngine.all) func aFailedStatementLeavesTheCountsAsTheyWere(engine: StoreEngine) throws {
        let store = try makeStore(engine)
        #expect(throws: (any Error).self) {
            try store.writer.write { db in try db.execute(sql: "UPDATE items SET name = 'apple', grp = 'z' WHERE name = 'banana'", values: []) }
        }
        try expectCountsMatch(store, "failed update")
    }

    @Test(arguments: StoreEngine.all) func uncountedPairsAndDatabasesHaveNoCounts(engine: StoreEngine) throws {
        let plain = try engine.makeStore()
        try plain.writer.write { db in try db.execute(sql: "CREATE TABLE items(id \(db.dialect.integerPrimaryKey), grp text)", values: []) }
        #expect(try plain.writer.read { db in try SectionCounts.counts(forTable: "items", section: "grp", in: db) } == nil)

        let store = try makeStore(engine)
        let (otherSection, otherTable) = try store.writer.read { db in
            (try SectionCounts.counts(forTable: "items", section: "name", in: db),
             try SectionCounts.counts(forTable: "other", section: "grp", in: db))
        }
        #expect(otherSection == nil)
        #expect(otherTable == nil)
    }

    @Test(arguments: StoreEngine.all) func anEmptyCountedTableHasNoSections(engine: StoreEngine) throws {
        let store = try makeStore(engine)
        try store.writer.write { db in try db.execute(sql: "DELETE FROM items", values: []) }
        let counts = try store.writer.read { db in try SectionCounts.counts(forTable: "items", section: "grp", in: db) }
        #expect(counts?.isEmpty == true)
    }

    /// A column that no section names can be dropped: SQLite refuses to drop a column that a trigger
    /// names, and a trigger of an expression names only the columns of the expression.
    @Test(arguments: StoreEngine.all) func aColumnNoSectionNamesCanBeDropped(engine: StoreEngine) throws {
        let store = try engine.makeStore()
        try store.writer.write { db in
            let text = db.dialect.columnType(.text)
            try db.execute(sql: "CREATE TABLE notes(id \(db.dialect.integerPrimaryKey), name \(text) NOT NULL, remark \(text))", values: [])
            try db.execute(sql: "INSERT INTO notes(name, remark) VALUES ('apple', 'red'), ('Avocado', NULL)", values: [])
            try SectionCounts.installCounting(forTable: "notes", section: "upper(substr(name, 1, 1))", in: db)
            try db.execute(sql: "ALTER TABLE notes DROP COLUMN remark", values: [])
        }
        try store.writer.write { db in
            try db.execute(sql: "INSERT INTO notes(name) VALUES ('banana'), ('apricot')", values: [])
            try db.execute(sql: "UPDATE notes SET name = 'cherry' WHERE name = 'apple'", values: [])
        }
        let counts = try store.writer.read { db in try SectionCounts.counts(forTable: "notes", section: "upper(substr(name, 1, 1))", in: db) }
        #expect(counts?.map { "\($0.key) \($0.count)" } == ["\"A\" 2", "\"B\" 1", "\"C\" 1"])
        #expect(try store.writer.read { db in try SectionCounts.problems(db) } == [])
    }

    /// A pair counted again after its expression's type changed reads its keys as the new type, in
    /// its order (PostgreSQL keeps the type in the registry).
    @Test(arguments: StoreEngine.all) func aPairCountedAgainAfterItsTypeChangedHasKeysOfTheNewType(engine: StoreEngine) throws {
        let store = try engine.makeStore()
        try store.writer.write { db in
            for type in [db.dialect.columnType(.text), db.dialect.columnType(.integer)] {
                try db.execute(sql: "DROP TABLE IF EXISTS sizes", values: [])
                try db.execute(sql: "CREATE TABLE sizes(id \(db.dialect.integerPrimaryKey), size \(type))", values: [])
                try db.execute(sql: "INSERT INTO sizes(size) VALUES ('10'), ('9'), ('2'), ('10')", values: [])
                try SectionCounts.installCounting(forTable: "sizes", section: "size", in: db)
            }
        }
        let counts = try store.writer.read { db in try SectionCounts.counts(forTable: "sizes", section: "size", in: db) }
        #expect(counts?.map(\.key) == [.integer(2), .integer(9), .integer(10)])
        #expect(counts?.map(\.count) == [1, 1, 2])
    }

    /// The rows already there are counted by their key as the triggers count the rows written after:
    /// on PostgreSQL by the value's text, so `1.0` and `1.00` of a `numeric` are two keys.
    @Test(arguments: StoreEngine.all) func rowsAlreadyThereAreGroupedAsTheTriggersGroupThem(engine: StoreEngine) throws {
        let store = try engine.makeStore()
        try store.writer.write { db in
            try db.execute(sql: "CREATE TABLE prices(id \(db.dialect.integerPrimaryKey), price \(engine == .sqlite ? "REAL" : "numeric"))", values: [])
            try db.execute(sql: "INSERT INTO prices(price) VALUES (1.0), (1.00), (2.5)", values: [])
            try SectionCounts.installCounting(forTable: "prices", section: "price", in: db)
        }
        #expect(try store.writer.read { db in try SectionCounts.problems(db) } == [])
        try store.writer.write { db in try db.execute(sql: "DELETE FROM prices WHERE id = 2", values: []) }
        #expect(try store.writer.read { db in try SectionCounts.problems(db) } == [])
    }

    /// Two sections of a table whose name is long are counted apart: on PostgreSQL each by a function
    /// of its own (a name past 63 bytes would be cut, and the two functions would be one).
    @Test(arguments: StoreEngine.all) func twoSectionsOfALongNamedTableAreCountedApart(engine: StoreEngine) throws {
        let table = "items_whose_name_is_long_enough_to_fill_most_of_63_bytes"
        let store = try engine.makeStore()
        try store.writer.write { db in
            let text = db.dialect.columnType(.text)
            try db.execute(sql: "CREATE TABLE \(table)(id \(db.dialect.integerPrimaryKey), name \(text) NOT NULL, grp \(text))", values: [])
            for section in ["grp", "upper(substr(name, 1, 1))"] {
                try SectionCounts.installCounting(forTable: table, section: section, in: db)
            }
        }
        try store.writer.write { db in
            try db.execute(sql: "INSERT INTO \(table)(name, grp) VALUES ('apple', 'a'), ('Avocado', NULL), ('banana', 'a')", values: [])
            try db.execute(sql: "UPDATE \(table) SET grp = 'b' WHERE name = 'banana'", values: [])
            try db.execute(sql: "DELETE FROM \(table) WHERE name = 'apple'", values: [])
        }
        let counts = try store.writer.read { db in
            (try SectionCounts.counts(forTable: table, section: "grp", in: db), try SectionCounts.counts(forTable: table, section: "upper(substr(name, 1, 1))", in: db))
        }
        #expect(counts.0?.map { "\($0.key) \($0.count)" } == ["NULL 1", "\"b\" 1"])
        #expect(counts.1?.map { "\($0.key) \($0.count)" } == ["\"A\" 1", "\"B\" 1"])
        #expect(try store.writer.read { db in try SectionCounts.problems(db) } == [])
    }

    /// Overlapping transactions that count into the same keys, a new one included, lose no count:
    /// each writer's transaction holds its rows uncommitted while the others insert, update and delete
    /// in the same sections (each `INSERT … ON CONFLICT DO UPDATE` waits for the counts row's lock,
    /// then adds to the committed count). PostgreSQL only: SQLite's writers take turns for the whole
    /// transaction.
    @Test(.enabled(if: StoreEngine.all.contains(.postgreSQL), "CATALOG_TEST_ENGINE keeps SQLite only"))
    func overlappingWritersLoseNoCount() throws {
        let schema = try TestSchema()
        let cluster = try PostgreSQLCluster(PostgreSQLConfiguration(primary: schema.primary))
        defer { cluster.close() }
        try Self.createItems(cluster)
        let writers = 4
        let rounds = 25
        let failures = Mutex<[String]>([])
        DispatchQueue.concurrentPerform(iterations: writers) { writer in
            do {
                let db = try schema.connect()
                defer { db.close() }
                for round in 0..<rounds {
                    try db.inTransaction {
                        // Every writer adds to `shared` and to a key new in this round, then holds its
                        // locks a moment, so that the others' statements wait on them.
                        try db.execute(sql: "INSERT INTO items(name, grp) VALUES ($1, 'shared'), ($2, $3)", arguments: [
                            .text("w\(writer) r\(round) a"), .text("w\(writer) r\(round) b"), .text("new \(round)"),
                        ])
                        usleep(2_000)
                        if round % 3 == writer % 3 {
                            try db.execute(sql: "UPDATE items SET grp = 'moved' WHERE grp = 'shared' AND name LIKE $1", arguments: [.text("w\(writer) %")])
                        }
                        if round % 5 == 4 {
                            try db.execute(sql: "DELETE FROM items WHERE name = $1", arguments: [.text("w\(writer) r\(round - 1) b")])
                        }
                    }
                }
            } catch {
                failures.withLock { $0.append("writer \(writer): \(error)") }
            }
        }
        #expect(failures.withLock { $0 } == [])
        let total = try cluster.read { db in try SectionCounts.counts(forTable: "items", section: "grp", in: db) }
        #expect(total?.first { $0.key == .text("new 0") }?.count == writers)
        try Self.expectCountsMatch(cluster, "overlapping writers")
    }
}
