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
