import Foundation
import RecordFormats
import Testing

/// Writing records and reading them back gives the same records, in every format, for texts in every
/// script and with every character a format must escape.
struct RoundTripTests {
    static func temporaryPath(_ name: String) -> String {
        NSTemporaryDirectory() + "record-formats-\(UUID().uuidString)-\(name)"
    }

    /// Writes `films` in `format` to a file and returns its path.
    static func write(_ films: [Film], _ format: DataFormat) throws -> String {
        let path = temporaryPath("films." + format.rawValue)
        let output = try ByteOutput(replacing: path)
        let writer = RecordWriter(format: format, layout: Film.layout, output: output)
        for film in films { try writer.write(film) }
        try writer.finish()
        try output.commit()
        return path
    }

    static func read(_ path: String, _ format: DataFormat) throws -> [Film] {
        let reader = RecordReader(rows: try RowReader(input: try ByteInput(path: path), format: format), layout: Film.layout)
        var films: [Film] = []
        while let film = try reader.next() { films.append(film) }
        return films
    }

    static func randomFilms(_ random: inout Random) -> [Film] {
        (0...random.below(20)).map { index in
            Film(
                id: random.below(4) == 0 ? nil : Int64(random.below(1_000_000)),
                title: HostileText.text(&random),
                minutes: random.pick([0, 1, 7, 2007, Int(Int32.max), -3]),
                rating: random.pick([0, 0.5, 1299.99, 599, 1e-5, 123456789.125, 0.1 + 0.2, 1_000_000_000]))
        }
    }

    @Test(arguments: DataFormat.allCases)
    func randomRecordsComeBackIdentical(format: DataFormat) throws {
        var random = Random(state: 15)
        for _ in 0..<60 {
            let films = Self.randomFilms(&random)
            let path = try Self.write(films, format)
            defer { try? FileManager.default.removeItem(atPath: path) }
            let read = try Self.read(path, format)
            #expect(read.count == films.count)
            for (original, back) in zip(films, read) {
                #expect(back.isIdentical(to: original), "\(format): \(String(reflecting: original.title)) came back as \(String(reflecting: back.title))")
            }
        }
    }

    /// Records filling several of the reader's 64 KiB chunks, so that values are cut by a chunk's end
    /// (inside quotes, at a doubled quote, a CRLF, a character of several bytes, a TSV escape), come
    /// back identical, and a bad row after them is named by its true line: one past the file's
    /// line feeds (a quoted value's own included).
    @Test(arguments: [DataFormat.csv, .tsv])
    func recordsAcrossChunksComeBackIdenticalAndLinesCounted(format: DataFormat) throws {
        var random = Random(state: 21)
        var films: [Film] = []
        while films.count < 8_000 { films += Self.randomFilms(&random) }
        let path = try Self.write(films, format)
        defer { try? FileManager.default.removeItem(atPath: path) }
        var bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
        #expect(bytes.count > 3 * 65_536)
        let read = try Self.read(path, format)
        #expect(read.count == films.count)
        let first = films.indices.first { $0 >= read.count || !read[$0].isIdentical(to: films[$0]) }
        #expect(first == nil, "\(format): record \(first ?? 0), \(first.map { String(reflecting: films[$0].title) } ?? ""), came back otherwise")
        let line = bytes.count { $0 == 0x0A } + 1
        bytes += Array(["", "x", "y", "1"].joined(separator: format == .csv ? "," : "\t").utf8) + [0x0A]
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        do {
            _ = try Self.read(path, format)
            Issue.record("\(format): the bad row was read")
        } catch let error as RecordReadError {
            #expect(error.line == line && error.column == 3, "\(format): \(error)")
            #expect(error.description.contains("expected a whole number"))
        }
    }

    /// No records in CSV and TSV is the header alone, which reads back as no records (and still tells
    /// the record type by its columns).
    @Test(arguments: DataFormat.allCases)
    func noRecordsComeBackAsNoRecords(format: DataFormat) throws {
        let path = try Self.write([], format)
        defer { try? FileManager.default.removeItem(atPath: path) }
        #expect(try Self.read(path, format).isEmpty)
        if format.isTabular {
            let rows = try RowReader(input: try ByteInput(path: path), format: format)
            #expect(try rows.firstFieldNames() == Film.layout.fieldNames)
        }
    }

