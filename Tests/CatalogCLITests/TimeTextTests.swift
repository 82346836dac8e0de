import Catalog
import Foundation
import Testing
import TestSupport

@testable import CatalogCLI

/// The times the commands show, against their definitions and against the Foundation formatters
/// they replace: `migrate`'s timestamps and `browse`'s time of day.
struct TimeTextTests {
    /// `YYYY-MM-DDTHH:MM:SSZ` for a time from 1970 on in UTC, whole seconds, from the civil calendar
    /// (days to year, month and day as in Howard Hinnant's `civil_from_days`).
    static func referenceTimestamp(_ seconds: Double) -> String {
        let whole = Int(seconds.rounded(.down))
        let days = whole / 86_400, second = whole % 86_400
        let shifted = days + 719_468
        let era = shifted / 146_097
        let dayOfEra = shifted - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthIndex = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * monthIndex + 2) / 5 + 1
        let month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9
        let year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
        func two(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
        return "\(year)-\(two(month))-\(two(day))T\(two(second / 3600)):\(two(second / 60 % 60)):\(two(second % 60))Z"
    }

    @Test(arguments: [
        (0.0, "1970-01-01T00:00:00Z"),
        (1_700_000_000.25, "2023-11-14T22:13:20Z"),
        (951_782_400, "2000-02-29T00:00:00Z"),
        (4_102_444_799.999, "2099-12-31T23:59:59Z"),
    ])
    func namedTimestamps(seconds: Double, text: String) {
        #expect(CatalogCommand.Migrate.timestamp(Date(timeIntervalSince1970: seconds)) == text)
        #expect(Self.referenceTimestamp(seconds) == text)
    }

    /// 5,000 random times from 1970 to 2100, with fractions of a second (fixed seed).
    @Test func timestampsAsDefinedAndAsFoundationWroteThem() {
        var generator = SplitMix64(seed: 20261127)
        let foundation = ISO8601DateFormatter()
        var wrong: [String] = []
        for _ in 0..<5_000 {
            let seconds = Double(generator.next() % 4_102_444_800_000) / 1000
            let date = Date(timeIntervalSince1970: seconds)
            let text = CatalogCommand.Migrate.timestamp(date)
            if text != Self.referenceTimestamp(seconds) || text != foundation.string(from: date) { wrong.append("\(seconds): \(text)") }
        }
        #expect(wrong == [])
    }

    /// `HH:mm:ss` in the local time zone, as Foundation's `DateFormatter` wrote it.
    @Test func timeOfDayAsFoundationWroteIt() {
        var generator = SplitMix64(seed: 42)
        let formatter = DateFormatter()
        formatter.dateFormat = "HH:mm:ss"
        var wrong: [String] = []
        for _ in 0..<2_000 {
            let seconds = Int(generator.next() % 4_102_444_800)
            let date = Date(timeIntervalSince1970: Double(seconds))
            let local = (seconds + TimeZone.current.secondsFromGMT(for: date)) % 86_400
            func two(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
            let reference = "\(two(local / 3600)):\(two(local / 60 % 60)):\(two(local % 60))"
            let text = ResultSource<Product>.timeOfDay(time_t(seconds))
            if text != reference || text != formatter.string(from: date) { wrong.append("\(seconds): \(text)") }
        }
        #expect(wrong == [])
    }
}
