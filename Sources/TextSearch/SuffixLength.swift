/// How many Unicode scalars of each suffix of a folded text a suffix index keeps.
///
/// A term up to this long is answered by the index alone (its range of suffixes holds exactly its
/// occurrences); a longer term reads the range of its first `scalars` and is checked on those rows.
/// Longer suffixes answer longer terms exactly; shorter ones make a smaller index (the index holds one
/// row per non-space scalar of every text, each up to `scalars` long).
public struct SuffixLength: Sendable, Hashable, CustomStringConvertible {
    /// The length, in Unicode scalars.
    public let scalars: Int

    /// The range of lengths allowed: from 3, the shortest term the trigram index also answers, to 64,
    /// past which a suffix row is mostly a copy of the text.
    public static let allowed = 3...64

    /// The catalog's products: 8 scalars. Measured on 1,000,000 products (README, W3): terms up to 8
    /// characters are most of what people type, and the index stays under half the file.
    public static let standard = SuffixLength(8)

    /// A suffix length of `scalars`; it must be within ``allowed``.
    public init(_ scalars: Int) {
        precondition(Self.allowed.contains(scalars), "a suffix length must be within \(Self.allowed), not \(scalars)")
        self.scalars = scalars
    }

    public var description: String { "\(scalars) scalars" }
}
