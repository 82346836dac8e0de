/// A row's texts as one buffer of their scalars' values, read once for every count a bulk build
/// makes of them (``ShortGrams``, ``HeldSubstringCounter``) and for the counts of
/// ``SearchDescription/refreshSubstringCounts(_:)`` (``SubstringCounter``).
///
/// Each text is read up to its first U+0000, where SQLite's `substr()` and `length()` end a TEXT, and
/// is followed by a 0: no scalar of a text is 0, so a 0 ends a text and nothing counted spans two.
/// A NULL column adds nothing. The buffer is kept from row to row, to reuse its storage.
package final class RowScalars {
    /// The scalars' values of the texts last loaded, each text followed by a 0.
    package private(set) var values: [UInt32] = []

    /// An empty buffer.
    package init() {}

    /// Reads `texts` (nil: a NULL column) into ``values``, replacing the last row's.
    ///
    /// The scalars go into a local array, moved out of ``values`` and back: appended to the stored
    /// property, each scalar cost a dynamic exclusivity check (the `import` rows of Ingest,
    /// Benchmarks/README.md).
    package func load(_ texts: [String?]) {
        var loaded: [UInt32] = []
        swap(&loaded, &values)
        loaded.removeAll(keepingCapacity: true)
        for case let text? in texts {
            for scalar in text.unicodeScalars {
                if scalar.value == 0 { break }
                loaded.append(scalar.value)
            }
            loaded.append(Self.textEnd)
        }
        values = loaded
    }

    /// The value that ends each text in ``values``.
    static let textEnd: UInt32 = 0
}
