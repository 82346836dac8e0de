import TestSupport
import Testing
import TextSearch

/// ``TextFolding`` against the definition: the Search semantics article's examples, and thousands of random texts
/// against an independent reference (``FoldingReference``, Perl's Unicode data).
struct TextFoldingTests {
    static let seed: UInt64 = 0xF01D

    /// The Search semantics article's table, scalar for scalar.
    @Test(arguments: [
        ("Café", "cafe"), ("CAFE", "cafe"), ("ｃａｆｅ", "cafe"), ("cafe\u{301}", "cafe"), ("Straße", "strasse"),
        ("ﬁle", "file"), ("ΆΝΝΑ", "αννα"), ("Йогурт", "иогурт"), ("ﾃﾞｼﾞﾀﾙ", "デジタル"), ("ﾊﾟｿｺﾝ", "パソコン"),
        ("か\u{3099}", "が"), ("パ", "パ"), ("\u{1109}\u{1161}\u{11B7}\u{1109}\u{1165}\u{11BC}", "삼성"),
        ("東京\u{3000}タワー", "東京 タワー"), ("👍🏽", "👍🏽"), ("ＭａｃＢｏｏｋ Ｐｒｏ", "macbook pro"),
    ])
    func examples(typed: String, folded: String) {
        #expect(Array(TextFolding.fold(typed).unicodeScalars) == Array(folded.unicodeScalars))
    }

    /// NFC and NFD texts fold alike; folding twice changes nothing.
    @Test func canonicallyEquivalentTextsFoldAlike() {
        for text in ["Ω", "Å", "ǖ", "가", "が", "ᾼ", "ﾃﾞ"] {
            let decomposed = String(String.UnicodeScalarView(text.decomposedScalars))
            #expect(Array(TextFolding.fold(text).unicodeScalars) == Array(TextFolding.fold(decomposed).unicodeScalars))
            #expect(TextFolding.fold(TextFolding.fold(text)) == TextFolding.fold(text))
        }
    }

    @Test func randomTextsFoldAsTheReferenceDoes() throws {
        var random = SplitMix64(seed: Self.seed)
        try Self.expectFoldsAsTheReference((0..<5_000).map { _ in RandomTexts.text(maxPieces: 6, &random) })
    }

    /// Texts of the scalars that fold one at a time (Latin-1 and Latin Extended-A/B, kana, CJK,
    /// ASCII), alone and mixed, some with a scalar that does not (a combining mark, a half-width
    /// kana, a Greek letter) before, between or after them, fold as the reference does.
    @Test func textsOfScalarsThatFoldAloneFoldAsTheReferenceDoes() throws {
        var random = SplitMix64(seed: Self.seed)
        let alone = (0x41...0x5A).map { $0 } + (0x80..<0x250).map { $0 } + [0x3041, 0x304C, 0x3096, 0x30A1, 0x30D1, 0x30F6, 0x30FC, 0x4E00, 0x6771, 0x9FFF]
        let others: [UInt32] = [0x301, 0x308, 0x3099, 0x309A, 0xFF83, 0xFF9E, 0x3A3, 0x3C2, 0x1161, 0x30F7, 0x3000, 0xFF21]
        let singles = alone.map { String(Unicode.Scalar(UInt32($0))!) }
        let texts = singles + (0..<5_000).map { _ in
            String(String.UnicodeScalarView((0..<Int(random.next() % 8 + 1)).map { _ in
                let pool = random.next() % 6 == 0 ? others : alone.map(UInt32.init)
                return Unicode.Scalar(pool[Int(random.next() % UInt64(pool.count))])!
            }))
        }
        try Self.expectFoldsAsTheReference(texts)
    }

    /// Records the first 20 of `texts` (made with ``seed``) that fold otherwise than the reference folds them.
    static func expectFoldsAsTheReference(_ texts: [String]) throws {
        let expected = try FoldingReference.fold(texts)
        var failures = 0
        for (text, reference) in zip(texts, expected) where failures < 20 {
            let folded = TextFolding.fold(text)
            if Array(folded.unicodeScalars) != Array(reference.unicodeScalars) {
                failures += 1
                Issue.record("seed \(seed): \(scalars(text)) folds to \(scalars(folded)), reference \(scalars(reference))")
            }
        }
    }

    static func scalars(_ text: String) -> String {
        text.unicodeScalars.map { "U+" + String($0.value, radix: 16, uppercase: true) }.joined(separator: " ")
    }
}

extension String {
    /// The canonical decomposition of the test texts (Swift exposes no NFD).
    fileprivate var decomposedScalars: [Unicode.Scalar] {
        let table: [Unicode.Scalar: [Unicode.Scalar]] = [
            "Ω": ["\u{3A9}"], "Å": ["A", "\u{30A}"], "ǖ": ["u", "\u{308}", "\u{304}"], "가": ["\u{1100}", "\u{1161}"],
            "が": ["\u{304B}", "\u{3099}"], "ᾼ": ["\u{391}", "\u{345}"],
        ]
        return unicodeScalars.flatMap { table[$0] ?? [$0] }
    }
}
