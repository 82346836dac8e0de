/// How many terminal columns text takes: East Asian wide and fullwidth characters 2, combining marks
/// and other zero-width scalars 0, everything else 1 (what `wcwidth(3)` answers for printable text),
/// and an emoji presentation sequence 2, one wide glyph (what Python's `wcwidth.wcswidth` answers).
///
/// ```swift
/// DisplayWidth.of("東京")      // 4
/// DisplayWidth.of("e\u{301}")  // 1
/// DisplayWidth.of("👨‍👩‍👧")        // 2
/// DisplayWidth.truncating("MacBook Pro 東京", toWidth: 10)  // "MacBook P…"
/// ```
///
/// Wide characters are those whose East Asian Width is W or F in Unicode 14.0, plus the CJK planes 2
/// and 3 (wide by default): the ranges of ``wideRanges``, generated from Python's
/// `unicodedata.east_asian_width` (see that table). Zero-width scalars are read from the scalar's own
/// properties: nonspacing, spacing and enclosing marks (as `wcwidth` counts them), format characters
/// (ZWJ, ZWSP) but for the prepended concatenation marks, and Hangul medial and final jamo. Tests
/// compare every code point with the independent `wcwidth` package's answers.
enum DisplayWidth {
    /// The columns `text` takes: its grapheme clusters' (printable ASCII, most cells, one a byte).
    static func of<Text: StringProtocol>(_ text: Text) -> Int {
        if text.utf8.allSatisfy({ (0x20..<0x7F).contains($0) }) { return text.utf8.count }
        var width = 0
        for character in text { width += of(character) }
        return width
    }

    /// The columns a grapheme cluster takes, as a terminal draws it: an emoji presentation sequence is
    /// one wide glyph, 2 (an emoji with a skin tone, also on a text-default base such as ☝🏽, a flag,
    /// emoji joined by ZWJ such as 👨‍👩‍👧, or a character followed by VS16 such as ❤️ and keycaps); else its scalars' widths add up (a base and
    /// its combining marks, Hangul jamo).
    static func of(_ character: Character) -> Int {
        let scalars = character.unicodeScalars
        guard let first = scalars.first, scalars.count > 1 else { return scalars.first.map(of) ?? 0 }
        let second = scalars[scalars.index(after: scalars.startIndex)]
        let isEmojiSequence = first.properties.isEmojiPresentation
            || first.properties.isEmoji && second.value == 0xFE0F
            || first.properties.isEmojiModifierBase && second.properties.isEmojiModifier
        return isEmojiSequence ? 2 : scalars.reduce(0) { $0 + of($1) }
    }

    /// The format characters that show as a sign over the digits after them (Unicode's
    /// Prepended_Concatenation_Mark property, PropList.txt), which Swift does not expose.
    private static let prependedConcatenationMarks: Set<UInt32> = [
        0x600, 0x601, 0x602, 0x603, 0x604, 0x605, 0x6DD, 0x70F, 0x890, 0x891, 0x8E2, 0x110BD, 0x110CD,
    ]

    /// The columns `scalar` takes: 0, 1 or 2 (a control character counts 0: it is never drawn).
    static func of(_ scalar: Unicode.Scalar) -> Int {
        let value = scalar.value
        if value < 0x7F { return value >= 0x20 ? 1 : 0 }
        if value < 0xA0 { return 0 }
        if value == 0xAD { return 1 }  // the soft hyphen shows as a hyphen
        if (0x1160...0x11FF).contains(value) || (0xD7B0...0xD7FF).contains(value) { return 0 }  // Hangul jamo that join
        if value == 0x3164 || value == 0xFFA0 { return 0 }  // Hangul fillers: invisible
        if prependedConcatenationMarks.contains(value) { return 1 }  // U+0600 and kin show as a sign
        switch scalar.properties.generalCategory {
        case .nonspacingMark, .spacingMark, .enclosingMark, .format, .lineSeparator, .paragraphSeparator: return 0
        default: break
        }
        return isWide(value) ? 2 : 1
    }

    /// Whether the scalar value is East Asian wide or fullwidth, by binary search in ``wideRanges``.
    static func isWide(_ value: UInt32) -> Bool {
        if value < wideRanges[0].lowerBound { return false }
        var low = 0
        var high = wideRanges.count - 1
        while low <= high {
            let middle = (low + high) / 2
            let range = wideRanges[middle]
            if value < range.lowerBound {
                high = middle - 1
            } else if value > range.upperBound {
                low = middle + 1
            } else {
                return true
            }
        }
        return false
    }

