import SQLiteStore
import TestSupport
import Testing
@testable import TextSearch

/// A walk in list order (`idsInListOrder`) against its definition: the ids of the `wanted` matches
/// after `offset` in the list index's order (scope, text, id), written here from a sort of every row;
/// nil when its budget (entries, as instructions) ends before it finds them all.
struct ListOrderWalkTests {
    static let items = SearchDescription(
        table: "items", textColumns: ["name_folded"], scopeColumn: "kind", listIndex: "items_by_kind_name",
        scopeValues: ["a", "b"])

    /// `count` rows of random names of a few letters; kinds alternate.
    static func filled(_ count: Int, seed: UInt64) throws -> (DatabaseQueue, TemporaryDirectory, [(id: Int64, kind: String, name: String)]) {
        let directory = try TemporaryDirectory()
        let queue = try DatabaseQueue(path: directory.path())
        var random = SplitMix64(seed: seed)
        let rows: [(id: Int64, kind: String, name: String)] = (1...count).map { id in
            let name = String((0..<(1 + Int.random(in: 0..<6, using: &random))).map { _ in "abcxyz ".randomElement(using: &random)! })
            return (Int64(id), id % 2 == 0 ? "a" : "b", name)
        }
        try queue.write { db in
            try db.execute(sql: "CREATE TABLE items (id INTEGER PRIMARY KEY, kind TEXT, name_folded TEXT NOT NULL) STRICT;"
                + "CREATE INDEX items_by_kind_name ON items(kind, name_folded, id);" + Self.items.installSQL)
            for row in rows {
                try db.execute(sql: "INSERT INTO items VALUES (?, ?, ?)", arguments: [row.id, row.kind, row.name])
            }
        }
        return (queue, directory, rows)
    }

    @Test func aWalkWithEnoughBudgetFindsThePageInListOrder() throws {
        let (queue, _, rows) = try Self.filled(2_000, seed: 0x11A1C)
        var random = SplitMix64(seed: 0x3A1C)
        for _ in 0..<200 {
            let text = ["a", "x", "ab", "zy", "c a", "xyz", "b c"].randomElement(using: &random)!
            let scope: String? = [nil, "a", "b"].randomElement(using: &random)!
            let offset = Int.random(in: 0..<30, using: &random)
            let wanted = Int.random(in: 0..<40, using: &random)
            let terms = text.split(separator: " ").map(String.init)
            // The definition: every row of the scope in (kind, name, id) order, bytewise, holding every term.
            let expected = rows
                .filter { row in (scope.map { row.kind == $0 } ?? true) && terms.allSatisfy { row.name.contains($0) } }
                .sorted { a, b in
                    if a.kind != b.kind { return a.kind < b.kind }
                    if a.name != b.name { return Array(a.name.utf8).lexicographicallyPrecedes(Array(b.name.utf8)) }
                    return a.id < b.id
                }
                .dropFirst(offset).prefix(wanted).map(\.id)
            let ids = try queue.read { db in
                try Self.items.idsInListOrder(
                    SearchPlan(SearchQuery(text), Self.items), scope: scope.map { .text($0) }, wanted: wanted, offset: offset,
                    budget: 1_000_000, db)
            }
            if expected.count == wanted {
                #expect(ids == Array(expected), "\(text) in \(scope ?? "all"), \(wanted) after \(offset)")
            } else {
                #expect(ids == nil, "\(text) in \(scope ?? "all"): fewer than \(wanted) after \(offset)")
            }
        }
    }

    @Test func aWalkStopsWhenItsBudgetIsSpent() throws {
        let (queue, _, _) = try Self.filled(20_000, seed: 0xB0D6E7)
        try queue.write { db in try db.execute(sql: "INSERT INTO items VALUES (20001, 'a', 'zzzz rare')") }
        let plan = SearchPlan(SearchQuery("rare"), Self.items)
        // The only match sorts after every other name of its kind: a budget of a few entries ends first.
        let short = try queue.read { db in
            try Self.items.idsInListOrder(plan, scope: .text("a"), wanted: 1, offset: 0, budget: 100, db)
        }
        #expect(short == nil)
        let enough = try queue.read { db in
            try Self.items.idsInListOrder(plan, scope: .text("a"), wanted: 1, offset: 0, budget: 20_000, db)
        }
        #expect(enough == [20_001])
    }
}
