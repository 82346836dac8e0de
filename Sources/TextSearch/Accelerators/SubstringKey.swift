/// A substring of 1 to ``SearchDescription/substringCountMaximumLength`` scalars held as its scalars'
/// values packed in three words (21 bits each, 9 at most), a cheap dictionary key for counting
/// substrings in Swift (``SubstringCounter``). No scalar of a counted text is U+0000 (SQLite's
/// `substr()` and `length()` end a TEXT there), so a key names one text.
package struct SubstringKey: Hashable {
    private var words: (low: UInt64, middle: UInt64, high: UInt64) = (0, 0, 0)
    /// The number of scalars.
    private(set) var count = 0

    /// The most scalars a key holds.
    static let capacity = 9
    private static let bitsPerScalar: UInt64 = 21
    private static let scalarsPerWord = 3

    /// The empty key.
    init() {}

    /// The key of `scalars` (at most ``capacity``).
    init<Scalars: Sequence<UInt32>>(_ scalars: Scalars) {
        for scalar in scalars { append(scalar) }
    }

    /// Adds a scalar at the end.
    mutating func append(_ scalar: UInt32) {
        precondition(count < Self.capacity, "a substring key holds at most \(Self.capacity) scalars")
        let shifted = UInt64(scalar) << (Self.bitsPerScalar * UInt64(count % Self.scalarsPerWord))
        switch count / Self.scalarsPerWord {
        case 0: words.low |= shifted
        case 1: words.middle |= shifted
        default: words.high |= shifted
        }
        count += 1
    }

    /// The scalars' values, in order.
    var scalars: [UInt32] {
        (0..<count).map { index in
            let word = switch index / Self.scalarsPerWord {
            case 0: words.low
            case 1: words.middle
            default: words.high
            }
            return UInt32((word >> (Self.bitsPerScalar * UInt64(index % Self.scalarsPerWord))) & ((1 << Self.bitsPerScalar) - 1))
        }
    }

    /// The substring as text.
    package var text: String {
        var text = ""
        text.unicodeScalars.append(contentsOf: scalars.map { Unicode.Scalar($0)! })
        return text
    }

    package static func == (lhs: SubstringKey, rhs: SubstringKey) -> Bool {
        lhs.count == rhs.count && lhs.words == rhs.words
    }

    /// The three words folded into one before hashing: one `combine` instead of three (counting a
    /// million rows' substrings is mostly hashing); equal keys fold alike.
    var folded: UInt64 {
        (words.low &* 0x9E37_79B9_7F4A_7C15) ^ (words.middle &* 0xC2B2_AE3D_27D4_EB4F) ^ (words.high &* 0x1656_67B1_9E37_79F9)
    }

    package func hash(into hasher: inout Hasher) {
        hasher.combine(folded)
    }
}
