import SQLiteStore
import TestSupport
import Testing
import TextSearch

/// The counts of frequent substrings (`SearchDescription.substringCountsTable`) equal a recount from
/// the rows, written from the definition (each row counted once per distinct substring of 3 to
/// `substringCountMaximumLength` scalars without a space that its text holds, per scope value), after
/// the set is chosen and after random inserts, updates and deletes through the triggers and through
/// bulk inserts, on texts in many scripts; and a search finds the same counts with and without them.
struct SubstringCountsTests {
    /// A low threshold, so that a few hundred rows choose many substrings.
    static let items = SearchDescription(
        table: "items", textColumns: ["name_folded"], scopeColumn: "kind", scopeValues: ["a", "b"],
        substringCountMinimumRows: 4, accelerators: [.substringCounts, .gramBits])
    static let createTable = "CREATE TABLE items (id INTEGER PRIMARY KEY, kind TEXT NOT NULL, name_folded TEXT NOT NULL) STRICT;"

    /// Words of several scripts (Latin with diacritics, Japanese, Hangul, emoji), folded when stored.
    static let words = [
        "café", "crème", "über", "straße", "jalapeño", "doppelgänger", "mañana", "smörgås", "élan", "coöp",
        "東京タワー", "携帯電話", "カメラ", "ﾃﾞｼﾞﾀﾙ", "デジタル", "炊飯器", "あいうえお",
        "삼성", "갤럭시노트", "한국어사전", "👍🏽👍🏽", "👨‍👩‍👧", "🇯🇵🇯🇵🇯🇵", "mac", "macbook", "pro",
    ]

    static func name(_ random: inout SplitMix64) -> String {
        let count = 1 + Int(random.next() % 3)
        let words = (0..<count).map { _ in
            let word = Self.words[Int(random.next() % UInt64(Self.words.count))]
            // Sometimes a word glued to a random piece, so that rarer substrings occur too.
            return random.next() % 4 == 0 ? word + RandomTexts.text(maxPieces: 2, &random) : word
        }
        return TextFolding.fold(words.joined(separator: " "))
    }

    /// The reference: rows per (substring, scope value) of every substring of 3 to the maximum
    /// scalars without a space of any of the texts (each read up to its first U+0000, where SQLite's
    /// `substr()` and `length()` stop), from the rows of `description`'s table.
    static func recount(_ db: Database, _ description: SearchDescription = items) throws -> [String: [String: Int]] {
        var counts: [String: [String: Int]] = [:]
        let maximum = SearchDescription.substringCountMaximumLength
        let columns = ([description.scopeColumn!] + description.textColumns).joined(separator: ", ")
        for (scope, texts) in try db.fetchAll(sql: "SELECT \(columns) FROM \(description.table)", { row in
            ("\(row.databaseValue(at: 0))", try (1..<row.count).map { try row.decode(String.self, at: $0) })
        }) {
            var held = Set<String>()
            for text in texts {
                let scalars = Array(text.unicodeScalars.prefix { $0.value != 0 })
                for start in scalars.indices {
                    for length in 3...maximum where start + length <= scalars.count {
                        let piece = scalars[start..<(start + length)]
                        if piece.contains(" ") { continue }
                        var substring = ""
                        substring.unicodeScalars.append(contentsOf: piece)
                        held.insert(substring)
                    }
                }
            }
            for substring in held { counts[substring, default: [:]][scope, default: 0] += 1 }
        }
        return counts
    }

    /// The table's rows counting more than 0, as (substring, scope value) → count.
    static func stored(_ db: Database, _ description: SearchDescription = items) throws -> [String: [String: Int]] {
        var counts: [String: [String: Int]] = [:]
        let sql = "SELECT substring, \(description.scopeColumn!), count FROM \(description.substringCountsTable!)"
        for (substring, scope, count) in try db.fetchAll(sql: sql, { row in
            (try row.decode(String.self, at: 0), "\(row.databaseValue(at: 1))", try row.decode(Int.self, at: 2))
        }) where count > 0 {
            counts[substring, default: [:]][scope] = count
        }
        return counts
    }

    /// The substrings the table holds (counting 0 or more).
    static func held(_ db: Database, _ description: SearchDescription = items) throws -> Set<String> {
        Set(try db.fetchAll(sql: "SELECT DISTINCT substring FROM \(description.substringCountsTable!)") { try $0.decode(String.self, at: 0) })
    }

    /// The reference counts of the substrings in `held`.
    static func expected(_ db: Database, _ description: SearchDescription = items, held: Set<String>) throws -> [String: [String: Int]] {
        try recount(db, description).filter { held.contains($0.key) }
    }

    static func insert(_ id: Int, _ random: inout SplitMix64, _ db: Database) throws {
        try db.execute(
            sql: "INSERT INTO items VALUES (?, ?, ?)", arguments: [id, random.next() % 2 == 0 ? "a" : "b", name(&random)])
    }

