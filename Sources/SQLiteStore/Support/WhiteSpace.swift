/// The white space that text is trimmed of: Foundation's `CharacterSet.whitespaces` and
/// `.whitespacesAndNewlines` as they are on Linux, so that the package trims as it did with
/// Foundation's `trimmingCharacters(in:)`, without Foundation.
///
/// For the package's modules (store errors, the catalog's validation and parsing), not for embedders.
///
/// | Set | Scalars |
/// |---|---|
/// | ``spaces`` | Unicode's space separators (general category Zs: U+0020, U+00A0, U+1680, U+2000…U+200A, U+202F, U+205F, U+3000), U+0009 (tab), U+200B (zero width space) |
/// | ``spacesAndNewlines`` | those, and U+000A…U+000D, U+0085, U+2028, U+2029 |
package enum WhiteSpace: Sendable {
    /// `CharacterSet.whitespaces`.
    case spaces
    /// `CharacterSet.whitespacesAndNewlines`.
    case spacesAndNewlines

    /// Whether `scalar` is in the set.
    package func contains(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x20, 0x09: return true
        case 0x0A...0x0D, 0x85, 0x2028, 0x2029: return self == .spacesAndNewlines
        case 0x200B: return true
        case ..<0x80: return false
        default: return scalar.properties.generalCategory == .spaceSeparator
        }
    }
}

extension String {
    /// The text without the scalars of `whiteSpace` at its start and end (scalars, not characters:
    /// a space followed by a combining mark loses the space and keeps the mark, as with Foundation).
    ///
    /// ```swift
    /// " \u{3000}Mac mini\n".trimming(.spacesAndNewlines)  // "Mac mini"
    /// ```
    package func trimming(_ whiteSpace: WhiteSpace) -> String {
        let scalars = unicodeScalars
        guard let first = scalars.firstIndex(where: { !whiteSpace.contains($0) }),
              let last = scalars.lastIndex(where: { !whiteSpace.contains($0) }) else { return "" }
        if first == scalars.startIndex && scalars.index(after: last) == scalars.endIndex { return self }
        return String(scalars[first...last])
    }
}
