import Foundation
import RecordFormats
import Testing

/// Malformed input gets one error line with its line (and column), never a crash or a partial read.
struct HostileInputTests {
    /// The error reading `bytes` as `format`, or nil when every record reads.
    static func error(_ bytes: [UInt8], _ format: DataFormat = .csv) -> RecordReadError? {
        do {
            let reader = RecordReader(rows: try RowReader(input: ByteInput(bytes: bytes), format: format), layout: Film.layout)
            while try reader.next() != nil {}
            return nil
        } catch let error as RecordReadError {
            return error
        } catch {
            Issue.record("unexpected \(error)")
            return nil
        }
    }

    static func error(_ text: String, _ format: DataFormat = .csv) -> RecordReadError? { error(Array(text.utf8), format) }

    @Test func csvSyntaxErrorsSayWhere() {
        let header = "title,minutes,rating\n"
        let cases: [(String, Int, String)] = [
            (header + "a,1,2\n\"unclosed,1,2\nb,1,2\n", 3, "no closing quote"),
            (header + "a\"b,1,2\n", 2, "a quote inside an unquoted field"),
            (header + "\"a\"b,1,2\n", 2, "goes on after its closing quote"),
            ("title,minutes\n", 1, "missing column rating"),
            ("title,minutes,rating,colour\n", 1, "unknown column colour"),
            ("", 1, "empty"),
            ("title,title,minutes\nx,y,1\n", 1, "appears twice"),
            (header + "a,1\n", 2, "2 values, but the header has 3 columns"),
            (header + "a,1,2\n\u{FEFF}b,1,2\n", 3, "byte-order mark"),
            (header + "a,x,2\n", 2, "expected a whole number"),
            (header + "a,1,1e\n", 2, "expected a number"),
            (header + "a,,2\n", 2, "missing value"),
            ("title,minutes\nx,1\n", 1, "missing column rating"),
            ("title,minutes,rating,colour\nx,1,2,red\n", 1, "unknown column colour"),
        ]
        for (text, line, reason) in cases {
            let error = Self.error(text)
            #expect(error?.line == line, "\(String(reflecting: text)): \(String(describing: error))")
            #expect(error?.description.contains(reason) == true, "\(String(reflecting: text)): \(String(describing: error))")
            #expect(error?.description.contains("\n") == false)
        }
    }

