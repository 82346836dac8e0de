import SQLiteStore
import TestSupport
import Testing
@testable import TextSearch

/// Choosing both derived sets again in one pass over the texts (`refreshChosenSets`, what a bulk load
/// that chooses them runs) leaves the substring counts and the gram bits row for row as
/// `refreshSubstringCounts` then `refreshGramBits` leave them; and the held grams read from the bits'
/// primary key (`heldGramBitsGrams`) are those chosen by the definition, computed in SQL over the texts.
struct ChosenSetsRefreshTests {
    static let items = SubstringCountsTests.items
    /// Two text columns, texts holding a NUL, negative and large ids, an INTEGER scope, no scope
    /// values, as in `FilmSearchTests` (with a threshold low enough to choose substrings in 300 rows).
    static let films = SearchDescription(
        table: "films", textColumns: ["title_folded", "director_folded"], numberColumns: ["year"], scopeColumn: "year",
        substringCountMinimumRows: 4, accelerators: [.substringCounts, .gramBits])

    /// Every row of `table` in the order of all its columns, each as its values.
    static func rows(of table: String, _ db: Database) throws -> [[DatabaseValue]] {
        let count = try db.fetchAll(sql: "SELECT * FROM \(table) LIMIT 1") { $0.count }.first ?? 0
        let order = (1...max(1, count)).map(String.init).joined(separator: ", ")
        return try db.fetchAll(sql: "SELECT * FROM \(table) ORDER BY \(order)") { row in (0..<row.count).map(row.databaseValue(at:)) }
    }

    /// Both derived tables' rows.
    static func derivedRows(_ description: SearchDescription, _ db: Database) throws -> [[[DatabaseValue]]] {
        [try rows(of: description.substringCountsTable!, db), try rows(of: description.gramBitsTable!, db)]
    }

    /// Rows in both derived tables that no refresh would write, so that a refresh that wrote nothing
    /// would be seen.
    static func spoil(_ description: SearchDescription, scope: DatabaseValue, _ db: Database) throws {
        try db.execute(sql: "DELETE FROM \(description.substringCountsTable!)")
        try db.execute(sql: "DELETE FROM \(description.gramBitsTable!)")
        try db.execute(
            sql: "INSERT INTO \(description.substringCountsTable!)(substring, \(description.scopeColumn!), count) VALUES ('qqq', ?, 7)",
            arguments: [scope])
        try db.execute(sql: "INSERT INTO \(description.gramBitsTable!) VALUES ('q', 3, 1, 2, 3, 4)")
    }

    /// The separate refreshes' tables, then the single pass's after both tables are spoiled.
    static func separateAndSinglePass(_ description: SearchDescription, scope: DatabaseValue, _ db: Database) throws
        -> (separate: [[[DatabaseValue]]], single: [[[DatabaseValue]]])
    {
        try description.refreshSubstringCounts(db)
        try description.refreshGramBits(db)
        let separate = try derivedRows(description, db)
        try spoil(description, scope: scope, db)
        try description.refreshChosenSets(substringCounts: true, gramBits: true, db)
        return (separate, try derivedRows(description, db))
    }

    @Test func theSinglePassWritesWhatBothRefreshesWrite() throws {
        let directory = try TemporaryDirectory()
        let queue = try DatabaseQueue(path: directory.path())
        var random = SplitMix64(seed: 31)
        try queue.write { db in
            try db.execute(sql: SubstringCountsTests.createTable + Self.items.installSQL)
            // Ids spread over many chunks; the sets chosen over the first rows, then changed through the triggers.
            for index in 1...200 { try SubstringCountsTests.insert(index % 5 == 0 ? 2_000 + 97 * index : index, &random, db) }
            try Self.items.refreshSubstringCounts(db)
            try Self.items.refreshGramBits(db)
            try SubstringCountsTests.change(300, firstNewID: 100_000, &random, db)
            let (separate, single) = try Self.separateAndSinglePass(Self.items, scope: .text("a"), db)
            #expect(separate[0].count > 100, "substrings chosen")
            #expect(separate[1].count > 10, "grams with bits")
            #expect(single == separate)
            #expect(try Self.items.indexProblems(db).isEmpty)
        }
    }

    @Test func theSinglePassWritesWhatBothRefreshesWriteWithSeveralTextColumns() throws {
        let directory = try TemporaryDirectory()
        let queue = try DatabaseQueue(path: directory.path())
        var random = SplitMix64(seed: 53)
        try queue.write { db in
            try db.execute(sql: FilmSearchTests.createTable + Self.films.installSQL)
            let ids = Array(-150 ... -1) + Array(1...100) + (1...50).map { (1 << 40) + 97 * $0 }
            for id in ids {
                let director = SubstringCountsTests.name(&random)
                try db.execute(
                    sql: "INSERT INTO films VALUES (?, ?, ?, ?, ?, ?)",
                    arguments: [id, "t", SubstringCountsTests.name(&random), director,
                                id % 17 == 0 ? director + "\0" + SubstringCountsTests.name(&random) : director, 1990 + id % 3])
            }
            try db.execute(sql: "UPDATE films SET title_folded = '' WHERE id % 23 = 0")
            let (separate, single) = try Self.separateAndSinglePass(Self.films, scope: .integer(1990), db)
            #expect(separate[0].count > 100, "substrings chosen")
            #expect(separate[1].count > 10, "grams with bits")
            #expect(single == separate)
        }
    }

