import SQLiteStore
import TestSupport
import Testing
import TextSearch

/// Counts per scope value when the indexes' rowids carry the scope: a row whose value is none of
/// the description's scope values (rowid range 0) makes them unknown (nil), whether the scope
/// column's rows are counted (`SectionCounts`, which then tells that range holds nothing) or not.
struct ScopeCountsTests {
    static let items = SearchDescription(table: "items", textColumns: ["name_folded"], scopeColumn: "kind", scopeValues: ["a", "b"])

    @Test(arguments: [true, false])
    func aRowOfAnotherScopeValueMakesTheCountsUnknown(sectionsCounted: Bool) throws {
        let directory = try TemporaryDirectory()
        let queue = try DatabaseQueue(path: directory.path())
        try queue.write { db in
            try db.execute(sql: "CREATE TABLE items (id INTEGER PRIMARY KEY, kind TEXT, name_folded TEXT NOT NULL) STRICT;"
                + Self.items.installSQL)
            if sectionsCounted { try SectionCounts.installCounting(forTable: "items", section: "kind", in: db) }
            for (id, kind, name) in [(1, "a", "mac mini"), (2, "a", "imac"), (3, "b", "macbook"), (4, "b", "ipad")] {
                try db.execute(sql: "INSERT INTO items VALUES (?, ?, ?)", arguments: [id, kind, name])
            }
        }
        func counts(_ text: String) throws -> [DatabaseValue: Int]? {
            try queue.read { db in try Self.items.countsPerScope(SearchQuery(text), db) }
        }
        #expect(try counts("mac") == [.text("a"): 2, .text("b"): 1])
        #expect(try counts("ma") == [.text("a"): 2, .text("b"): 1])
        for kind: DatabaseValue in [.text("c"), .text("A")] {
            try queue.write { db in try db.execute(sql: "INSERT INTO items VALUES (5, ?, 'old mac')", arguments: [kind]) }
            #expect(try counts("mac") == nil, "a match of kind \(kind)")
            // No match of another kind: the counts are known.
            #expect(try counts("ipad") == [.text("b"): 1])
            try queue.write { db in try db.execute(sql: "DELETE FROM items WHERE id = 5") }
            #expect(try counts("mac") == [.text("a"): 2, .text("b"): 1])
        }
    }
}

/// Several terms of 3+ scalars are counted per scope value in one pass of the trigram index, which
/// reads their matches' ids (kept for the pages), up to the id list limit; past it, the counts alone.
struct SeveralLongTermsCountsTests {
    static let items = ScopeCountsTests.items

    @Test func theirMatchesComeWithTheirIds() throws {
        let directory = try TemporaryDirectory()
        let queue = try DatabaseQueue(path: directory.path())
        try queue.write { db in
            try db.execute(sql: "CREATE TABLE items (id INTEGER PRIMARY KEY, kind TEXT, name_folded TEXT NOT NULL) STRICT;"
                + Self.items.installSQL)
            for (id, kind, name) in [(1, "a", "mac mini"), (2, "a", "imac mini"), (3, "b", "macbook mini"), (4, "b", "ipad mini"),
                                     (5, "a", "mini"), (6, "b", "minimac")] {
                try db.execute(sql: "INSERT INTO items VALUES (?, ?, ?)", arguments: [id, kind, name])
            }
        }
        func matches(_ text: String) throws -> ScopeMatches? {
            try queue.read { db in try Self.items.matchesPerScope(SearchQuery(text), db) }
        }
        let macMini = try #require(try matches("mac mini"))
        #expect(macMini.counts == [.text("a"): 2, .text("b"): 2])
        #expect(macMini.ids?.mapValues { $0.sorted() } == [.text("a"): [1, 2], .text("b"): [3, 6]])
        // `ini` is inside `mini`: one term, counted per scope value without its ids.
        let mini = try matches("mini ini")
        #expect(mini?.counts == [.text("a"): 3, .text("b"): 3] && mini?.ids == nil)
        let none = try matches("mac ipad")
        #expect(none?.counts == [:] && none?.ids == [:])
        // A match of another scope value: unknown.
        try queue.write { db in try db.execute(sql: "INSERT INTO items VALUES (7, 'c', 'old mac mini')") }
        #expect(try matches("mac mini") == nil)
        let ipadMini = try matches("ipad mini")
        #expect(ipadMini?.counts == [.text("b"): 1] && ipadMini?.ids == [.text("b"): [4]])
    }

    @Test func pastTheIdListLimitOnlyTheCounts() throws {
        let directory = try TemporaryDirectory()
        let queue = try DatabaseQueue(path: directory.path())
        let rows = 30_001  // SearchCosts.idListLimit + 1
        try queue.write { db in
            try db.execute(sql: "CREATE TABLE items (id INTEGER PRIMARY KEY, kind TEXT, name_folded TEXT NOT NULL) STRICT;"
                + Self.items.installSQL)
            try db.execute(sql: """
                INSERT INTO items WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ?)
                    SELECT i, CASE WHEN i % 3 = 0 THEN 'b' ELSE 'a' END, 'mac mini' FROM n
                """, arguments: [rows])
        }
        let all = try queue.read { db in try Self.items.matchesPerScope(SearchQuery("mac mini"), db) }
        #expect(all?.counts == [.text("a"): rows - rows / 3, .text("b"): rows / 3] && all?.ids == nil)
        try queue.write { db in try db.execute(sql: "DELETE FROM items WHERE id = 1") }
        let fewer = try queue.read { db in try Self.items.matchesPerScope(SearchQuery("mac mini"), db) }
        #expect(fewer?.counts == [.text("a"): rows - 1 - rows / 3, .text("b"): rows / 3])
        #expect(fewer?.ids?.mapValues(\.count) == [.text("a"): rows - 1 - rows / 3, .text("b"): rows / 3])
    }
}
