import Foundation
import RecordFormats
import Testing

/// Writing records and reading them back gives the same records, in every format, for texts in every
/// script and with every character a format must escape.
struct RoundTripTests {
    static func temporaryPath(_ name: String) -> String {
        NSTemporaryDirectory() + "record-formats-\(UUID().uuidString)-\(name)"
    }

    /// Writes `books` in `format` to a file and returns its path.
    static func write(_ books: [Book], _ format: DataFormat) throws -> String {
        let path = temporaryPath("books." + format.rawValue)
        let output = try ByteOutput(replacing: path)
        let writer = RecordWriter(format: format, layout: Book.layout, output: output)
        for book in books { try writer.write(book) }
        try writer.finish()
        try output.commit()
        return path
    }

    static func read(_ path: String, _ format: DataFormat) throws -> [Book] {
        let reader = RecordReader(rows: try RowReader(input: try ByteInput(path: path), format: format), layout: Book.layout)
        var books: [Book] = []
        while let book = try reader.next() { books.append(book) }
        return books
    }

    static func randomBooks(_ random: inout Random) -> [Book] {
        (0...random.below(20)).map { index in
            Book(
                id: random.below(4) == 0 ? nil : Int64(random.below(1_000_000)),
                title: HostileText.text(&random),
                pages: random.pick([0, 1, 7, 2007, Int(Int32.max), -3]),
                weight: random.pick([0, 0.5, 1299.99, 599, 1e-5, 123456789.125, 0.1 + 0.2, 1_000_000_000]))
        }
    }

    @Test(arguments: DataFormat.allCases)
    func randomRecordsComeBackIdentical(format: DataFormat) throws {
        var random = Random(state: 15)
        for _ in 0..<60 {
            let books = Self.randomBooks(&random)
            let path = try Self.write(books, format)
            defer { try? FileManager.default.removeItem(atPath: path) }
            let read = try Self.read(path, format)
            #expect(read.count == books.count)
            for (original, back) in zip(books, read) {
                #expect(back.isIdentical(to: original), "\(format): \(String(reflecting: original.title)) came back as \(String(reflecting: back.title))")
            }
        }
    }

    @Test func csvIsRFC4180() throws {
        let books = [Book(id: 1, title: "a, \"b\"\nc", pages: 2, weight: 1299.5), Book(id: nil, title: " x ", pages: 3, weight: 599)]
        let path = try Self.write(books, .csv)
        let text = String(decoding: try Data(contentsOf: URL(fileURLWithPath: path)), as: UTF8.self)
        #expect(text == "id,title,pages,weight\r\n1,\"a, \"\"b\"\"\nc\",2,1299.5\r\n,\" x \",3,599\r\n")
    }

    @Test func tsvEscapesTabsNewlinesAndBackslashes() throws {
        let path = try Self.write([Book(id: 1, title: "a\tb\nc\\d\re", pages: 2, weight: 0.25)], .tsv)
        let text = String(decoding: try Data(contentsOf: URL(fileURLWithPath: path)), as: UTF8.self)
        #expect(text == "id\ttitle\tpages\tweight\n1\ta\\tb\\nc\\\\d\\re\t2\t0.25\n")
    }

    @Test func jsonMatchesJSONEncoderAndJSONLinesHasOneObjectPerLine() throws {
        struct Encoded: Encodable {
            let id: Int64?
            let title: String
            let pages: Int
            let weight: Double
        }
        var random = Random(state: 7)
        let books = Self.randomBooks(&random).filter { !$0.title.unicodeScalars.contains { $0.value < 0x20 } }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        let expected = try encoder.encode(books.map { Encoded(id: $0.id, title: $0.title, pages: $0.pages, weight: $0.weight) })
        let path = try Self.write(books, .json)
        let written = try Data(contentsOf: URL(fileURLWithPath: path))
        // The same JSON values as Foundation's encoder (its number spelling may differ: 1e-05).
        let mine = try JSONSerialization.jsonObject(with: written) as? NSArray
        let theirs = try JSONSerialization.jsonObject(with: expected) as? NSArray
        #expect(mine == theirs)

        let lines = try Self.write(books, .jsonl)
        let text = String(decoding: try Data(contentsOf: URL(fileURLWithPath: lines)), as: UTF8.self)
        #expect(text.split(separator: "\n").count == books.count)
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
        try Data([0xEF, 0xBB, 0xBF] + Array("id,title,pages,weight\r\n1,x,2,3\r\n2,y,3,4".utf8)).write(to: URL(fileURLWithPath: path))
        #expect(try Self.read(path, .csv) == [Book(id: 1, title: "x", pages: 2, weight: 3), Book(id: 2, title: "y", pages: 3, weight: 4)])
    }
}
