/// Dates in files: ISO 8601 (RFC 3339) text, or a number of seconds since 1970-01-01 00:00:00 UTC.
///
/// Read: `1984-01-24T09:30:00Z`, `1984-01-24T10:30:00+01:00`, `1984-01-24T10:30:00+0100`, with `T`,
/// `t` or a space between date and time, seconds optional, a fraction of a second optional, and an
/// offset or `Z` required (a date without one names no instant); or a number (`443784600`, `-1.5`).
/// Written: UTC with `Z`, seconds always, the fraction only when there is one
/// (`1984-01-24T09:30:00Z`, `1970-01-01T00:00:00.5Z`).
enum DateText {
    /// The seconds since 1970 that `text` names, or nil when it is neither form.
    static func seconds(_ text: String) -> Double? {
        if NumberSyntax.isJSONNumber(text.utf8, allowingLeadingZeros: true) { return Double(text) }
        var scanner = Scanner(Array(text.utf8))
        guard let year = scanner.digits(4), scanner.skip("-"), let month = scanner.digits(2), scanner.skip("-"),
              let day = scanner.digits(2), scanner.skip("T") || scanner.skip("t") || scanner.skip(" "),
              let hour = scanner.digits(2), scanner.skip(":"), let minute = scanner.digits(2) else { return nil }
        var second = 0.0
        if scanner.skip(":") {
            guard let whole = scanner.digits(2) else { return nil }
            second = Double(whole)
            if scanner.skip(".") || scanner.skip(",") {
                let start = scanner.index
                while scanner.digit() != nil {}
                guard scanner.index > start, let fraction = Double("0." + String(decoding: scanner.bytes[start..<scanner.index], as: UTF8.self)) else {
                    return nil
                }
                second += fraction
            }
        }
        var offsetMinutes = 0
        if scanner.skip("Z") || scanner.skip("z") {
        } else if let sign = scanner.sign() {
            guard let hours = scanner.digits(2) else { return nil }
            _ = scanner.skip(":")
            guard let minutes = scanner.digits(2), hours < 24, minutes < 60 else { return nil }
            offsetMinutes = sign * (hours * 60 + minutes)
        } else {
            return nil
        }
        guard scanner.isAtEnd, (1...12).contains(month), (1...daysIn(month: month, year: year)).contains(day), hour < 24,
              minute < 60, second < 61 else { return nil }
        let days = daysSince1970(year: year, month: month, day: day)
        return Double(days * 86_400 + hour * 3_600 + minute * 60 - offsetMinutes * 60) + second
    }

    /// `seconds` since 1970 as ISO 8601 text in UTC.
    static func text(_ seconds: Double) -> String {
        guard seconds.isFinite else { return FieldValue.decimalText(seconds) }
        let whole = seconds.rounded(.down)
        let fraction = seconds - whole
        let total = Int64(whole)
        let days = total >= 0 ? total / 86_400 : (total - 86_399) / 86_400
        let secondOfDay = Int(total - days * 86_400)
        let (year, month, day) = civil(daysSince1970: Int(days))
        func two(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
        let yearText = (0..<1000).contains(year) ? String(String(year + 10_000).dropFirst()) : String(year)
        var text = "\(yearText)-\(two(month))-\(two(day))"
        text += "T\(two(secondOfDay / 3_600)):\(two(secondOfDay / 60 % 60)):\(two(secondOfDay % 60))"
        if fraction > 0 {
            let digits = FieldValue.decimalText(fraction)  // `0.5`
            text += String(digits.dropFirst())
        }
        return text + "Z"
    }

    static func isLeap(_ year: Int) -> Bool { year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) }

    static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: isLeap(year) ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    /// Days from 1970-01-01 to a date of the proleptic Gregorian calendar (Howard Hinnant's `days_from_civil`).
    static func daysSince1970(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    /// The date `days` after 1970-01-01 (`civil_from_days`).
    static func civil(daysSince1970 days: Int) -> (year: Int, month: Int, day: Int) {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthIndex = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * monthIndex + 2) / 5 + 1
        let month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }

    /// Reads ASCII bytes from the front.
    private struct Scanner {
        let bytes: [UInt8]
        var index = 0
        init(_ bytes: [UInt8]) { self.bytes = bytes }

        var isAtEnd: Bool { index == bytes.count }

        mutating func skip(_ character: Unicode.Scalar) -> Bool {
            guard index < bytes.count, bytes[index] == UInt8(ascii: character) else { return false }
            index += 1
            return true
        }

        mutating func digit() -> Int? {
            guard index < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[index]) else { return nil }
            index += 1
            return Int(bytes[index - 1] - UInt8(ascii: "0"))
        }

        mutating func digits(_ count: Int) -> Int? {
            var value = 0
            for _ in 0..<count {
                guard let digit = digit() else { return nil }
                value = value * 10 + digit
            }
            return value
        }

        mutating func sign() -> Int? {
            if skip("+") { return 1 }
            if skip("-") { return -1 }
            return nil
        }
    }
}

/// Booleans in files: `true`, `false`, `1`, `0`, `yes`, `no`, in any mix of ASCII case (`TRUE`,
/// `Yes`); JSON's `true` and `false` too. Written `true` and `false`.
enum BooleanText {
    static func value(_ text: String) -> Bool? {
        switch text.lowercased() {
        case "true", "1", "yes": true
        case "false", "0", "no": false
        default: nil
        }
    }
}