    /// `text` cut to at most `width` columns, by whole grapheme clusters, ending with `…` when it was
    /// cut; a wide character that would straddle the edge is left out.
    static func truncating(_ text: String, toWidth width: Int) -> String {
        guard width > 0 else { return "" }
        if of(text) <= width { return text }
        var result = ""
        var used = 0
        for character in text {
            let columns = of(character)
            if used + columns > width - 1 { break }
            result.append(character)
            used += columns
        }
        return result + "…"
    }

    /// `text` cut or padded with spaces to exactly `width` columns (padding on the right, or on the
    /// left when `alignRight`).
    static func fitting(_ text: String, toWidth width: Int, alignRight: Bool = false) -> String {
        let cut = truncating(text, toWidth: width)
        let padding = String(repeating: " ", count: max(0, width - of(cut)))
        return alignRight ? padding + cut : cut + padding
    }
}

extension DisplayWidth {
    /// The East Asian Width W and F ranges of Unicode 14.0 (unassigned code points between two wide ones
    /// joined to them), planes 2 and 3, and the ranges Unicode 16.0 made wide; sorted, for a binary
    /// search. Generated with Python 3.11's `unicodedata` (Unicode 14.0):
    /// a scalar is wide when `unicodedata.east_asian_width(c) in ("W", "F")`.
    static let wideRanges: [ClosedRange<UInt32>] = ([
        0x1100...0x115F, 0x231A...0x231B, 0x2329...0x232A, 0x23E9...0x23EC, 0x23F0...0x23F0, 0x23F3...0x23F3,
        0x25FD...0x25FE, 0x2614...0x2615, 0x2648...0x2653, 0x267F...0x267F, 0x2693...0x2693, 0x26A1...0x26A1,
        0x26AA...0x26AB, 0x26BD...0x26BE, 0x26C4...0x26C5, 0x26CE...0x26CE, 0x26D4...0x26D4, 0x26EA...0x26EA,
        0x26F2...0x26F3, 0x26F5...0x26F5, 0x26FA...0x26FA, 0x26FD...0x26FD, 0x2705...0x2705, 0x270A...0x270B,
        0x2728...0x2728, 0x274C...0x274C, 0x274E...0x274E, 0x2753...0x2755, 0x2757...0x2757, 0x2795...0x2797,
        0x27B0...0x27B0, 0x27BF...0x27BF, 0x2B1B...0x2B1C, 0x2B50...0x2B50, 0x2B55...0x2B55, 0x2E80...0x303E,
        0x3041...0x3247, 0x3250...0x4DBF, 0x4E00...0xA4C6, 0xA960...0xA97C, 0xAC00...0xD7A3, 0xF900...0xFAD9,
        0xFE10...0xFE19, 0xFE30...0xFE6B, 0xFF01...0xFF60, 0xFFE0...0xFFE6, 0x16FE0...0x1B2FB, 0x1F004...0x1F004,
        0x1F0CF...0x1F0CF, 0x1F18E...0x1F18E, 0x1F191...0x1F19A, 0x1F200...0x1F320, 0x1F32D...0x1F335,
        0x1F337...0x1F37C, 0x1F37E...0x1F393, 0x1F3A0...0x1F3CA, 0x1F3CF...0x1F3D3, 0x1F3E0...0x1F3F0,
        0x1F3F4...0x1F3F4, 0x1F3F8...0x1F43E, 0x1F440...0x1F440, 0x1F442...0x1F4FC, 0x1F4FF...0x1F53D,
        0x1F54B...0x1F54E, 0x1F550...0x1F567, 0x1F57A...0x1F57A, 0x1F595...0x1F596, 0x1F5A4...0x1F5A4,
        0x1F5FB...0x1F64F, 0x1F680...0x1F6C5, 0x1F6CC...0x1F6CC, 0x1F6D0...0x1F6D2, 0x1F6D5...0x1F6DF,
        0x1F6EB...0x1F6EC, 0x1F6F4...0x1F6FC, 0x1F7E0...0x1F7F0, 0x1F90C...0x1F93A, 0x1F93C...0x1F945,
        0x1F947...0x1F9FF, 0x1FA70...0x1FAF6, 0x20000...0x3FFFD,
    ] + [
        // Made wide by Unicode 16.0 (EastAsianWidth-16.0.0.txt): trigrams, digrams, hexagrams, Tai Xuan
        // Jing and counting rod symbols; and the regional indicators, which terminals draw as emoji.
        0x2630...0x2637, 0x268A...0x268F, 0x4DC0...0x4DFF, 0x1D300...0x1D356, 0x1D360...0x1D376, 0x1F1E6...0x1F1FF,
    ]).sorted { $0.lowerBound < $1.lowerBound }
}
