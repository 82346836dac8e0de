import SQLiteStore
import TestSupport
import Testing

/// Maintained counts against their definition: after any sequence of writes, the counts of a pair
/// are what `SELECT section, count(*) … GROUP BY section` says of the table now.
/// SQLite-only: counts kept by SQLite triggers.
struct SectionCountsTests {
    /// Two counted expressions over one table: a plain column holding NULL, integers and text, and an
    /// expression of another column.
    static let sections = ["grp", "upper(substr(name, 1, 1))"]

    private func makeQueue(_ directory: TemporaryDirectory) throws -> DatabaseQueue {
        let queue = try DatabaseQueue(path: directory.path())
        try queue.write { db in
            try db.execute(sql: "CREATE TABLE items(id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE, grp)")
            try db.execute(sql: "INSERT INTO items(name, grp) VALUES ('apple', 'a'), ('Avocado', NULL), ('banana', 2)")
            for section in Self.sections {
                try SectionCounts.installCounting(forTable: "items", section: section, in: db)
            }
        }
        return queue
    }

    /// The reference: a `GROUP BY` over the table, keys that count nothing left out.
    private func reference(_ section: String, descending: Bool, _ db: Database) throws -> [String] {
        try db.fetchAll(
            sql: "SELECT \(section), count(*) FROM items GROUP BY \(section) ORDER BY \(section) \(descending ? "DESC" : "ASC")"
        ) { row in "\(row.databaseValue(at: 0)) \(try row.decode(Int.self, at: 1))" }
    }

    private func counted(_ section: String, descending: Bool, _ db: Database) throws -> [String] {
        let counts = try #require(try SectionCounts.counts(forTable: "items", section: section, descending: descending, in: db))
        return counts.map { "\($0.key) \($0.count)" }
    }

    @Test func countsFollowRandomWritesAndRollbacks() throws {
        let directory = try TemporaryDirectory()
        let queue = try makeQueue(directory)
        var random = MMIXRandom(state: 16)
        let groups = ["NULL", "'a'", "'b'", "1", "2", "2.5", "x'00'"]
        let names = ["apple", "Avocado", "banana", "Blueberry", "cherry", "date", "Elder", "fig", "grape", "", "über"]
        for step in 0..<300 {
            let group = groups.randomElement(using: &random)!
            let name = names.randomElement(using: &random)! + String(Int.random(in: 0..<4, using: &random))
            let id = Int.random(in: 1..<30, using: &random)
            let sql = switch Int.random(in: 0..<6, using: &random) {
            case 0, 1: "INSERT OR IGNORE INTO items(name, grp) VALUES ('\(name)', \(group))"
            case 2: "UPDATE OR IGNORE items SET grp = \(group) WHERE id = \(id)"
            case 3: "UPDATE OR IGNORE items SET name = '\(name)' WHERE id = \(id)"
            case 4: "UPDATE OR IGNORE items SET id = \(id + 30) WHERE id = \(id)"
            default: "DELETE FROM items WHERE id = \(id)"
            }
            let rollsBack = step % 7 == 0
            do {
                try queue.write { db in
                    try db.execute(sql: sql)
                    if rollsBack { throw CancellationError() }
                }
            } catch is CancellationError {}
            for section in Self.sections {
                for descending in [false, true] {
                    let (counts, expected) = try queue.read { db in
                        (try counted(section, descending: descending, db), try reference(section, descending: descending, db))
                    }
                    #expect(counts == expected, "\(sql)")
                }
            }
        }
    }

    @Test func aFailedStatementLeavesTheCountsAsTheyWere() throws {
        let directory = try TemporaryDirectory()
        let queue = try makeQueue(directory)
        let failed = Result {
            try queue.write { db in try db.execute(sql: "UPDATE items SET name = 'apple', grp = 'z' WHERE name = 'banana'") }
        }
        #expect(throws: DatabaseError.self) { try failed.get() }
        let (counts, expected) = try queue.read { db in
            (try counted("grp", descending: false, db), try reference("grp", descending: false, db))
        }
        #expect(counts == expected)
    }

    @Test func uncountedPairsAndDatabasesHaveNoCounts() throws {
        let directory = try TemporaryDirectory()
        let plain = try DatabaseQueue(path: directory.path("plain.sqlite"))
        try plain.write { db in try db.execute(sql: "CREATE TABLE items(id INTEGER PRIMARY KEY, grp)") }
        let uninstalled = try plain.read { db in try SectionCounts.counts(forTable: "items", section: "grp", in: db) }
        #expect(uninstalled == nil)

        let queue = try makeQueue(directory)
        let (otherSection, otherTable) = try queue.read { db in
            (try SectionCounts.counts(forTable: "items", section: "name", in: db),
             try SectionCounts.counts(forTable: "other", section: "grp", in: db))
        }
        #expect(otherSection == nil)
        #expect(otherTable == nil)
    }

    @Test func anEmptyCountedTableHasNoSections() throws {
        let directory = try TemporaryDirectory()
        let queue = try makeQueue(directory)
        try queue.write { db in try db.execute(sql: "DELETE FROM items") }
        let counts = try queue.read { db in try SectionCounts.counts(forTable: "items", section: "grp", in: db) }
        #expect(counts?.isEmpty == true)
    }
}

/// Knuth's MMIX linear congruential generator: the same writes on every run.
private struct MMIXRandom: RandomNumberGenerator {
    var state: UInt64
    mutating func next() -> UInt64 {
        state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
        return state
    }
}
