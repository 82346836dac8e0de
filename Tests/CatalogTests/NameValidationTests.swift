@testable import Catalog
import Foundation
import SQLiteStore
import Testing
import TestSupport

/// A name is checked as the Guarantees article says: trimmed of the white space and newlines around it, then
/// refused when empty, longer than 200 characters, or holding control characters or U+FFFD.
struct NameValidationTests {
    /// Scalars at and around every class the checks tell apart: ASCII white space and controls,
    /// Unicode separators (Zs, Zl, Zp), U+0085, C1 controls, format characters, U+FFFD, letters,
    /// combining marks and scalars outside the BMP.
    static let scalars: [Unicode.Scalar] = [
        " ", "\t", "\n", "\r", "\u{0B}", "\u{0C}", "\u{00}", "\u{1F}", "\u{7F}", "\u{85}", "\u{9F}", "\u{A0}",
        "\u{1680}", "\u{2000}", "\u{200A}", "\u{200B}", "\u{2028}", "\u{2029}", "\u{202F}", "\u{205F}", "\u{3000}",
        "\u{180E}", "\u{FEFF}", "\u{FFFD}", "a", "Z", "é", "\u{301}", "東", "\u{1F600}", "-", ".",
    ]

    @Test func trimmingAgreesWithFoundationOnRandomTexts() {
        var random = SplitMix64(seed: 16)
        for _ in 0..<20_000 {
            var text = String.UnicodeScalarView()
            for _ in 0..<Int.random(in: 0...6, using: &random) {
                text.append(Self.scalars.randomElement(using: &random)!)
            }
            let string = String(text)
            #expect(string.trimming(.spacesAndNewlines) == string.trimmingCharacters(in: .whitespacesAndNewlines),
                    "\(string.unicodeScalars.map { String($0.value, radix: 16) })")
        }
    }

    @Test func aNameIsTrimmedAndRefusedAsTheReadmeSays() throws {
        #expect(try Validation.name(" \u{3000}iPod\u{2029}\n") == "iPod")
        #expect(try Validation.name("\u{85}Mac\u{A0}") == "Mac")
        #expect(throws: CatalogError.self) { try Validation.name(" \t\u{2028} ") }
        #expect(throws: CatalogError.self) { try Validation.name("i\u{7}Pod") }
        #expect(throws: CatalogError.self) { try Validation.name("i\u{9F}Pod") }
        #expect(throws: CatalogError.self) { try Validation.name("i\u{FFFD}Pod") }
        #expect(try Validation.name(String(repeating: "é", count: 200)) == String(repeating: "é", count: 200))
        #expect(throws: CatalogError.self) { try Validation.name(String(repeating: "a", count: 201)) }
        #expect(throws: CatalogError.self) { try Validation.name(String(repeating: "東", count: 201)) }
    }
}
