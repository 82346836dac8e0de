import Foundation

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

    /// Terms shorter than this have no trigram: the trigram index cannot answer them.
    public static let trigramLength = 3

    /// `count` queries, each a prefix of 1 to 8 characters of a random name of `products`.
    ///
    /// Japanese terms are those that start with a Japanese character; they are a class of their own
    /// whatever their length.
    public static func generate(count: Int, from products: [SyntheticProduct], seed: UInt64) -> [SearchQuery] {
        var random = SplitMix64(seed: seed ^ 0x5EA2C4)
        return (0..<count).map { _ in
            let name = products[Int.random(in: 0..<products.count, using: &random)].name
            let length = Int.random(in: 1...8, using: &random)
            let term = Folding.fold(String(name.prefix(length))).trimmingCharacters(in: .whitespaces)
            let termClass: TermClass =
                isJapanese(term) ? .japanese : term.count < trigramLength ? .short : .long
            return SearchQuery(term: term.isEmpty ? "a" : term, termClass: termClass)
        }
    }

    static func isJapanese(_ text: String) -> Bool {
        guard let scalar = text.unicodeScalars.first else { return false }
        switch scalar.value {
        case 0x3040...0x30FF, 0x4E00...0x9FFF, 0xFF66...0xFF9F: return true  // kana, CJK ideographs, half-width kana
        default: return false
        }
    }
}
