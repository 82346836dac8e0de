import Foundation
import RecordFormats
import Testing

/// The JSON reader against Foundation's `JSONSerialization` on the same bytes, and its errors against
/// lines and columns counted by hand from JSON's grammar (RFC 8259): a record is parsed whole from
/// the bytes read, so these read files of many 64 KiB chunks, records crossing their ends.
struct JSONReaderTests {
    /// `scalar` as JSON text, in one of the ways the grammar allows: itself, a short escape, a `\u`
    /// escape in either case, or a surrogate pair for a scalar above U+FFFF.
    static func written(_ scalar: Unicode.Scalar, _ random: inout Random) -> String {
        func hex(_ value: UInt32) -> String {
            let digits = String(value, radix: 16)
            let padded = String(repeating: "0", count: 4 - digits.count) + digits
            return "\\u" + (random.below(2) == 0 ? padded : padded.uppercased())
        }
        let short: [Unicode.Scalar: String] = [
            "\"": "\\\"", "\\": "\\\\", "\n": "\\n", "\r": "\\r", "\t": "\\t", "\u{8}": "\\b", "\u{C}": "\\f", "/": "\\/",
        ]
        let mustEscape = scalar == "\"" || scalar == "\\" || scalar.value < 0x20
        switch random.below(4) {
        case 0 where scalar.value > 0xFFFF:
            let value = scalar.value - 0x10000
            return hex(0xD800 + (value >> 10)) + hex(0xDC00 + (value & 0x3FF))
        case 0 where scalar.value <= 0xFFFF, 1 where mustEscape && short[scalar] == nil:
            return hex(scalar.value)
        case 1 where short[scalar] != nil, 2 where mustEscape, 3 where mustEscape:
            return short[scalar] ?? hex(scalar.value)
        default:
            return String(scalar)
        }
    }

    /// A number as `JSONSerialization` gives it.
    static func number(_ value: Any?) -> Double? {
        if let number = value as? NSNumber { return number.doubleValue }
        if let number = value as? Double { return number }
        return (value as? Int).map(Double.init)
    }

    /// Spaces and tabs, sometimes none.
    static func blank(_ random: inout Random) -> String {
        random.pick(["", "", "", " ", "  ", "\t", " \t "])
    }

