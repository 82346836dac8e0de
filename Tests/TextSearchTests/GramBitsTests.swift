import SQLiteStore
import TestSupport
import Testing
@_spi(Testing) import TextSearch

/// The bits of very common 1-scalar grams (`SearchDescription.gramBitsTable`) equal the rows that
/// hold each gram, read from the texts as the definition says (bit `id & 63` of word `(id >> 6) & 3`
/// of the row `(gram, id >> 8)` is set exactly when the row of that id holds the gram), after the
/// set is chosen and after random inserts, updates and deletes through the triggers and through bulk
/// inserts; `indexProblems` finds a bit changed behind them; and a search mixing such a gram with a
/// longer term finds the same rows through the bits as through the grams index, which are the rows
/// holding every term.
struct GramBitsTests {
    static let items = SubstringCountsTests.items
    static let createTable = SubstringCountsTests.createTable

    /// The reference: per 1-scalar gram that is not a space, the ids of the rows whose texts (each
    /// read up to its first U+0000) hold it.
    static func holders(_ db: Database, _ description: SearchDescription = items) throws -> [String: Set<Int64>] {
        var holders: [String: Set<Int64>] = [:]
        let columns = ([description.idColumn] + description.textColumns).joined(separator: ", ")
        for (id, texts) in try db.fetchAll(sql: "SELECT \(columns) FROM \(description.table)", { row in
            (try row.decode(Int64.self, at: 0), try (1..<row.count).map { try row.decode(String.self, at: $0) })
        }) {
            for text in texts {
                for scalar in text.unicodeScalars.prefix(while: { $0.value != 0 }) where scalar != " " {
                    holders[String(scalar), default: []].insert(id)
                }
            }
        }
        return holders
    }

    /// The grams the definition chooses: those held by at least a sixteenth of the rows.
    static func chosen(_ db: Database, _ description: SearchDescription = items) throws -> [String: Set<Int64>] {
        let rows = try db.scalar(Int.self, sql: "SELECT count(*) FROM \(description.table)") ?? 0
        return try holders(db, description).filter { $0.value.count * 16 >= rows }
    }

    /// The table's bits, as the ids they set per gram (a gram whose bits are all 0 has an empty set).
    static func stored(_ db: Database, _ description: SearchDescription = items) throws -> [String: Set<Int64>] {
        var stored: [String: Set<Int64>] = [:]
        let sql = "SELECT gram, chunk, w0, w1, w2, w3 FROM \(description.gramBitsTable!)"
        for (gram, chunk, words) in try db.fetchAll(sql: sql, { row in
            (try row.decode(String.self, at: 0), try row.decode(Int64.self, at: 1), try (2...5).map { try row.decode(Int64.self, at: $0) })
        }) {
            stored[gram, default: []].formUnion([])
            for (index, word) in words.enumerated() {
                for bit in 0..<64 where UInt64(bitPattern: word) & (1 << UInt64(bit)) != 0 {
                    stored[gram]!.insert(chunk * 256 + Int64(index * 64 + bit))
                }
            }
        }
        return stored
    }

    /// The reference rows of the grams the table holds.
    static func expected(_ db: Database, _ description: SearchDescription = items, held: Set<String>) throws -> [String: Set<Int64>] {
        let holders = try holders(db, description)
        return Dictionary(uniqueKeysWithValues: held.map { ($0, holders[$0] ?? []) })
    }

    /// Whether `text`'s scalars hold `term`'s, consecutively.
    static func holds(_ text: String, _ term: String) -> Bool {
        let text = Array(text.unicodeScalars), term = Array(term.unicodeScalars)
        guard term.count <= text.count else { return false }
        return (0...(text.count - term.count)).contains { Array(text[$0..<$0 + term.count]) == term }
    }

    @Test func theChosenGramsAndTheirBitsFollowTheTriggers() throws {
        let directory = try TemporaryDirectory()
        let queue = try DatabaseQueue(path: directory.path())
        var random = SplitMix64(seed: 21)
        try queue.write { db in
            try db.execute(sql: Self.createTable + Self.items.installSQL)
            // Ids spread over many chunks, some in the same word, some at bit 63.
            for index in 1...400 { try SubstringCountsTests.insert(index % 7 == 0 ? 1_000 + 63 * index : index, &random, db) }
            try Self.items.refreshGramBits(db)
            let reference = try Self.chosen(db)
            #expect(reference.count > 10)
            #expect(reference.keys.contains { $0.unicodeScalars.first!.value > 0x3000 }, "a Japanese gram")
            #expect(try Self.stored(db) == reference)
            #expect(try Self.items.indexProblems(db).isEmpty)
        }
        for round in 0..<4 {
            try queue.write { db in
                let held = Set(try Self.stored(db).keys)
                try SubstringCountsTests.change(150, firstNewID: 100_000 * (round + 1), &random, db)
                #expect(Set(try Self.stored(db).keys) == held, "no trigger adds a gram")
                #expect(try Self.stored(db) == Self.expected(db, held: held), "round \(round)")
            }
        }
        // A change of id moves the row's bits (the other search structures' triggers do not follow
        // one: the bits alone are compared after it).
        try queue.write { db in
            let held = Set(try Self.stored(db).keys)
            try db.execute(sql: "UPDATE items SET id = id + 10000000 WHERE id IN (SELECT id FROM items ORDER BY id LIMIT 5)")
            #expect(try Self.stored(db) == Self.expected(db, held: held), "ids changed")
        }
    }

