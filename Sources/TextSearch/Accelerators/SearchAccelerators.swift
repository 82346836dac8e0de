/// The optional structures a search description may add to its two exact indexes: each only makes
/// some queries faster, never changes a result, and is declared by the entity that wants it.
///
/// ```swift
/// let products = SearchDescription(
///     table: "products", textColumns: ["name_folded"], accelerators: [.substringCounts, .gramBits])
/// ```
public struct SearchAccelerators: OptionSet, Sendable, Hashable {
    public let rawValue: Int

    public init(rawValue: Int) {
        self.rawValue = rawValue
    }

    /// Counts of the frequent substrings of 3+ scalars (``SearchDescription/substringCountsTable``):
    /// a common long term's total and counts per scope value in one row each (W3 3+ chars).
    public static let substringCounts = SearchAccelerators(rawValue: 1 << 0)
    /// Bits of the rows holding each very common 1-scalar gram (``SearchDescription/gramBitsTable``):
    /// counts of several common short terms, and long terms checked for a common gram, without the
    /// grams index's doclists (W3 `3 a`, `core m`).
    public static let gramBits = SearchAccelerators(rawValue: 1 << 1)
}
