import TestSupport

/// Random texts for the folding and search tests, from pieces that exercise every step of the
/// folding definition: NFC and NFD spellings, half-width and full-width kana with voiced marks,
/// Hangul syllables and jamo, emoji sequences, ligatures, case foldings, scripts with and without
/// removed diacritics. All are assigned in Unicode 14, the version of the Perl reference.
enum RandomTexts {
    static let pieces: [String] = [
        // ASCII and full-width ASCII
        "a", "b", "c", "Mac", "BOOK", "pro", "x", "3", "2007", "599", "ＭａｃＢｏｏｋ", "ｐｒｏ", "３", "Ａ",
        // Latin with diacritics, NFC and NFD; case foldings; ligatures
        "é", "e\u{301}", "É", "E\u{301}", "Café", "cafe\u{301}", "ñ", "n\u{303}", "ǖ", "u\u{308}\u{304}", "q\u{301}",
        "ß", "ẞ", "Straße", "ﬁ", "ﬂ", "ﬀ", "İ", "ı", "ŉ", "ǰ", "Ø", "ł",
        // Greek and Cyrillic
        "Ά", "ά", "α\u{301}", "ΐ", "Σ", "σ", "ς", "ᾳ", "ᾼ", "й", "и\u{306}", "Ё", "ё", "Ж",
        // Kana: hiragana, katakana, NFD voiced, half-width with marks
        "が", "か\u{3099}", "パ", "ハ\u{309A}", "ハ", "デジタル", "テ\u{3099}シ\u{3099}タル", "ﾃﾞｼﾞﾀﾙ", "ｼｬｰﾌﾟ", "シャープ",
        "ﾊﾟ", "ﾊ", "ｶ", "ﾞ", "ﾟ", "\u{3099}", "ヴ", "ｳﾞ", "東京", "京",
        // Hangul: syllables and their jamo
        "삼성", "\u{1109}\u{1161}\u{11B7}\u{1109}\u{1165}\u{11BC}", "가", "\u{1100}\u{1161}", "ﾡ", "ￂ",
        // Emoji sequences, modifiers, variation selectors
        "👍", "👍🏽", "🏽", "❤️", "❤", "\u{FE0F}", "👨‍👩‍👧", "🇯🇵", "\u{200D}",
        // Other scripts, marks, spaces, odd width forms
        "ꭰ", "Ꭰ", "Ա", "ﬓ", "\u{301}", "\u{308}", "\u{3000}", " ", "￣", "｡", "ｰ", "￥", "ا", "ب\u{64E}", "क\u{93F}",
    ]

    /// A text of 1 to `maxPieces` random pieces.
    static func text(maxPieces: Int = 5, _ random: inout SplitMix64) -> String {
        (0..<(1 + Int(random.next() % UInt64(maxPieces)))).map { _ in pieces[Int(random.next() % UInt64(pieces.count))] }.joined()
    }
}
