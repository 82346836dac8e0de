/// The one definition of how texts are compared in search and sorted: canonically equivalent texts
/// are equal, and width, case and the diacritics of Latin, Greek and Cyrillic letters are ignored.
///
/// `fold(_:)` computes, in this order:
/// 1. Width: each Halfwidth and Fullwidth Forms character (U+FF00-U+FFEF) becomes its compatibility
///    decomposition (`Ａ` → `A`, `ｶ` → `カ`, `ﾞ` → U+3099), and U+3000 IDEOGRAPHIC SPACE a space.
/// 2. Canonical composition (NFC), so NFC and NFD texts agree and a half-width voiced or semi-voiced
///    mark composes with the kana before it (`ﾃﾞ` → `デ`, `ﾊﾟ` → `パ`).
/// 3. Full case folding (`ß` → `ss`, `ﬁ` → `fi`, `Σ`, `σ` and `ς` → `σ`).
/// 4. Diacritics: the nonspacing marks (General Category Mn) that follow a Latin, Greek or Cyrillic
///    letter in the canonical decomposition are removed (`é` → `e`, `ά` → `α`, `й` → `и`); marks on
///    other letters stay (`パ` stays `パ`, not `ハ`; `가` stays `가`).
/// 5. Canonical composition again.
///
/// | Typed | Folded | | Typed | Folded |
/// |---|---|---|---|---|
/// | `Café`, `CAFE`, `ｃａｆｅ` | `cafe` | | `ﾃﾞｼﾞﾀﾙ` | `デジタル` |
/// | `Straße` | `strasse` | | `か` + U+3099 | `が` |
/// | `ﬁle` | `file` | | `パ` | `パ` (not `ハ`) |
/// | `ΆΝΝΑ` | `αννα` | | `삼성` (NFD) | `삼성` (NFC) |
///
/// The library stores every searched text's folded form next to it and folds search terms the same
/// way. Only the standard library's Unicode data and `FoldingTables` are used (no ICU).
public enum TextFolding {
    /// `text` folded for comparison.
    public static func fold(_ text: String) -> String {
        foldedScalarByScalar(text) ?? foldedInSteps(text)
    }

    /// `text` folded one scalar at a time, when each of its scalars folds alone: ASCII, U+0080-U+024F
    /// (Latin-1 and Latin Extended-A/B: letters and signs, no combining mark), hiragana, katakana and
    /// CJK ideographs. None of them combines with the scalar before or after it, nor does what it
    /// folds to, so the text folds to its scalars' folds one after the other (each computed once by
    /// ``foldedInSteps(_:)``). Most searched names are such texts (every name of the synthetic
    /// catalog); nil for any other, which folds in steps.
    ///
    /// Read from the text's UTF-8 bytes (valid, as every `String`'s), the scalars told by their lead
    /// byte: ASCII lowercased in place, no `String` made for a scalar (W1b on PostgreSQL).
    private static func foldedScalarByScalar(_ text: String) -> String? {
        var text = text
        return text.withUTF8 { bytes -> String? in
            var folded: [UInt8] = []
            folded.reserveCapacity(bytes.count + 4)
            let latinFolds = Tables.latinFolds
            var index = 0
            while index < bytes.count {
                let lead = bytes[index]
                if lead < 0x80 {
                    folded.append((0x41...0x5A).contains(lead) ? lead | 0x20 : lead)
                    index += 1
                } else if lead < 0xE0 {
                    // Two bytes: U+0080-U+07FF, of which U+0080-U+024F fold alone.
                    let value = Int(lead & 0x1F) << 6 | Int(bytes[index + 1] & 0x3F)
                    guard value < 0x250 else { return nil }
                    folded += latinFolds[value - 0x80]
                    index += 2
                } else if lead < 0xF0 {
                    // Three bytes: kana and CJK ideographs are themselves.
                    let value = Int(lead & 0x0F) << 12 | Int(bytes[index + 1] & 0x3F) << 6 | Int(bytes[index + 2] & 0x3F)
                    guard (0x3041...0x3096).contains(value) || (0x30A1...0x30F6).contains(value) || value == 0x30FC
                        || (0x4E00...0x9FFF).contains(value)
                    else { return nil }
                    folded += UnsafeBufferPointer(rebasing: bytes[index..<(index + 3)])
                    index += 3
                } else {
                    return nil
                }
            }
            return String(decoding: folded, as: UTF8.self)
        }
    }

