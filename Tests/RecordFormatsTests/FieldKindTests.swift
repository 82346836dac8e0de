import Foundation
import RecordFormats
import Testing

/// Booleans and dates as cells are read and written, against the words of `FieldKind` and, for
/// dates, against Foundation's ISO 8601 formatter.
struct FieldKindTests {
    @Test(arguments: [
        ("true", true), ("TRUE", true), ("True", true), ("1", true), ("yes", true), ("YES", true),
        ("false", false), ("False", false), ("0", false), ("no", false), ("No", false),
    ])
    func booleanWords(text: String, value: Bool) {
        #expect(FieldValue(text: text, kind: .boolean) == .boolean(value))
    }

    @Test(arguments: ["", "t", "y", "2", "-1", "on", "off", "truee", " true"])
    func notBooleans(text: String) {
        #expect(FieldValue(text: text, kind: .boolean) == nil)
    }

    @Test(arguments: [
        ("1970-01-01T00:00:00Z", 0.0), ("2026-11-27T21:30:00Z", 1_795_815_000), ("2026-11-27T22:30:00+01:00", 1_795_815_000),
        ("2026-11-27T16:00:00-0530", 1_795_815_000), ("2026-11-27 21:30Z", 1_795_815_000), ("2026-11-27t21:30:00.25z", 1_795_815_000.25),
        ("1795815000", 1_795_815_000), ("-1.5", -1.5), ("2000-02-29T00:00:00Z", 951_782_400), ("1969-12-31T23:59:59Z", -1),
    ])
    func dates(text: String, seconds: Double) {
        #expect(FieldValue(text: text, kind: .date) == .date(secondsSince1970: seconds))
    }

    @Test(arguments: [
        "2026-11-27", "2026-11-27T21:30:00", "2026-13-01T00:00:00Z", "2026-02-30T00:00:00Z", "2025-02-29T00:00:00Z",
        "2026-11-27T24:00:00Z", "2026-11-27T21:30:00+1", "27/11/2026", "", "1e999",
    ])
    func notDates(text: String) {
        #expect(FieldValue(text: text, kind: .date) == nil)
    }

    /// Random instants written by the library read back, and Foundation reads the same instant.
    @Test func datesAgreeWithFoundation() {
        var generator = SystemRandomNumberGenerator()
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime]
        for _ in 0..<2_000 {
            let seconds = Double(Int64.random(in: -12_000_000_000...253_000_000_000, using: &generator))
            let text = FieldValue.date(secondsSince1970: seconds).text
            #expect(formatter.date(from: text)?.timeIntervalSince1970 == seconds, "\(text)")
            #expect(FieldValue(text: text, kind: .date) == .date(secondsSince1970: seconds))
            let foundation = formatter.string(from: Date(timeIntervalSince1970: seconds))
            #expect(FieldValue(text: foundation, kind: .date) == .date(secondsSince1970: seconds), "\(foundation)")
        }
        #expect(FieldValue.date(secondsSince1970: 0.5).text == "1970-01-01T00:00:00.5Z")
    }

    @Test func csvAndJSONReadBooleansAndDates() throws {
        struct Row { var done = false; var at = 0.0 }
        let layout = RecordLayout(template: Row(), fields: [
            RecordField(name: "done", kind: .boolean, value: { .boolean($0.done) }) { row, value in
                if case .boolean(let done) = value { row.done = done }
            },
            RecordField(name: "at", kind: .date, value: { .date(secondsSince1970: $0.at) }) { row, value in
                if case .date(let at) = value { row.at = at }
            },
        ])
        func read(_ text: String, _ format: DataFormat) throws -> [Row] {
            let reader = RecordReader(rows: try RowReader(input: ByteInput(bytes: Array(text.utf8)), format: format), layout: layout)
            var rows: [Row] = []
            while let row = try reader.next() { rows.append(row) }
            return rows
        }
        let csv = try read("done,at\nYes,1970-01-01T00:01:00Z\n0,60\n", .csv)
        #expect(csv.map(\.done) == [true, false] && csv.map(\.at) == [60, 60])
        let json = try read(#"[{"done": true, "at": "1970-01-01T01:00:00+01:00"}, {"done": "no", "at": 5}]"#, .json)
        #expect(json.map(\.done) == [true, false] && json.map(\.at) == [0, 5])
        let error = #expect(throws: RecordReadError.self) { try read("done,at\nmaybe,0\n", .csv) }
        #expect(error?.description == #"line 2, column 1 (done): expected true, false, yes, no, 1 or 0, found "maybe""#)
        let dateError = #expect(throws: RecordReadError.self) { try read("done,at\ntrue,2026-11-27\n", .csv) }
        #expect(dateError?.description.hasPrefix("line 2, column 2 (at): expected a date such as") == true)
    }
}
