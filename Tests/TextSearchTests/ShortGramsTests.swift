import SQLiteStore
import TestSupport
import Testing
@testable import TextSearch

/// The grams document a bulk build computes in Swift against the SQL expression the triggers use
/// (``SearchDescription/gramsDocument(of:)``, run by SQLite), on random texts in many scripts, with
/// spaces, NUL characters, empty and NULL texts, and scope values of every storage class.
struct ShortGramsTests {
    @Test func theDocumentEqualsTheTriggersSQL() throws {
        let films = SearchDescription(table: "films", textColumns: ["title", "director"], scopeColumn: "kind")
        let queue = try DatabaseQueue(path: ":memory:")
        var random = SplitMix64(seed: 0x5EED)
        let extras = ["", " ", "a b", "  x", "ab\0cd", "\0", "é é", "ｱ ｲ"]
        let scopes: [DatabaseValue] = [.null, .text("portable"), .text(""), .text("東京"), .integer(2007), .integer(-3), .real(1.5), .blob(.init([0, 255]))]
        try queue.write { db in
            try db.execute(sql: "CREATE TABLE films(title, director, kind)")
            let insert = try db.makeStatement(sql: "INSERT INTO films VALUES (?, ?, ?)")
            let documents = try db.makeStatement(sql: "SELECT \(films.gramsDocument(of: "films")) FROM films")
            for round in 0..<400 {
                let title: DatabaseValue = round % 50 == 7 ? .null
                    : .text(round % 3 == 0 ? extras[round % extras.count] + RandomTexts.text(&random) : RandomTexts.text(&random))
                let director: DatabaseValue = .text(round % 2 == 0 ? RandomTexts.text(maxPieces: 2, &random) : extras[round % extras.count])
                let scope = scopes[round % scopes.count]
                try db.execute(sql: "DELETE FROM films")
                try insert.execute(arguments: StatementArguments(values: [title, director, scope]))
                let expected = try documents.fetchOne { try $0.decode(String.self, at: 0) }
                let scopeHex = try db.scalar(String.self, sql: "SELECT CASE WHEN kind IS NULL THEN NULL ELSE hex(kind) END FROM films")
                let texts = [title, director].map { value -> String? in if case .text(let text) = value { text } else { nil } }
                let document = Self.grams(texts).document(scopeHex: scopeHex)
                #expect(document == expected, "\(String(reflecting: texts)) scope \(scope)")
            }
        }
    }

    @Test func gramsAreDistinctInTheOrderOfTheirBytes() {
        let grams = Self.grams(["bab", "ab", nil, "ä\0zz"]).grams.map(\.text)
        #expect(grams == ["a", "ab", "b", "ba", "ä"])
        #expect(Self.grams(["a b"]).document(scopeHex: nil) == "61 62", "grams holding a space are left out")
        #expect(Self.grams([""]).document(scopeHex: "") == "x")
    }

    /// A row's scalars are each text's `unicodeScalars` up to its first U+0000, each text followed by
    /// a 0, a NULL text giving none: by the definition, on texts of 1-4 bytes a character.
    @Test func rowScalarsAreEachTextsScalarsUpToItsFirstNUL() {
        var random = SplitMix64(seed: 0x5CA1A5)
        let scalars = RowScalars()
        let extras = ["", "\0", "a\0b", "é\0東", "\u{10FFFF}\u{7F}\u{80}\u{7FF}\u{800}\u{FFFF}\u{10000}", "😀\0"]
        for round in 0..<300 {
            let texts: [String?] = (0..<3).map { place in
                if round % 5 == place { return nil }
                return round % 7 == place ? extras[round % extras.count] : RandomTexts.text(&random)
            }
            scalars.load(texts)
            var expected: [UInt32] = []
            for case let text? in texts {
                expected += text.unicodeScalars.prefix { $0 != "\0" }.map(\.value)
                expected.append(0)
            }
            #expect(scalars.values == expected, "\(texts)")
        }
    }

    /// The grams of `texts`, read as a bulk build reads a row's.
    static func grams(_ texts: [String?]) -> ShortGrams {
        let scalars = RowScalars()
        scalars.load(texts)
        return ShortGrams(scalars)
    }
}