    /// `text` folded by the five steps above, one after the other.
    private static func foldedInSteps(_ text: String) -> String {
        var widened = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            if scalar == "\u{3000}" {
                widened.append(" ")
            } else if let replacement = Tables.shared.width[scalar.value] {
                widened.append(contentsOf: replacement)
            } else {
                widened.append(scalar)
            }
        }
        var caseFolded: [Unicode.Scalar] = []
        caseFolded.reserveCapacity(widened.count)
        for scalar in composed(String(widened)).unicodeScalars {
            if let folding = Tables.shared.caseFolding[scalar.value] {
                caseFolded += folding
            } else if scalar.value < 0x80 {
                caseFolded.append(("A"..."Z").contains(scalar) ? Unicode.Scalar(scalar.value | 0x20)! : scalar)
            } else {
                caseFolded += scalar.properties.lowercaseMapping.unicodeScalars
            }
        }
        var result = String.UnicodeScalarView()
        var afterLatinGreekCyrillicLetter = false
        for scalar in caseFolded {
            if scalar.properties.generalCategory == .nonspacingMark {
                if !afterLatinGreekCyrillicLetter { result.append(scalar) }
            } else if let stripped = Tables.shared.withoutDiacritics[scalar.value] {
                result.append(contentsOf: stripped)
                afterLatinGreekCyrillicLetter = stripped.last.map(isLatinGreekCyrillicLetter) ?? false
            } else {
                result.append(scalar)
                afterLatinGreekCyrillicLetter = isLatinGreekCyrillicLetter(scalar)
            }
        }
        return composed(String(result))
    }

    /// `text` in Normalization Form C, by the standard library's own tables.
    private static func composed(_ text: String) -> String {
        String(decoding: text._nfcCodeUnits, as: UTF8.self)
    }

    /// Whether `scalar` is a letter of the Latin, Greek or Cyrillic script.
    static func isLatinGreekCyrillicLetter(_ scalar: Unicode.Scalar) -> Bool {
        let ranges = FoldingTables.latinGreekCyrillicLetters
        // The last range whose first scalar is at most `scalar`, by binary search over the pairs.
        var (low, high) = (0, ranges.count / 2)
        while low < high {
            let middle = (low + high) / 2
            if ranges[2 * middle] <= scalar.value { low = middle + 1 } else { high = middle }
        }
        return low > 0 && scalar.value <= ranges[2 * (low - 1) + 1]
    }

    /// `FoldingTables`' mappings, read once into dictionaries.
    private struct Tables: Sendable {
        static let shared = Tables()
        /// The fold of each scalar U+0080-U+024F alone, in UTF-8, for ``foldedScalarByScalar(_:)``.
        static let latinFolds: [[UInt8]] = (0x80..<0x250).map { Array(foldedInSteps(String(Unicode.Scalar($0)!)).utf8) }
        let width = mapping(FoldingTables.width)
        let caseFolding = mapping(FoldingTables.caseFolding)
        let withoutDiacritics = mapping(FoldingTables.withoutDiacritics)

        /// A flat list `scalar, count, replacement…` as a dictionary.
        private static func mapping(_ flat: [UInt32]) -> [UInt32: [Unicode.Scalar]] {
            var result: [UInt32: [Unicode.Scalar]] = [:]
            var index = 0
            while index < flat.count {
                let count = Int(flat[index + 1])
                result[flat[index]] = flat[(index + 2)..<(index + 2 + count)].map { Unicode.Scalar($0)! }
                index += 2 + count
            }
            return result
        }
    }
}