    /// A bulk load into an empty table and one that doubles it choose the sets in one pass; the two
    /// refreshes run after give the same rows.
    @Test func bulkLoadsThatChooseAgainWriteWhatBothRefreshesWrite() throws {
        let directory = try TemporaryDirectory()
        let queue = try SubstringCountsTests.emptyItems(in: directory)
        var random = SplitMix64(seed: 77)
        var nextID = 1
        for count in [300, 400] {
            try SubstringCountsTests.bulkLoad(count, nextID: &nextID, &random, queue)
            let loaded = try queue.read { db in try Self.derivedRows(Self.items, db) }
            let refreshed = try queue.write { db in
                try Self.items.refreshSubstringCounts(db)
                try Self.items.refreshGramBits(db)
                return try Self.derivedRows(Self.items, db)
            }
            #expect(loaded[0].count > 100 && loaded[1].count > 10)
            #expect(loaded == refreshed, "after \(nextID - 1) rows")
        }
    }

    /// The definition of the held grams, in SQL over the texts when the set was chosen: each
    /// 1-scalar gram that is not a space, read up to a text's first NUL (as `substr()` and `length()`
    /// read it), held by at least a sixteenth of the rows.
    static func chosenGrams(_ description: SearchDescription, _ db: Database) throws -> Set<String> {
        let texts = description.textColumns.map { "SELECT \(description.idColumn) AS id, CAST(\($0) AS TEXT) AS text FROM \(description.table)" }
        return Set(try db.fetchAll(sql: """
            WITH RECURSIVE texts(id, text) AS (\(texts.joined(separator: " UNION ALL "))),
            positions(id, text, n) AS (
                SELECT id, text, 1 FROM texts WHERE length(text) >= 1
                UNION ALL
                SELECT id, text, n + 1 FROM positions WHERE n < length(text)
            )
            SELECT gram FROM (SELECT DISTINCT id, substr(text, n, 1) AS gram FROM positions WHERE substr(text, n, 1) <> ' ')
            GROUP BY gram HAVING count(*) * \(SearchDescription.gramBitsMinimumShare) >= (SELECT count(*) FROM \(description.table))
            """) { try $0.decode(String.self, at: 0) })
    }

    /// The held grams as `heldGramBitsGrams` gives them.
    static func held(_ description: SearchDescription, _ db: Database) throws -> Set<String> {
        Set(try description.heldGramBitsGrams(db).map { String(Unicode.Scalar($0)!) })
    }

    @Test func theHeldGramsAreTheGramsChosen() throws {
        let directory = try TemporaryDirectory()
        let queue = try DatabaseQueue(path: directory.path())
        var random = SplitMix64(seed: 97)
        try queue.write { db in
            try db.execute(sql: SubstringCountsTests.createTable + Self.items.installSQL)
            try Self.items.refreshGramBits(db)
            #expect(try Self.held(Self.items, db).isEmpty, "an empty table holds no gram")
            // Emoji (beyond U+FFFF) common enough to be chosen.
            for id in 1...300 {
                try SubstringCountsTests.insert(id, &random, db)
                if id % 9 == 0 { try db.execute(sql: "UPDATE items SET name_folded = name_folded || ' 🍣' WHERE id = ?", arguments: [id]) }
            }
            try Self.items.refreshGramBits(db)
            let chosen = try Self.chosenGrams(Self.items, db)
            #expect(chosen.count > 10)
            #expect(chosen.contains("🍣"))
            #expect(try Self.held(Self.items, db) == chosen)
            // Changes through the triggers keep the set, and so does a gram whose rows are all deleted
            // (its bits all 0), while the gram counts move on.
            try SubstringCountsTests.change(200, firstNewID: 10_000, &random, db)
            try db.execute(sql: "DELETE FROM items WHERE name_folded LIKE '%🍣%'")
            #expect(try db.scalar(Int.self, sql: "SELECT count(*) FROM items_gram_bits WHERE gram = '🍣' AND w0 | w1 | w2 | w3 <> 0") == 0)
            #expect(try Self.held(Self.items, db) == chosen)
            #expect(try Self.chosenGrams(Self.items, db) != chosen, "the counts moved on")
            #expect(try Self.items.indexProblems(db).isEmpty)
        }
    }

    @Test func theHeldGramsAreTheGramsChosenWithSeveralTextColumns() throws {
        let directory = try TemporaryDirectory()
        let queue = try DatabaseQueue(path: directory.path())
        var random = SplitMix64(seed: 99)
        try queue.write { db in
            try db.execute(sql: FilmSearchTests.createTable + Self.films.installSQL)
            for id in -100...100 {
                let title = SubstringCountsTests.name(&random)
                try db.execute(
                    sql: "INSERT INTO films VALUES (?, ?, ?, ?, ?, ?)",
                    arguments: [id, "t", title, "d", id % 7 == 0 ? title + "\0" + "zzzz" : SubstringCountsTests.name(&random), 2000])
            }
            try Self.films.refreshGramBits(db)
            let chosen = try Self.chosenGrams(Self.films, db)
            #expect(chosen.count > 10)
            #expect(!chosen.contains("z"), "no gram after a NUL")
            #expect(try Self.held(Self.films, db) == chosen)
        }
    }
}
