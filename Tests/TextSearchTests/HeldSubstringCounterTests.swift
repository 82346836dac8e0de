import SQLiteStore
import TestSupport
import Testing
@testable import TextSearch

/// The counts of a bulk build's held-substring counter against a count written from the definition of
/// `SearchDescription.substringCountsSQL`: a row counts once per scope value for each held substring
/// of 3 to `substringCountMaximumLength` scalars that one of its texts (up to its first NUL) contains.
/// The held substrings overlap so that a prefix that cannot be extended falls back to a shorter one
/// (`abcabd` in `abcabcabd`), and random texts on a small alphabet hold them often.
struct HeldSubstringCounterTests {
    static let held = [
        "abcabd", "bcab", "cabd", "abd", "abcab", "bca", "aaa", "aaaa", "aaaaaaaa", "dab", "a b",
        "東京タ", "京タa", "👍🏽👍", "ab", "abcdabcda",  // the last two: 2 and 9 scalars, never counted
    ]
    static let alphabet = ["a", "b", "c", "d", " ", "\0", "東", "京", "タ", "👍", "\u{1F3FD}"]

    static func text(_ random: inout SplitMix64) -> String? {
        if random.next() % 10 == 0 { return nil }
        return (0..<Int(random.next() % 24)).map { _ in alphabet[Int(random.next() % UInt64(alphabet.count))] }.joined()
    }

    /// Rows per (substring, scope value), from the definition.
    static func reference(_ rows: [([String?], DatabaseValue)]) -> [String: [DatabaseValue: Int]] {
        var counts: [String: [DatabaseValue: Int]] = [:]
        let counted = held.filter { (3...SearchDescription.substringCountMaximumLength).contains($0.unicodeScalars.count) }
        for (texts, scope) in rows {
            let scalars = texts.compactMap { $0 }.map { Array($0.unicodeScalars.prefix { $0.value != 0 }) }
            for substring in counted {
                let pattern = Array(substring.unicodeScalars)
                let found = scalars.contains { text in
                    text.count >= pattern.count && (0...(text.count - pattern.count)).contains { Array(text[$0..<($0 + pattern.count)]) == pattern }
                }
                if found { counts[substring, default: [:]][scope, default: 0] += 1 }
            }
        }
        return counts
    }

    @Test func countsEqualTheDefinition() {
        var random = SplitMix64(seed: 0xAC)
        let scopes: [DatabaseValue] = [.null, .text("a"), .integer(7), .text("b")]
        // Rows holding every counted substring, then random ones.
        let rows = [(["abcabcabd aaaaaaaaa", "東京タa 👍🏽👍 a b dab\0bcab"], DatabaseValue.text("a")), (["xbcabcabdx", nil], .null)]
            + (0..<3_000).map { _ in ([Self.text(&random), Self.text(&random)], scopes[Int(random.next() % 4)]) }
        let counter = HeldSubstringCounter(Self.held)
        let scalars = RowScalars()
        for (texts, scope) in rows {
            scalars.load(texts)
            counter.add(scalars, scope: scope)
        }
        var counts: [String: [DatabaseValue: Int]] = [:]
        for (substring, scope, count) in counter.counts { counts[substring, default: [:]][scope] = count }
        let reference = Self.reference(rows)
        #expect(reference.count == Self.held.count - 2, "every counted substring occurs")
        #expect(counts == reference)
    }

    @Test func noHeldSubstringCountsNothing() {
        let counter = HeldSubstringCounter([])
        let scalars = RowScalars()
        scalars.load(["abc", nil])
        counter.add(scalars, scope: .null)
        #expect(counter.counts.isEmpty)
    }
}
