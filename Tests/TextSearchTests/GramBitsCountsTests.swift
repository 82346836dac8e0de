import SQLiteStore
import TestSupport
import Testing
@testable import TextSearch

/// The matches per scope value of several terms of one scalar each, the last value counted as the
/// total of the bits less the others (`SearchDescription.gramBitsCountsPerScope`), equal the
/// definition: the rows whose folded name holds every term as a substring, a term that reads as a
/// number also matching a row whose year or price is that number, grouped by type.
struct GramBitsCountsTests {
    static let gadgets = SearchDescription(
        table: "gadgets", textColumns: ["name_folded"], numberColumns: ["year", "price"], scopeColumn: "type",
        scopeValues: ["desk", "phone", "tab"], accelerators: [.substringCounts, .gramBits])
    static let createTable = """
        CREATE TABLE gadgets (
            id INTEGER PRIMARY KEY, type TEXT NOT NULL, name_folded TEXT NOT NULL, year INTEGER, price REAL
        ) STRICT;
        """

    /// A name of 1-4 words from a few letters and digits (so that each is in at least a sixteenth of
    /// the names: the bits hold them), sometimes with an accented or Japanese word.
    static func name(_ random: inout SplitMix64) -> String {
        let pieces = ["a", "3", "b2", "x", "in", "a3", "33", "é", "カメラ", "pro", "2 le"]
        let count = 1 + Int(random.next() % 4)
        return TextFolding.fold((0..<count).map { _ in pieces[Int(random.next() % UInt64(pieces.count))] }.joined(separator: " "))
    }

    static func insert(_ id: Int, _ random: inout SplitMix64, _ db: Database) throws {
        let types = ["desk", "phone", "tab"]
        // Some rows hold 3 only as a year or a price (the numeric path), most none.
        let year: Int? = random.next() % 9 == 0 ? 3 : 1990 + Int(random.next() % 30)
        let price: Double? = random.next() % 11 == 0 ? 2 : nil
        try db.execute(
            sql: "INSERT INTO gadgets VALUES (?, ?, ?, ?, ?)",
            arguments: [id, types[Int(random.next() % 3)], name(&random), year, price])
    }

    /// The definition, per type.
    static func reference(_ text: String, _ db: Database) throws -> [DatabaseValue: Int] {
        let terms = SearchQuery(text).terms
        var counts: [DatabaseValue: Int] = [:]
        for (type, name, year, price) in try db.fetchAll(sql: "SELECT type, name_folded, year, price FROM gadgets", { row in
            (row.databaseValue(at: 0), try row.decode(String.self, at: 1), try row.decode(Double?.self, at: 2), try row.decode(Double?.self, at: 3))
        }) where terms.allSatisfy({ term in
            if GramBitsTests.holds(name, term.folded) { return true }
            guard let number = Double(term.folded) else { return false }
            return year == number || price == number
        }) {
            counts[type, default: 0] += 1
        }
        return counts
    }

    @Test func countsOfOneScalarTermsEqualTheDefinitionWithAndWithoutNumbersOnlyInColumns() throws {
        let directory = try TemporaryDirectory()
        let queue = try DatabaseQueue(path: directory.path())
        var random = SplitMix64(seed: 0x3A)
        // Ids over many chunks of bits, some far apart.
        try queue.write { db in
            try db.execute(sql: Self.createTable + Self.gadgets.installSQL)
            for index in 1...900 { try Self.insert(index % 5 == 0 ? 5_000 + 131 * index : index, &random, db) }
            try Self.gadgets.refreshGramBits(db)
        }
        let queries = ["3 a", "a 3", "a b", "3 3 a", "x a 3", "b 2", "é a", "a x b 3", "2 a", "a ﾃ", "z a", "3 a i", "2 le"]
        for phase in ["with rows holding 3 or 2 only as a number", "with every number in the names"] {
            try queue.read { db in
                for text in queries {
                    let expected = try Self.reference(text, db)
                    let perType = try Self.gadgets.countsPerScope(SearchQuery(text), db)
                    #expect(perType == expected, "\(text), \(phase)")
                    for type in ["desk", "phone", "tab"] {
                        let count = try Self.gadgets.count(SearchQuery(text), scope: .text(type), db)
                        #expect(count == expected[.text(type)] ?? 0, "\(text) in \(type)")
                    }
                    // The strategy itself, on the terms matched by their text alone.
                    let plan = SearchPlan(SearchQuery(text), Self.gadgets, matchesNumbers: false)
                    if phase.hasPrefix("with every"), let counts = try Self.gadgets.gramBitsCountsPerScope(plan, minimumEntries: 0, db) {
                        #expect(counts == expected, "\(text): through the bits")
                    }
                }
            }
            // Then no row holds a number outside its name.
            try queue.write { db in try db.execute(sql: "UPDATE gadgets SET year = 1999 WHERE year = 3; UPDATE gadgets SET price = NULL") }
        }
        try queue.read { db in
            for text in ["3 a", "a b", "x a 3"] {
                let plan = SearchPlan(SearchQuery(text), Self.gadgets, matchesNumbers: false)
                let counts = try Self.gadgets.gramBitsCountsPerScope(plan, minimumEntries: 0, db)
                #expect(counts != nil, "the bits hold every term of \(text)")
            }
        }
    }
}