    @Test func csvIsRFC4180() throws {
        let films = [Film(id: 1, title: "a, \"b\"\nc", minutes: 2, rating: 1299.5), Film(id: nil, title: " x ", minutes: 3, rating: 599)]
        let path = try Self.write(films, .csv)
        let text = String(decoding: try Data(contentsOf: URL(fileURLWithPath: path)), as: UTF8.self)
        #expect(text == "id,title,minutes,rating\r\n1,\"a, \"\"b\"\"\nc\",2,1299.5\r\n,\" x \",3,599\r\n")
    }

    /// Every double quote is doubled, also one that a combining mark, a joiner or a variation
    /// selector follows (one character with it, for Swift), so the field reads back.
    @Test func csvDoublesEveryQuote() throws {
        let titles = ["\"\u{301}", "a\"\u{200D}b", "\"\u{FE0F},", "\"\u{3099}\""]
        let films = titles.map { Film(id: 1, title: $0, minutes: 2, rating: 0) }
        let path = try Self.write(films, .csv)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let text = String(decoding: try Data(contentsOf: URL(fileURLWithPath: path)), as: UTF8.self)
        let expected = "id,title,minutes,rating\r\n" + ["\"\"\"\u{301}\"", "\"a\"\"\u{200D}b\"", "\"\"\"\u{FE0F},\"", "\"\"\"\u{3099}\"\"\""]
            .map { "1,\($0),2,0\r\n" }.joined()
        #expect(Array(text.unicodeScalars) == Array(expected.unicodeScalars))
        #expect(try Self.read(path, .csv).map { Array($0.title.unicodeScalars) } == titles.map { Array($0.unicodeScalars) })
    }

    @Test func tsvEscapesTabsNewlinesAndBackslashes() throws {
        let path = try Self.write([Film(id: 1, title: "a\tb\nc\\d\re", minutes: 2, rating: 0.25)], .tsv)
        let text = String(decoding: try Data(contentsOf: URL(fileURLWithPath: path)), as: UTF8.self)
        #expect(text == "id\ttitle\tminutes\trating\n1\ta\\tb\\nc\\\\d\\re\t2\t0.25\n")
    }

    @Test func jsonMatchesJSONEncoderAndJSONLinesHasOneObjectPerLine() throws {
        struct Encoded: Encodable {
            let id: Int64?
            let title: String
            let minutes: Int
            let rating: Double
        }
        var random = Random(state: 7)
        let films = Self.randomFilms(&random).filter { !$0.title.unicodeScalars.contains { $0.value < 0x20 } }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        let expected = try encoder.encode(films.map { Encoded(id: $0.id, title: $0.title, minutes: $0.minutes, rating: $0.rating) })
        let path = try Self.write(films, .json)
        let written = try Data(contentsOf: URL(fileURLWithPath: path))
        // The same JSON values as Foundation's encoder (its number spelling may differ: 1e-05).
        let mine = try JSONSerialization.jsonObject(with: written) as? NSArray
        let theirs = try JSONSerialization.jsonObject(with: expected) as? NSArray
        #expect(mine == theirs)

        let lines = try Self.write(films, .jsonl)
        let text = String(decoding: try Data(contentsOf: URL(fileURLWithPath: lines)), as: UTF8.self)
        #expect(text.split(separator: "\n").count == films.count)
    }

    @Test func numbersAreWrittenAsStoredWithoutGroupingOrExponent() {
        #expect(FieldValue.decimal(599).text == "599")
        #expect(FieldValue.decimal(1299.99).text == "1299.99")
        #expect(FieldValue.decimal(1_000_000_000).text == "1000000000")
        #expect(FieldValue.decimal(0.00001).text == "0.00001")
        #expect(FieldValue.integer(2007).text == "2007")
    }

    @Test func aByteOrderMarkAndCRLFAreRead() throws {
        let path = Self.temporaryPath("bom.csv")
        try Data([0xEF, 0xBB, 0xBF] + Array("id,title,minutes,rating\r\n1,x,2,3\r\n2,y,3,4".utf8)).write(to: URL(fileURLWithPath: path))
        #expect(try Self.read(path, .csv) == [Film(id: 1, title: "x", minutes: 2, rating: 3), Film(id: 2, title: "y", minutes: 3, rating: 4)])
    }
}
