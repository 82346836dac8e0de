import RecordFormats
import SeededRandom

/// An embedder's record type, unknown to the catalog: the formats need only its layout.
struct Film: Equatable {
    var id: Int64?
    var title: String
    var minutes: Int
    var rating: Double

    static let layout = RecordLayout(
        template: Film(id: nil, title: "", minutes: 0, rating: 0),
        fields: [.optionalInteger("id", \.id), .text("title", \.title), .integer("minutes", \.minutes), .decimal("rating", \.rating)])

    /// Equal, with texts compared scalar by scalar (Swift's `==` on strings ignores NFC/NFD differences).
    func isIdentical(to other: Film) -> Bool {
        self == other && Array(title.unicodeScalars) == Array(other.title.unicodeScalars)
    }
}

/// The seeded generator with the picks these tests make, so failures repeat.
struct Random {
    var generator: SplitMix64

    init(state: UInt64) { generator = SplitMix64(seed: state) }

    mutating func next() -> UInt64 { generator.next() }

    mutating func below(_ bound: Int) -> Int { Int(next() % UInt64(bound)) }
    mutating func pick<T>(_ elements: [T]) -> T { elements[below(elements.count)] }
}

/// Texts that break naive writers: separators, quotes, escapes, line breaks, every script.
enum HostileText {
    static let pieces = [
        "a", "Z", "iPod", ",", "\"", "\"\"", "'", "  ", "   ", " ", "\t", "\n", "\r\n", "\r", "\\", "\\t", "\\n", "{", "}", "[", ":",
        "é", "e\u{301}", "A\u{30A}", "ß", "Σ", "ﬁ", "東京", "タワー", "ｶﾞ", "한국어", "العربية", "עברית", "हिन्दी", "ไทย", "Ελλάδα", "Россия",
        "😀", "👨‍👩‍👧", "🇯🇵", "👍🏽", "\u{FE0F}", "\u{200D}", "=1+1", "-", "null", "0", "\u{1}",
    ]

    /// A random text of 1-8 pieces.
    static func text(_ random: inout Random) -> String {
        (0...random.below(8)).map { _ in random.pick(pieces) }.joined()
    }
}