    @Test func invalidUTF8IsRefusedWithItsLine() {
        let bytes = Array("title,minutes,rating\nok,1,2\n".utf8) + [0xFF, 0xFE] + Array(",1,2\n".utf8)
        let error = Self.error(bytes)
        #expect(error?.line == 3)
        #expect(error?.column == 1)
        #expect(error?.description == "line 3, column 1 (title): the value is not valid UTF-8 text")
        let tsv = Array("title\tminutes\trating\nok\t1\t2\nfine\t".utf8) + [0xC3, 0x28] + Array("\t2\n".utf8)
        #expect(Self.error(tsv, .tsv)?.description == "line 3, column 2 (minutes): the value is not valid UTF-8 text")
        let header = Array("title,".utf8) + [0xFF] + Array(",rating\n".utf8)
        #expect(Self.error(header)?.description == "line 1, column 2: the value is not valid UTF-8 text", "a header cell has no name yet")
        let json = Array(#"[{"title":""#.utf8) + [0xC3, 0x28] + Array(#"","minutes":1,"rating":1}]"#.utf8)
        #expect(Self.error(json, .json)?.description.contains("UTF-8") == true)
        // After a value of two lines, the next value starts on the row's second line, and is named there.
        let afterTwoLines = Array("title,minutes,rating\n\"two\r\nlines\",".utf8) + [0xFF] + Array(",2\n".utf8)
        #expect(Self.error(afterTwoLines)?.description == "line 3, column 2 (minutes): the value is not valid UTF-8 text")
    }

    /// Every kind of ill-formed UTF-8 in a value is refused, and well-formed text read as it is,
    /// against the standard library's own validation: a sequence cut short (one that a repair would
    /// replace by a U+FFFD of as many bytes), overlong forms, surrogates, values past U+10FFFF, stray
    /// continuation bytes, and U+FFFD itself written out.
    @Test(arguments: [
        [0xF0, 0x9F, 0x98], [0xE2, 0x82], [0xC3], [0x80], [0xBF, 0xBF], [0xC0, 0xAF], [0xE0, 0x80, 0xAF],
        [0xED, 0xA0, 0x80], [0xF4, 0x90, 0x80, 0x80], [0xF8, 0x88, 0x80, 0x80, 0x80], [0xFF], [0xEF, 0xBF, 0xBD],
        [0xF0, 0x9F, 0x98, 0x80], [0x61, 0xE6, 0x9D, 0xB1, 0x62],
    ] as [[UInt8]])
    func illFormedUTF8IsRefusedAndWellFormedTextKept(value: [UInt8]) {
        let expected = String(validating: value, as: UTF8.self)
        let json = Array(#"[{"title":""#.utf8) + value + Array(#"","minutes":1,"rating":1}]"#.utf8)
        let csv = Array("title,minutes,rating\n".utf8) + value + Array(",1,2\n".utf8)
        for (bytes, format) in [(json, DataFormat.json), (csv, .csv)] {
            do {
                let reader = RecordReader(rows: try RowReader(input: ByteInput(bytes: bytes), format: format), layout: Film.layout)
                let title = try reader.next()?.title
                #expect(expected != nil && title == expected, "\(value) as \(format)")
            } catch {
                #expect(expected == nil && "\(error)".contains("UTF-8"), "\(value) as \(format): \(error)")
            }
        }
    }

    @Test func aHugeValueIsRefusedNotBuffered() {
        let huge = String(repeating: "x", count: 10 * 1024 * 1024)
        let error = Self.error("title,minutes,rating\nok,1,2\n\"" + huge + "\",1,2\n")
        #expect(error?.line == 3)
        #expect(error?.description.contains("longer than 1 MiB") == true)
        #expect(Self.error("title,minutes,rating\n" + huge + ",1,2\n")?.line == 2)
    }

    /// A JSON text is read in runs up to the next quote, backslash or control character: runs that
    /// end at the reader's chunks (64 KiB), escapes and characters of 1-4 bytes keep the text whole and
    /// the columns after it counted in characters.
    @Test func jsonTextsAcrossChunksKeepTheirCharactersAndColumns() throws {
        let pieces = ["a", "é", "東", "😀", "\\\"", "\\n", "\\u00e9", "\\ud83d\\ude00", " "]
        let meanings = ["a", "é", "東", "😀", "\"", "\n", "é", "😀", " "]
        var random = Random(state: 7)
        var literal = "", text = ""
        while literal.utf8.count < 3 * 65_536 {
            let index = random.below(pieces.count)
            literal += pieces[index]
            text += meanings[index]
        }
        let path = RoundTripTests.temporaryPath("long.jsonl")
        defer { try? FileManager.default.removeItem(atPath: path) }
        /// The films of one JSON line, `minutes` after the long title, read from a file in chunks.
        func films(minutes: String) throws -> [Film] {
            try Data(("{\"title\":\"\(literal)\",\"minutes\":\(minutes),\"rating\":1}\n").utf8).write(to: URL(fileURLWithPath: path))
            return try RoundTripTests.read(path, .jsonl)
        }
        let read = try films(minutes: "90")
        #expect(read.map { Array($0.title.unicodeScalars) } == [Array(text.unicodeScalars)])
        #expect(read.first?.minutes == 90)
        let valueColumn = "{\"title\":\"\(literal)\",\"minutes\":".unicodeScalars.count + 1
        #expect(throws: RecordReadError.self) { try films(minutes: "\"x\"") }
        do {
            _ = try films(minutes: "\"x\"")
        } catch let error as RecordReadError {
            #expect(error.column == valueColumn, "the value's first character, counted in characters")
        }
    }

    @Test func tsvRefusesUnknownEscapes() {
        let error = Self.error("title\tminutes\trating\na\\qb\t1\t2\n", .tsv)
        #expect(error?.line == 2)
        #expect(error?.description.contains("unknown escape") == true)
    }

    @Test func jsonErrorsSayWhere() {
        let cases: [(String, DataFormat, Int, String)] = [
            ("[{\"title\":\"a\",\"minutes\":1,\"rating\":2},\n{\"title\":\"b\",\"minutes\":\"1\",\"rating\":2}]", .json, 2, "expected a number, found text"),
            ("[{\"title\":\"a\",\"minutes\":1,\"rating\":2}", .json, 1, "not closed"),
            ("{\"title\":\"a\",\"minutes\":1,\"rating\":2}\n{\"title\":\"a\",\"title\":\"b\",\"minutes\":1,\"rating\":2}", .jsonl, 2, "appears twice"),
            ("{\"title\":\"a\",\"minutes\":1.5,\"rating\":2}", .jsonl, 1, "expected a whole number"),
            ("{\"title\":\"a\",\"minutes\":1,\"rating\":{}}", .jsonl, 1, "not an object or array"),
            ("{\"title\":2,\"minutes\":1,\"rating\":1}", .jsonl, 1, "expected text"),
            ("{\"title\":\"a\",\"minutes\":1}", .jsonl, 1, "missing field rating"),
            ("{\"title\":\"a\",\"minutes\":1,\"rating\":1,\"x\":1}", .jsonl, 1, "unknown field x"),
            ("[{\"title\":\"a\",\"minutes\":01,\"rating\":1}]", .json, 1, "not a JSON number"),
            ("{\"a\":1}", .json, 1, "expected a JSON array"),
            ("[] x", .json, 1, "after the array"),
            ("{\"title\":\"a\",\"minutes\":1,\"rating\":2} \r\n{\"title\":\"b\",\"minutes\":1,\"rating\":2}{\"title\":\"c\",\"minutes\":1,\"rating\":2}", .jsonl, 2, "one object per line"),
        ]
        for (text, format, line, reason) in cases {
            let error = Self.error(text, format)
            #expect(error?.line == line, "\(text): \(String(describing: error))")
            #expect(error?.description.contains(reason) == true, "\(text): \(String(describing: error))")
        }
    }

    @Test func formatsAreToldByExtension() {
        #expect(DataFormat(fileName: "a/b.CSV") == .csv)
        #expect(DataFormat(fileName: "x.ndjson") == .jsonl)
        #expect(DataFormat(fileName: "x.tab") == .tsv)
        #expect(DataFormat(fileName: "x.json") == .json)
        #expect(DataFormat(fileName: "x.txt") == nil)
        #expect(DataFormat(fileName: "dir.csv/file") == nil)
    }
}