    @Test func bulkInsertsSetTheHeldGramsBitsOrChooseThemAgain() throws {
        let directory = try TemporaryDirectory()
        let queue = try SubstringCountsTests.emptyItems(in: directory)
        var random = SplitMix64(seed: 43)
        var nextID = 1
        func load(_ count: Int) throws { try SubstringCountsTests.bulkLoad(count, nextID: &nextID, &random, queue) }
        // Into an empty table (the first 20 rows through the triggers): the grams chosen after the load.
        try load(600)
        try queue.read { db in
            let reference = try Self.chosen(db)
            #expect(reference.count > 10)
            #expect(try Self.stored(db) == reference)
        }
        // Fewer rows than the table holds (rowid order puts kind first: chunks filled twice): the held
        // grams' bits set in Swift, the set kept.
        for _ in 0..<3 {
            let held = try queue.read { db in Set(try Self.stored(db).keys) }
            try load(150)
            let (stored, expected, problems) = try queue.read { db in
                (try Self.stored(db), try Self.expected(db, held: held), try Self.items.indexProblems(db))
            }
            #expect(Set(stored.keys) == held)
            #expect(stored == expected)
            #expect(problems.isEmpty, "\(problems)")
        }
        // A bit changed behind the triggers is found.
        try queue.write { db in
            try db.execute(sql: "UPDATE items_gram_bits SET w2 = (w2 | 4) - (w2 & 4) WHERE (gram, chunk) IN (SELECT gram, chunk FROM items_gram_bits LIMIT 1)")
        }
        let found = try queue.read { db in try Self.items.indexProblems(db) }
        #expect(found.count == 1 && found.first?.hasPrefix("items_gram_bits: 1 row of bits differs") == true, "\(found)")
    }

    /// Terms of both lengths, each common, forced through the intersection of both indexes: the same
    /// matches per kind with the bits, without them (the grams index), and by the definition.
    @Test func mixedSearchesFindTheSameRowsThroughTheBits() throws {
        let directory = try TemporaryDirectory()
        let queue = try DatabaseQueue(path: directory.path())
        var random = SplitMix64(seed: 65)
        var costs = SearchCosts.standard
        costs.denseRows = 1
        // `é`: less common, answered by the grams index where the others are answered by the bits.
        let queries = ["cafe m", "mac e", "e mac o", "デジタル カ", "カメラ デ", "pro a", "mac é", "strasse c", "uber a r"]
        try queue.write { db in
            try db.execute(sql: Self.createTable + Self.items.installSQL)
            for id in 1...500 { try SubstringCountsTests.insert(id, &random, db) }
            try Self.items.refreshGramBits(db)
            #expect(try Self.stored(db).keys.contains("e"))
        }
        func matches() throws -> [ScopeMatches?] {
            try queue.read { db in try queries.map { try Self.items.matchesPerScope(SearchQuery($0), costs: costs, db) } }
        }
        let withBits = try matches()
        // The definition: rows holding every term, per kind.
        let reference = try queue.read { db in
            try queries.map { text in
                let terms = SearchQuery(text).terms.map(\.folded)
                var perKind: [DatabaseValue: Set<Int64>] = [:]
                for (id, kind, name) in try db.fetchAll(sql: "SELECT id, kind, name_folded FROM items", { row in
                    (try row.decode(Int64.self, at: 0), row.databaseValue(at: 1), try row.decode(String.self, at: 2))
                }) where terms.allSatisfy({ Self.holds(name, $0) }) {
                    perKind[kind, default: []].insert(id)
                }
                return perKind
            }
        }
        for (index, text) in queries.enumerated() {
            let found = try #require(withBits[index], "\(text)")
            #expect(found.counts == reference[index].mapValues(\.count), "\(text)")
            #expect(found.ids.map { $0.mapValues(Set.init) } == reference[index], "\(text)")
        }
        try queue.write { db in try db.execute(sql: "DELETE FROM items_gram_bits") }
        #expect(try matches() == withBits)
    }

    /// Two text columns, texts holding a NUL, negative and large ids, an INTEGER scope, no scope
    /// values, as in `FilmSearchTests`.
    @Test func severalTextColumnsNULsAndNegativeIds() throws {
        let films = SearchDescription(table: "films", textColumns: ["title_folded", "director_folded"], numberColumns: ["year"], scopeColumn: "year", accelerators: [.substringCounts, .gramBits])
        let directory = try TemporaryDirectory()
        let queue = try DatabaseQueue(path: directory.path())
        var random = SplitMix64(seed: 87)
        func insert(_ id: Int, _ db: Database) throws {
            let director = SubstringCountsTests.name(&random)
            let folded = id % 17 == 0 ? director + "\0" + SubstringCountsTests.name(&random) : director
            try db.execute(
                sql: "INSERT INTO films VALUES (?, ?, ?, ?, ?, ?)",
                arguments: [id, "t", SubstringCountsTests.name(&random), director, folded, 1990 + id % 3])
        }
        let ids = Array(-150 ... -1) + Array(1...100) + (1...50).map { (1 << 40) + 97 * $0 }
        try queue.write { db in
            try db.execute(sql: FilmSearchTests.createTable + films.installSQL)
            for id in ids { try insert(id, db) }
            try films.refreshGramBits(db)
            let reference = try Self.chosen(db, films)
            #expect(reference.count > 10)
            #expect(try Self.stored(db, films) == reference)
            #expect(try films.indexProblems(db).isEmpty)
            let held = Set(reference.keys)
            try db.execute(sql: "UPDATE films SET director_folded = title_folded || ' ' || director_folded WHERE id % 11 = 0")
            try db.execute(sql: "DELETE FROM films WHERE id % 5 = 0")
            #expect(try films.indexProblems(db).isEmpty)
            // (The other search structures' triggers do not follow a change of id: the bits alone checked.)
            try db.execute(sql: "UPDATE films SET id = -id - 1000 WHERE id % 13 = 0")
            #expect(try Self.stored(db, films) == Self.expected(db, films, held: held))
        }
    }
}