    @Test(arguments: [DataFormat.jsonl, .json])
    func recordsReadAsFoundationReadsThemAcrossChunks(format: DataFormat) throws {
        var random = Random(state: format == .jsonl ? 41 : 42)
        var text = format == .json ? "[\n" : ""
        var line = format == .json ? 2 : 1
        var expected: [(title: String, minutes: Int, rating: Double, line: Int)] = []
        while text.utf8.count < 5 * 65_536 {
            let title = HostileText.text(&random) + (random.below(3) == 0 ? String(repeating: "東😀é", count: random.below(40)) : "")
            let minutes = random.pick([0, 1, -3, 2007, Int(Int32.max)])
            let rating = random.pick(["0", "599", "1299.99", "1e-5", "-0.5E+2", "0.1", "123456789.125", "2e3"])
            var fields = [
                "\"title\"" + Self.blank(&random) + ":" + Self.blank(&random) + "\""
                    + title.unicodeScalars.map { Self.written($0, &random) }.joined() + "\"",
                "\"minutes\":" + Self.blank(&random) + String(minutes),
                "\"rating\"" + Self.blank(&random) + ":" + rating,
            ]
            if random.below(2) == 0 { fields.append("\"id\":" + String(random.below(1_000_000))) }
            fields.shuffle(using: &random.generator)
            // JSON lines keep each record on its line; an array may break a record over lines.
            let separator = format == .json && random.below(4) == 0 ? ",\n" : "," + Self.blank(&random)
            let record = "{" + Self.blank(&random) + fields.joined(separator: separator) + Self.blank(&random) + "}"
            expected.append((title, minutes, Double(rating)!, line))
            line += record.utf8.count(where: { $0 == UInt8(ascii: "\n") }) + 1
            text += record + (format == .json ? ",\n" : "\n")
        }
        if format == .json { text.removeLast(2); text += "\n]\n" }
        let path = RoundTripTests.temporaryPath("records." + format.rawValue)
        defer { try? FileManager.default.removeItem(atPath: path) }
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))

        let objects = format == .json
            ? try JSONSerialization.jsonObject(with: Data(text.utf8)) as! [[String: Any]]
            : try text.split(separator: "\n").map { try JSONSerialization.jsonObject(with: Data($0.utf8)) as! [String: Any] }
        let reader = RecordReader(rows: try RowReader(input: try ByteInput(path: path), format: format), layout: Film.layout)
        var count = 0
        while let film = try reader.next() {
            let (object, wanted) = (objects[count], expected[count])
            #expect(Array(film.title.unicodeScalars) == Array((object["title"] as! String).unicodeScalars), "record \(count + 1)")
            #expect(Array(film.title.unicodeScalars) == Array(wanted.title.unicodeScalars), "record \(count + 1)")
            #expect(Double(film.minutes) == Self.number(object["minutes"]) && film.minutes == wanted.minutes)
            #expect(film.rating == Self.number(object["rating"]) && film.rating == wanted.rating)
            #expect(reader.line == wanted.line, "record \(count + 1)")
            count += 1
        }
        #expect(count == expected.count && count > 1_000)
    }

    /// A value refused after records that fill several chunks: its line, and its column in
    /// characters, however many bytes each took.
    @Test func aBadValueAfterManyChunksSaysItsLineAndColumn() throws {
        let good = #"{"title":"東京タワー 😀 Café","minutes":1,"rating":2}"# + "\n"
        let count = 5 * 65_536 / good.utf8.count
        let bad = #"{"title":"é😀東","rating":1,"minutes":"ten"}"#
        let path = RoundTripTests.temporaryPath("bad.jsonl")
        defer { try? FileManager.default.removeItem(atPath: path) }
        try Data((String(repeating: good, count: count) + bad + "\n").utf8).write(to: URL(fileURLWithPath: path))
        let reader = RecordReader(rows: try RowReader(input: try ByteInput(path: path), format: .jsonl), layout: Film.layout)
        var read = 0
        let error = #expect(throws: RecordReadError.self) { while try reader.next() != nil { read += 1 } }
        #expect(read == count)
        #expect(error?.description == "line \(count + 1), column 37 (minutes): expected a number, found text \"ten\"")
    }

    /// Malformed text: the line and column (characters from 1) where a reader going byte by byte
    /// stops, and why.
    @Test func malformedTextSaysWhereAndWhy() {
        let rest = #","minutes":1,"rating":2}"#
        let cases: [([UInt8], DataFormat, String)] = [
            (Array((#"{"title":"a\q"# + rest).utf8), .jsonl, "line 1, column 12: unknown escape in text"),
            (Array((#"{"title":"é\ud800x"# + rest).utf8), .jsonl, "line 1, column 12: a \\u escape of half a character (a lone surrogate)"),
            (Array((#"{"title":"\udc00"# + rest).utf8), .jsonl, "line 1, column 11: a \\u escape of half a character (a lone surrogate)"),
            (Array((#"{"title":"\ud83d\u0041"# + rest).utf8), .jsonl, "line 1, column 11: a \\u escape of half a character (a lone surrogate)"),
            (Array((#"{"title":"\u00zz"# + rest).utf8), .jsonl, "line 1, column 16: expected four hexadecimal digits after \\u"),
            (Array(#"{"title":"a"#.utf8) + [0xFF] + Array(("\"" + rest).utf8), .jsonl, "line 1, column 10: the text is not valid UTF-8"),
            (Array(#"{"title":"a"#.utf8) + [0xE3, 0x81] + Array(("\"" + rest).utf8), .jsonl, "line 1, column 10: the text is not valid UTF-8"),
            (Array(("{\"title\":\"a\tb\"" + rest).utf8), .jsonl, "line 1, column 13: a control character inside text (write a line break as \\n)"),
            (Array(#"{"title":"a","minutes":01,"rating":2}"#.utf8), .jsonl, "line 1, column 24 (minutes): 01 is not a JSON number"),
            (Array(#"{"title":"a","minutes":1.,"rating":2}"#.utf8), .jsonl, "line 1, column 24 (minutes): 1. is not a JSON number"),
            (Array(#"{"title":"a","minutes":+1,"rating":2}"#.utf8), .jsonl, "line 1, column 24: expected a value"),
            (Array(#"{"title":tru}"#.utf8), .jsonl, "line 1, column 13: expected a value"),
            (Array(#"{"title":"abc"#.utf8), .jsonl, "line 1, column 10: the text that starts here has no closing quote"),
            (Array(#"{"title":"a\"#.utf8), .jsonl, "line 1, column 13: the text has no closing quote"),
            (Array(#"{"title""#.utf8), .jsonl, "line 1, column 9: expected : after the field name"),
            (Array(#"{"title" x"#.utf8), .jsonl, "line 1, column 11: expected : after the field name"),
            (Array(#"{"title":"#.utf8), .jsonl, "line 1, column 10: the record is not closed (a missing })"),
            (Array(#"{"title":"a""#.utf8), .jsonl, "line 1, column 13: expected , or } after a value"),
            (Array(#"{"#.utf8), .jsonl, "line 1, column 2: expected a field name in quotes"),
            (Array(("[\n  {\"title\":\"a\"" + rest + ",\n  {\"title\":\"b\\x\"" + rest + "\n]").utf8), .json, "line 3, column 14: unknown escape in text"),
            (Array(#"{"title":"😀","minutes":"x","rating":2}"#.utf8), .jsonl, "line 1, column 24 (minutes): expected a number, found text \"x\""),
        ]
        for (bytes, format, message) in cases {
            let error = HostileInputTests.error(bytes, format)
            #expect(error?.description == message, "\(String(decoding: bytes, as: UTF8.self))")
        }
    }

    /// A record is parsed whole in memory, so one never closed stops at 16 MiB, with its line.
    @Test func aRecordNeverClosedIsRefusedNotBuffered() throws {
        let path = RoundTripTests.temporaryPath("open.jsonl")
        defer { try? FileManager.default.removeItem(atPath: path) }
        let good = #"{"title":"a","minutes":1,"rating":2}"# + "\n"
        try Data((good + #"{"title":"b","# + String(repeating: " ", count: 17 << 20)).utf8).write(to: URL(fileURLWithPath: path))
        let reader = RecordReader(rows: try RowReader(input: try ByteInput(path: path), format: .jsonl), layout: Film.layout)
        #expect(try reader.next() != nil)
        let error = #expect(throws: RecordReadError.self) { _ = try reader.next() }
        #expect(error?.line == 2)
        #expect(error?.description.contains("a record longer than 16 MiB") == true, "\(String(describing: error))")
    }
}
