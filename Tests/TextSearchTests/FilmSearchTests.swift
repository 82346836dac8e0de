import SQLiteStore
import TestSupport
import Testing
@_spi(Testing) import TextSearch

/// An embedder's entity, defined only here: films, searched on title and director, with the index
/// structures installed from ``SearchDescription/installSQL``. Searches against the brute-force
/// reference (folding by ``FoldingReference``), through inserts, updates and deletes.
struct FilmSearchTests {
    static let seed: UInt64 = 0xB00C

    struct Film: Equatable {
        var id: Int64
        var title: String
        var director: String
    }

    static func description(indexesShortTerms: Bool, scopeColumn: String? = nil) -> SearchDescription {
        SearchDescription(
            table: "films", textColumns: ["title_folded", "director_folded"], numberColumns: ["year"],
            scopeColumn: scopeColumn, indexesShortTerms: indexesShortTerms)
    }

    static let createTable = """
        CREATE TABLE films (
            id INTEGER PRIMARY KEY, title TEXT NOT NULL, title_folded TEXT NOT NULL,
            director TEXT NOT NULL, director_folded TEXT NOT NULL, year INTEGER NOT NULL
        ) STRICT;
        """

    /// Random films, random searches, random changes: the executor's pages, counts and conditions
    /// equal the reference's, with and without the grams index.
    @Test(arguments: [true, false])
    func searchesEqualTheReference(indexesShortTerms: Bool) throws {
        let directory = try TemporaryDirectory()
        let queue = try DatabaseQueue(path: directory.path())
        let films = Self.description(indexesShortTerms: indexesShortTerms)
        try queue.write { db in try db.execute(sql: Self.createTable + films.installSQL) }
        var random = SplitMix64(seed: Self.seed)
        var rows: [Int64: (film: Film, year: Int)] = [:]
        var nextID: Int64 = 1
        var failures = 0
        for round in 0..<25 where failures == 0 {
            try queue.write { db in
                for _ in 0..<12 {
                    switch random.next() % 5 {
                    case 0 where !rows.isEmpty:
                        let id = rows.keys.sorted()[Int(random.next() % UInt64(rows.count))]
                        try db.execute(sql: "DELETE FROM films WHERE id = ?", arguments: [id])
                        rows[id] = nil
                    case 1 where !rows.isEmpty:
                        let id = rows.keys.sorted()[Int(random.next() % UInt64(rows.count))]
                        let title = RandomTexts.text(&random)
                        try db.execute(
                            sql: "UPDATE films SET title = ?, title_folded = ? WHERE id = ?",
                            arguments: [title, TextFolding.fold(title), id])
                        rows[id]!.film.title = title
                    default:
                        let film = Film(id: nextID, title: RandomTexts.text(&random), director: RandomTexts.text(maxPieces: 2, &random))
                        let year = 1990 + Int(random.next() % 4)
                        try db.execute(
                            sql: "INSERT INTO films VALUES (?, ?, ?, ?, ?, ?)",
                            arguments: [film.id, film.title, TextFolding.fold(film.title), film.director, TextFolding.fold(film.director), year])
                        rows[film.id] = (film, year)
                        nextID += 1
                    }
                }
            }
            let queries = (0..<20).map { index in
                index % 4 == 0 ? String(1990 + Int(random.next() % 4)) : RandomTexts.text(maxPieces: 2, &random)
                    + (random.next() % 3 == 0 ? " " + RandomTexts.text(maxPieces: 1, &random) : "")
            }
            try FoldingReference.prepare(rows.values.flatMap { [$0.film.title, $0.film.director] } + queries.flatMap { SearchQuery($0).terms.map(\.text) })
            for text in queries where failures == 0 {
                let query = SearchQuery(text)
                let expected = rows.values.filter { row in
                    query.terms.allSatisfy { term in
                        let folded = Array(FoldingReference.folded(term.text).utf8)
                        return [row.film.title, row.film.director].contains { Self.contains(Array(FoldingReference.folded($0).utf8), folded) }
                            || term.number == Double(row.year)
                    }
                }.map(\.film.id).sorted()
                let context = "seed \(Self.seed) grams index \(indexesShortTerms) round \(round): \(String(reflecting: text))"
                let (page, count, viaCondition) = try queue.read { db in
                    // Terms of both lengths through both indexes, or through the rarest one.
                    var costs = SearchCosts.standard
                    costs.denseRows = round % 3 == 0 ? .max : 0
                    let page = try films.page(
                        query, order: SearchOrder(SQLFragment(sql: "films.id")), limit: 1_000, selection: "films.id", costs: costs, db
                    ) { try $0.decode(Int64.self, at: 0) }
                    // Through the driver, or (a driver as common as the row-check threshold) every term on the row.
                    var rowCheck = costs
                    rowCheck.commonRows = round % 2 == 0 ? 0 : .max
                    let condition = try films.condition(for: query, alias: "b", costs: rowCheck, db)
                    let ids = try db.fetchAll(
                        sql: "SELECT b.id FROM films b WHERE \(condition.sql) ORDER BY b.id", arguments: condition.arguments
                    ) { try $0.decode(Int64.self, at: 0) }
                    return (page, try films.count(query, db), ids)
                }
                if page.records != expected || page.totalCount != expected.count || count != expected.count || viaCondition != expected {
                    failures += 1
                    Issue.record("expected \(expected); page \(page.records) total \(page.totalCount), count \(count), condition \(viaCondition) — \(context)")
                }
            }
        }
    }

