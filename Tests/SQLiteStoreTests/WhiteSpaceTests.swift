import Foundation
import SQLiteStore
import Testing

/// The white space the package trims, against its definition (Foundation's sets on Linux, listed in
/// `WhiteSpace`'s documentation), and on Linux against Foundation's own trimming.
struct WhiteSpaceTests {
    /// Unicode's space separators (Zs) as of Unicode 16, written out.
    static let spaceSeparators = Set<UInt32>([0x20, 0xA0, 0x1680, 0x202F, 0x205F, 0x3000]).union(0x2000...0x200A)
    static let spaces = spaceSeparators.union([0x09, 0x200B])
    static let spacesAndNewlines = spaces.union([0x0A, 0x0B, 0x0C, 0x0D, 0x85, 0x2028, 0x2029])

    static var allScalars: [Unicode.Scalar] { (0...0x10FFFF).compactMap(Unicode.Scalar.init) }

    @Test func everyScalarIsInTheSetsAsDefined() {
        let wrong = Self.allScalars.filter { scalar in
            WhiteSpace.spaces.contains(scalar) != Self.spaces.contains(scalar.value)
                || WhiteSpace.spacesAndNewlines.contains(scalar) != Self.spacesAndNewlines.contains(scalar.value)
        }
        #expect(wrong.map { "U+" + String($0.value, radix: 16) } == [])
    }

    @Test func trimsScalarsAtBothEndsOnly() {
        #expect(" \u{3000}Mac mini\n".trimming(.spacesAndNewlines) == "Mac mini")
        #expect("\tMac mini\n".trimming(.spaces) == "Mac mini\n")
        #expect("\u{200B} a  b \u{2028}".trimming(.spacesAndNewlines) == "a  b")
        #expect(" \n\u{85} ".trimming(.spacesAndNewlines) == "")
        #expect("".trimming(.spaces) == "")
        // Scalars, not characters: the space goes, the combining acute accent after it stays.
        #expect(Array(" \u{301}a ".trimming(.spaces).unicodeScalars) == ["\u{301}", "a"])
        // U+180E and U+FEFF were white space once and are not.
        #expect("\u{180E}x\u{FEFF}".trimming(.spacesAndNewlines) == "\u{180E}x\u{FEFF}")
    }

    #if os(Linux)
    /// Every scalar of the Basic Multilingual Plane (where both sets are) on either side of a word
    /// trims as Foundation's `trimmingCharacters(in:)` trimmed it.
    @Test func trimsAsFoundationDidOnLinux() {
        let wrong = (0...0xFFFF).compactMap(Unicode.Scalar.init).filter { scalar in
            let text = "\(scalar)\(scalar)a\(scalar)b\(scalar)"
            return text.trimming(.spaces) != text.trimmingCharacters(in: .whitespaces)
                || text.trimming(.spacesAndNewlines) != text.trimmingCharacters(in: .whitespacesAndNewlines)
        }
        #expect(wrong.map { "U+" + String($0.value, radix: 16) } == [])
    }
    #endif
}
