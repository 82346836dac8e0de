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
    package func load(_ texts: [String?]) {
        // Filled as a local array, not through the property: one exclusivity check, not one a scalar.
        var values: [UInt32] = []
        swap(&values, &self.values)
        values.removeAll(keepingCapacity: true)
        for case var text? in texts {
            // Decoded from the text's UTF-8 (valid, as every `String`'s), an ASCII byte at a time
            // where it can: cheaper than iterating `unicodeScalars` (W1b on PostgreSQL).
            text.withUTF8 { bytes in
                var index = 0
                while index < bytes.count {
                    let lead = UInt32(bytes[index])
                    var value = lead
                    if lead >= 0xF0 {
                        value = (lead & 0x07) << 18 | UInt32(bytes[index + 1] & 0x3F) << 12
                            | UInt32(bytes[index + 2] & 0x3F) << 6 | UInt32(bytes[index + 3] & 0x3F)
                        index += 4
                    } else if lead >= 0xE0 {
                        value = (lead & 0x0F) << 12 | UInt32(bytes[index + 1] & 0x3F) << 6 | UInt32(bytes[index + 2] & 0x3F)
                        index += 3
                    } else if lead >= 0x80 {
                        value = (lead & 0x1F) << 6 | UInt32(bytes[index + 1] & 0x3F)
                        index += 2
                    } else {
                        index += 1
                    }
                    if value == 0 { break }
                    values.append(value)
                }
            }
            values.append(Self.textEnd)
        }
        swap(&values, &self.values)
    }

    /// The value that ends each text in ``values``.
    static let textEnd: UInt32 = 0
}