    /// A database in `directory` with the table `items` and its search structures, empty.
    static func emptyItems(in directory: TemporaryDirectory) throws -> DatabaseQueue {
        let queue = try DatabaseQueue(path: directory.path())
        try queue.write { db in try db.execute(sql: Self.createTable + Self.items.installSQL) }
        return queue
    }

    /// Inserts `count` random rows into `items` through a bulk insert (the first 20 through the
    /// triggers), with ids from `nextID` on.
    static func bulkLoad(_ count: Int, nextID: inout Int, _ random: inout SplitMix64, _ queue: DatabaseQueue) throws {
        try queue.writeWithoutTransaction { db in
            try db.bulkInsert(into: "items", maintaining: [Self.items.bulkInsertStructure], triggeredRows: 20) { bulk in
                for _ in 0..<count {
                    try bulk.willInsert()
                    try Self.insert(nextID, &random, db)
                    nextID += 1
                }
                #expect(bulk.isSuspended)
            }
        }
    }

    /// Random inserts, renames, changes of kind and deletes, through the triggers.
    static func change(_ count: Int, firstNewID: Int, _ random: inout SplitMix64, _ db: Database) throws {
        var nextID = firstNewID
        for _ in 0..<count {
            let ids = try db.fetchAll(sql: "SELECT id FROM items") { try $0.decode(Int.self, at: 0) }
            let id = ids.isEmpty ? nil : ids[Int(random.next() % UInt64(ids.count))]
            switch (random.next() % 4, id) {
            case (0, let id?): try db.execute(sql: "UPDATE items SET name_folded = ? WHERE id = ?", arguments: [name(&random), id])
            case (1, let id?): try db.execute(sql: "UPDATE items SET kind = CASE kind WHEN 'a' THEN 'b' ELSE 'a' END WHERE id = ?", arguments: [id])
            case (2, let id?): try db.execute(sql: "DELETE FROM items WHERE id = ?", arguments: [id])
            default:
                try insert(nextID, &random, db)
                nextID += 1
            }
        }
    }

    @Test func theChosenSetAndItsCountsFollowTheTriggers() throws {
        let directory = try TemporaryDirectory()
        let queue = try DatabaseQueue(path: directory.path())
        var random = SplitMix64(seed: 12)
        try queue.write { db in
            try db.execute(sql: Self.createTable + Self.items.installSQL)
            for id in 1...400 { try Self.insert(id, &random, db) }
            try Self.items.refreshSubstringCounts(db)
            // The set: exactly the substrings in at least 4 rows, each with its rows per kind.
            let reference = try Self.recount(db).filter { $0.value.values.reduce(0, +) >= 4 }
            #expect(reference.count > 100)
            #expect(reference.keys.contains { $0.unicodeScalars.contains { $0.value >= 0xAC00 && $0.value <= 0xD7A3 } }, "Hangul")
            #expect(reference.keys.contains { $0.unicodeScalars.contains { $0.value >= 0x1F300 } }, "emoji")
            #expect(reference.keys.contains("デジタル"), "half-width kana folded")
            #expect(try Self.held(db) == Set(reference.keys))
            #expect(try Self.stored(db) == reference)
        }
        for round in 0..<4 {
            try queue.write { db in
                let held = try Self.held(db)
                try Self.change(150, firstNewID: 1_000 * (round + 1), &random, db)
                #expect(try Self.held(db) == held, "no trigger adds a substring")
                #expect(try Self.stored(db) == Self.expected(db, held: held), "round \(round)")
            }
        }
    }

    @Test func bulkInsertsCountTheHeldSubstringsOrChooseThemAgain() throws {
        let directory = try TemporaryDirectory()
        let queue = try Self.emptyItems(in: directory)
        var random = SplitMix64(seed: 34)
        // Into an empty table (the first 20 rows through the triggers): the set chosen after the load.
        var nextID = 1
        func load(_ count: Int) throws { try Self.bulkLoad(count, nextID: &nextID, &random, queue) }
        try load(500)
        try queue.read { db in
            let reference = try Self.recount(db).filter { $0.value.values.reduce(0, +) >= 4 }
            #expect(reference.count > 100)
            #expect(try Self.stored(db) == reference)
        }
        // Fewer rows than the table holds: the held substrings counted in Swift, the set kept.
        for _ in 0..<3 {
            let held = try queue.read { db in try Self.held(db) }
            try load(120)
            try queue.write { db in
                #expect(try Self.held(db) == held)
                #expect(try Self.stored(db) == Self.expected(db, held: held))
                try Self.change(60, firstNewID: nextID, &random, db)
                nextID += 60
                #expect(try Self.stored(db) == Self.expected(db, held: held))
            }
        }
    }

