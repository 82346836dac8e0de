import Foundation
import SeededRandom

/// One as-you-type query of W3: a prefix of a real name, folded as the store folds search terms.
public struct SearchQuery: Sendable, Hashable {
    /// The kinds of terms W3 reports separately.
    public enum TermClass: String, Sendable, CaseIterable {
        case short = "1-2 chars"
        case long = "3+ chars"
        case japanese = "Japanese"
    }

    /// The folded term.
    public var term: String
    /// The term's class.
    public var termClass: TermClass

    /// Words shorter than this have no trigram: the trigram index cannot answer them.
    public static let trigramLength = 3

    /// `count` queries, each a prefix of 1 to 8 characters of a random name of `products`.
    ///
    /// Japanese terms are those that start with a Japanese character; they are a class of their own
    /// whatever their length. Otherwise a query is in the 3+ class when one of its words (the store
    /// splits the text on white space, and every word must match) has 3 characters or more, which the
    /// trigram index can look up, and in the 1-2 class when all its words are shorter: `3 a` and `go s`
    /// are 1-2 character searches, `pro pa` a 3+ one.
    public static func generate(count: Int, from products: [SyntheticProduct], seed: UInt64) -> [SearchQuery] {
        var random = SplitMix64(seed: seed ^ 0x5EA2C4)
        return (0..<count).map { _ in
            let name = products[Int.random(in: 0..<products.count, using: &random)].name
            let length = Int.random(in: 1...8, using: &random)
            let term = Folding.fold(String(name.prefix(length))).trimmingCharacters(in: .whitespaces)
            let longestWord = term.split(separator: " ").map(\.unicodeScalars.count).max() ?? 0
            let termClass: TermClass =
                isJapanese(term) ? .japanese : longestWord < trigramLength ? .short : .long
            return SearchQuery(term: term.isEmpty ? "a" : term, termClass: termClass)
        }
    }

    /// The slow queries issue #12 names (two common words, one or both of 1-2 characters), reported
    /// one by one.
    public static let named: [SearchQuery] = ["pro pa", "touch s", "x in", "2 le", "3 a"].map { term in
        SearchQuery(term: term, termClass: term.split(separator: " ").contains { $0.count >= trigramLength } ? .long : .short)
    }

    static func isJapanese(_ text: String) -> Bool {
        guard let scalar = text.unicodeScalars.first else { return false }
        switch scalar.value {
        case 0x3040...0x30FF, 0x4E00...0x9FFF, 0xFF66...0xFF9F: return true  // kana, CJK ideographs, half-width kana
        default: return false
        }
    }
}