    /// Building the structures in bulk — from rows already there (``SearchDescription/buildSQL``, in
    /// SQL) and for rows a bulk insert added (``SearchDescription/build(forRowsAfter:_:)``, the grams
    /// in Swift) — gives what the triggers give when the same rows arrive one by one, and the triggers
    /// then update and delete what either built; with and without a scope (an INTEGER one, whose
    /// token is the hex of its text).
    @Test(arguments: [nil, "year"])
    func bulkBuildsEqualTheTriggers(scopeColumn: String?) throws {
        let directory = try TemporaryDirectory()
        let films = Self.description(indexesShortTerms: true, scopeColumn: scopeColumn)
        var random = SplitMix64(seed: Self.seed)
        let inserts = (1...300).map { id in
            let (title, director) = (RandomTexts.text(&random), RandomTexts.text(maxPieces: 2, &random))
            // Some empty directors, some texts with a NUL (where SQL's length() and substr() stop).
            let folded = id % 13 == 0 ? "" : id % 17 == 0 ? TextFolding.fold(director) + "\0" + "ab" : TextFolding.fold(director)
            return SQLFragment(
                sql: "INSERT INTO films VALUES (?, ?, ?, ?, ?, ?);",
                arguments: [id, title, TextFolding.fold(title), director, folded, 1990 + id % 4])
        }
        func contents(_ db: Database) throws -> [String] {
            try FullTextTokens.rowsByToken("films_grams", db)
                + db.fetchAll(sql: "SELECT * FROM films_gram_counts WHERE count > 0 ORDER BY 1, 2") { row in
                    (0..<row.count).map { "\(row.databaseValue(at: $0))" }.joined(separator: " ")
                }
                + db.fetchAll(sql: "SELECT rowid FROM films_search WHERE films_search MATCH 'ﾃﾞ' OR films_search MATCH 'デジタ' ORDER BY 1") {
                    String(try $0.decode(Int64.self, at: 0))
                }
        }
        let changes = [
            "UPDATE films SET title = 'ﾃﾞｼﾞﾀﾙ', title_folded = 'デジタル' WHERE id % 7 = 0",
            "UPDATE films SET director_folded = title_folded || ' ' || director_folded WHERE id % 11 = 0",
            "UPDATE films SET year = 2001 WHERE id % 3 = 0",
            "DELETE FROM films WHERE id % 5 = 0",
        ]
        let byTriggers = try DatabaseQueue(path: directory.path("triggers.sqlite"))
        let fromRows = try DatabaseQueue(path: directory.path("rows.sqlite"))
        let inBulk = try DatabaseQueue(path: directory.path("bulk.sqlite"))
        let viaTriggers = try byTriggers.write { db in
            try db.execute(sql: Self.createTable + films.installSQL)
            for insert in inserts { try db.execute(sql: insert.sql, arguments: insert.arguments) }
            for change in changes { try db.execute(sql: change) }
            return try contents(db)
        }
        let viaBuild = try fromRows.write { db in
            try db.execute(sql: Self.createTable)
            for insert in inserts { try db.execute(sql: insert.sql, arguments: insert.arguments) }
            for change in changes { try db.execute(sql: change) }
            try db.execute(sql: films.installSQL)
            return try contents(db)
        }
        try inBulk.write { db in try db.execute(sql: Self.createTable + films.installSQL) }
        // The first 100 rows through the triggers, the others in bulk; then the triggers change both.
        try inBulk.writeWithoutTransaction { db in
            try db.bulkInsert(into: "films", maintaining: [films.bulkInsertStructure], triggeredRows: 100) { bulk in
                for insert in inserts {
                    try bulk.willInsert()
                    try db.execute(sql: insert.sql, arguments: insert.arguments)
                }
                #expect(bulk.isSuspended)
            }
        }
        let viaBulkInsert = try inBulk.write { db in
            for change in changes { try db.execute(sql: change) }
            return try contents(db)
        }
        #expect(viaTriggers.count > 1_000)
        #expect(viaTriggers.contains { $0.hasPrefix("e38387: ") }, "the grams index holds デ")
        #expect(viaTriggers.contains { $0.hasPrefix("x") } == (scopeColumn != nil), "a scope token")
        #expect(viaTriggers == viaBuild)
        #expect(viaTriggers == viaBulkInsert)
        // And uninstalling leaves only the table.
        let left = try fromRows.write { db in
            try db.execute(sql: films.uninstallSQL)
            return try db.fetchAll(sql: "SELECT name FROM sqlite_master WHERE name LIKE 'films%' ORDER BY name") { try $0.decode(String.self, at: 0) }
        }
        #expect(left == ["films"])
    }

    static func contains(_ haystack: [UInt8], _ needle: [UInt8]) -> Bool {
        if needle.isEmpty { return true }
        guard needle.count <= haystack.count else { return false }
        return (0...(haystack.count - needle.count)).contains { haystack[$0..<($0 + needle.count)].elementsEqual(needle) }
    }
}
