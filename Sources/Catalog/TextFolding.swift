import Foundation

/// The one definition of how names are compared in search and sorted: case, diacritics and character
/// width are ignored.
///
/// `"Café"`, `"CAFE"` and `"ｃａｆｅ"` all fold to `"cafe"`. The library stores every name's folded form
/// next to it (`name_folded`), indexes that, and folds search terms the same way, so SQL and the
/// brute-force reference in the tests agree by construction.
public enum TextFolding {
    /// `text` folded for comparison: lowercased, without diacritics, half-width.
    public static func fold(_ text: String) -> String {
        // Foundation's case folding already lowercases (and folds ß to ss, ﬁ to fi).
        text.folding(options: [.caseInsensitive, .diacriticInsensitive, .widthInsensitive], locale: nil)
    }
}