    /// A bulk build reads the rows of each scope number apart (0 for values not among
    /// `scopeValues`), so that they reach the indexes in rowid order: with rows of every number
    /// interleaved by id, the structures are exact and every search counts as a scan does.
    @Test func aBulkLoadIndexesTheRowsOfEveryScopeNumber() throws {
        let directory = try TemporaryDirectory()
        let queue = try DatabaseQueue(path: directory.path())
        var random = SplitMix64(seed: 78)
        let kinds = ["b", "d", "a", "c"]
        try queue.writeWithoutTransaction { db in
            try db.execute(sql: Self.createTable + Self.items.installSQL)
            try db.bulkInsert(into: "items", maintaining: [Self.items.bulkInsertStructure], triggeredRows: 0) { bulk in
                for id in 1...400 {
                    try bulk.willInsert()
                    try db.execute(sql: "INSERT INTO items VALUES (?, ?, ?)", arguments: [id, kinds[id % 4], Self.name(&random)])
                }
            }
        }
        try queue.read { db in
            #expect(try Self.items.indexProblems(db).isEmpty)
            #expect(try Self.stored(db) == Self.recount(db).filter { $0.value.values.reduce(0, +) >= 4 })
            for text in ["caf", "東京", "mac", "e", "pro"] {
                let scanned = try db.scalar(Int.self, sql: "SELECT count(*) FROM items WHERE instr(name_folded, ?) > 0", arguments: [text])
                #expect(try Self.items.count(SearchQuery(text), db) == scanned, "\(text)")
            }
        }
    }

    @Test func searchesCountTheSameWithAndWithoutTheTable() throws {
        let directory = try TemporaryDirectory()
        let queue = try DatabaseQueue(path: directory.path())
        var random = SplitMix64(seed: 56)
        let queries = try queue.write { db in
            try db.execute(sql: Self.createTable + Self.items.installSQL)
            for id in 1...300 { try Self.insert(id, &random, db) }
            try Self.items.refreshSubstringCounts(db)
            return Array(try Self.held(db).prefix(60)) + ["zzz", "cafe", "東京タ", "갤럭시", "noexist"]
        }
        func counts() throws -> [[DatabaseValue: Int]?] {
            try queue.read { db in
                try queries.map { text in
                    let perScope = try Self.items.countsPerScope(SearchQuery(text), db)
                    let total = try Self.items.count(SearchQuery(text), db)
                    #expect(perScope.map { $0.values.reduce(0, +) } ?? total == total, "\(text)")
                    return perScope
                }
            }
        }
        let withTable = try counts()
        try queue.write { db in try db.execute(sql: "DELETE FROM items_substring_counts") }
        #expect(try counts() == withTable)
    }

    /// Two text columns, texts holding a NUL, an INTEGER scope, as in `FilmSearchTests`.
    @Test func severalTextColumnsAndNULs() throws {
        let films = SearchDescription(
            table: "films", textColumns: ["title_folded", "director_folded"], numberColumns: ["year"], scopeColumn: "year",
            substringCountMinimumRows: 3, accelerators: [.substringCounts, .gramBits])
        let directory = try TemporaryDirectory()
        let queue = try DatabaseQueue(path: directory.path())
        var random = SplitMix64(seed: 78)
        func insert(_ id: Int, _ db: Database) throws {
            let director = Self.name(&random)
            let folded = id % 17 == 0 ? director + "\0" + Self.name(&random) : director
            try db.execute(
                sql: "INSERT INTO films VALUES (?, ?, ?, ?, ?, ?)",
                arguments: [id, "t", Self.name(&random), director, folded, 1990 + id % 3])
        }
        try queue.write { db in
            try db.execute(sql: FilmSearchTests.createTable + films.installSQL)
            for id in 1...300 { try insert(id, db) }
            try films.refreshSubstringCounts(db)
            let reference = try Self.recount(db, films).filter { $0.value.values.reduce(0, +) >= 3 }
            #expect(reference.count > 100)
            #expect(try Self.stored(db, films) == reference)
            #expect(try films.indexProblems(db).isEmpty)
            let held = try Self.held(db, films)
            try db.execute(sql: "UPDATE films SET director_folded = title_folded || ' ' || director_folded WHERE id % 11 = 0")
            try db.execute(sql: "UPDATE films SET year = 2001 WHERE id % 3 = 0")
            try db.execute(sql: "DELETE FROM films WHERE id % 5 = 0")
            #expect(try Self.stored(db, films) == Self.expected(db, films, held: held))
        }
        let held = try queue.read { db in try Self.held(db, films) }
        try queue.writeWithoutTransaction { db in
            try db.bulkInsert(into: "films", maintaining: [films.bulkInsertStructure], triggeredRows: 10) { bulk in
                for id in 301...400 {
                    try bulk.willInsert()
                    try insert(id, db)
                }
                #expect(bulk.isSuspended)
            }
        }
        let (stored, expected, problems) = try queue.read { db in
            (try Self.stored(db, films), try Self.expected(db, films, held: held), try films.indexProblems(db))
        }
        #expect(stored == expected)
        #expect(problems.isEmpty, "\(problems)")
        // A count changed behind the triggers is found.
        try queue.write { db in
            try db.execute(sql: """
                UPDATE films_substring_counts SET count = count + 1
                WHERE (substring, year) IN (SELECT substring, year FROM films_substring_counts LIMIT 1)
                """)
        }
        let found = try queue.read { db in try films.indexProblems(db) }
        #expect(found.count == 1 && found.first?.hasPrefix("films_substring_counts: 1 count differs") == true, "\(found)")
    }
}
