import SQLiteStore
import TestSupport
import Testing
import TextSearch

/// ``SearchDescription/indexProblems(foldedFrom:_:)`` on the embedder's films: silent on structures
/// kept by the triggers, and catching a difference in any structure derived from any text column,
/// the second (`director_folded`) included.
struct FilmIndexCheckTests {
    /// Films whose directors hold text no title holds (`zq`), so that the second column's grams are
    /// its own.
    func filmsDatabase(_ directory: TemporaryDirectory) throws -> (DatabaseQueue, SearchDescription) {
        let queue = try DatabaseQueue(path: directory.path())
        let films = FilmSearchTests.description(indexesShortTerms: true)
        var random = SplitMix64(seed: FilmSearchTests.seed)
        try queue.write { db in
            try db.execute(sql: FilmSearchTests.createTable + films.installSQL)
            for id in 1...60 {
                let title = RandomTexts.text(&random)
                let director = "zq " + RandomTexts.text(maxPieces: 2, &random)
                try db.execute(
                    sql: "INSERT INTO films VALUES (?, ?, ?, ?, ?, ?)",
                    arguments: [id, title, TextFolding.fold(title), director, TextFolding.fold(director), 2000])
            }
            try db.execute(sql: "DELETE FROM films WHERE id % 7 = 0")
            try db.execute(sql: "UPDATE films SET director = 'Ｚq ﾃﾞ', director_folded = ? WHERE id % 5 = 0", arguments: [TextFolding.fold("Ｚq ﾃﾞ")])
        }
        return (queue, films)
    }

    @Test func structuresKeptByTheTriggersHaveNoProblem() throws {
        let directory = try TemporaryDirectory()
        let (queue, films) = try filmsDatabase(directory)
        #expect(try queue.read { db in try films.indexProblems(foldedFrom: ["title", "director"], db) } == [])
    }

    /// The triggers' SQL reads a text up to its first NUL (`substr()`, `length()`): so does the recount.
    @Test func textsHoldingANULHaveNoProblem() throws {
        let directory = try TemporaryDirectory()
        let (queue, films) = try filmsDatabase(directory)
        try queue.write { db in
            for (id, title) in [(100, "ab\0cd"), (101, "\0zq"), (102, "x\0"), (103, "é\0é\0ü")] {
                try db.execute(
                    sql: "INSERT INTO films VALUES (?, ?, ?, ?, ?, ?)",
                    arguments: [id, title, TextFolding.fold(title), "zq", "zq", 2000])
            }
        }
        #expect(try queue.read { db in try films.indexProblems(db) } == [])
    }

    @Test(arguments: [
        ("INSERT INTO films_grams(films_grams, rowid, grams) VALUES ('delete', 3, '7A71')", "films_grams"),
        ("INSERT INTO films_grams(rowid, grams) VALUES (1000, '7A71')", "films_grams"),
        ("INSERT INTO films_grams(films_grams, rowid, grams) VALUES ('delete', 3, '7A71'); "
            + "INSERT INTO films_grams(rowid, grams) VALUES (1000, '7A71')", "films_grams"),
        ("UPDATE films_gram_counts SET count = count + 1 WHERE gram = 'zq'", "films_gram_counts"),
        ("DELETE FROM films_gram_counts WHERE gram = 'q '", "films_gram_counts"),
        ("UPDATE films SET director_folded = 'zq' WHERE id = 4", "films"),
    ])
    func aDifferenceInTheSecondColumnIsFound(change: String, table: String) throws {
        let directory = try TemporaryDirectory()
        let (queue, films) = try filmsDatabase(directory)
        try queue.write { db in
            try db.execute(sql: films.dropTriggersSQL)
            try db.execute(sql: change)
        }
        let problems = try queue.read { db in try films.indexProblems(foldedFrom: ["title", "director"], db) }
        // A changed folded text also changes what the derived structures should hold: several lines then.
        #expect(problems.contains { $0.hasPrefix(table + ":") }, "\(problems)")
        #expect(problems.count == 1 || table == "films", "\(problems)")
    }
}
