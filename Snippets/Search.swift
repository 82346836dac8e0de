// Search: indexed substring search of a table of your own, in any script.
import Foundation
import SQLiteStore
import TextSearch

// snippet.hide
let directory = FileManager.default.temporaryDirectory.appendingPathComponent("search-\(UUID().uuidString)")
try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
let queue = try DatabaseQueue(path: directory.appendingPathComponent("films.sqlite").path)
// snippet.show

// snippet.describe
// The folded title is searched; the year matches a search's numbers.
let films = SearchDescription(table: "films", textColumns: ["title_folded"], numberColumns: ["year"])
// snippet.end

// snippet.install
let schema = try MigrationSet(identity: "com.example.films", migrations: [
    Migration(version: 1, name: "create_films", sql: """
        CREATE TABLE films (
            id INTEGER PRIMARY KEY, title TEXT NOT NULL, title_folded TEXT NOT NULL, year INTEGER NOT NULL
        ) STRICT;
        """),
    // The index structures and the triggers that keep them, generated: its revision is that SQL;
    // then the frequent substrings whose counts are kept and the very common characters whose bits
    // are kept, chosen from the rows.
    Migration(version: 2, name: "search_films", revision: films.installSQL) { db in
        try db.execute(sql: films.installSQL)
        try films.refreshSubstringCounts(db)
        try films.refreshGramBits(db)
    },
])
_ = try queue.writeWithoutTransaction { db in try Migrator(sets: [schema]).migrate(db) }
// snippet.end

// snippet.write
try queue.write { db in
    for (title, year) in [("千と千尋の神隠し", 2001), ("Amélie", 2001), ("デジタル・モンスター", 1999), ("Ran", 1985)] {
        try db.execute(
            sql: "INSERT INTO films(title, title_folded, year) VALUES (?, ?, ?)",
            arguments: [title, TextFolding.fold(title), year])   // the caller writes the folded column
    }
}
// snippet.end

// snippet.page
let page = try queue.read { db in
    try films.page(
        SearchQuery("ﾃﾞｼﾞﾀﾙ"), order: SearchOrder(SQLFragment(sql: "films.title_folded, films.id")), limit: 20,
        selection: "films.title", db) { row in try row.decode(String.self, at: 0) }
}
print(page.records, page.totalCount)                    // ["デジタル・モンスター"] 1
// snippet.end

// snippet.condition
let found = try queue.read { db in
    // Every term must match: 2001 as a year, "amelie" ignoring case and accents.
    let condition = try films.condition(for: SearchQuery("AMELIE 2001"), alias: "films", db)
    return try db.fetchAll(sql: "SELECT title FROM films WHERE \(condition.sql)", arguments: condition.arguments) {
        try $0.decode(String.self, at: 0)
    }
}
let spirited = try queue.read { db in try films.count(SearchQuery("千"), db) }   // one character: 1
// snippet.end

// snippet.hide
precondition(page.records == ["デジタル・モンスター"] && page.totalCount == 1)
precondition(found == ["Amélie"] && spirited == 1)
try FileManager.default.removeItem(at: directory)
