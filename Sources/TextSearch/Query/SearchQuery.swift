/// A search as typed in a search bar, parsed once into terms: the one definition of search, shared by
/// the SQL the executor runs, the CLI, and the brute-force references in the tests.
///
/// The rules, as in Apple's UISearchBar samples, for any script:
/// - The text is trimmed and split on any Unicode white space (U+3000 IDEOGRAPHIC SPACE included).
///   No terms: every row of the scope matches.
/// - A term matches a row when one of its searched texts (``SearchDescription/textColumns``: a
///   product's name, a phone's name or maker) contains the term as a substring, both folded by
///   ``TextFolding/fold(_:)`` and compared scalar by scalar. `ＭａｃＢｏｏｋ` finds `MacBook`, `cafe`
///   finds `Café`, `京` finds `東京タワー`, `ﾃﾞｼﾞﾀﾙ` finds `デジタル`.
/// - A row also matches a term that reads as a number (`599`, `2007`, `599.00`) when one of its
///   number columns (``SearchDescription/numberColumns``: a product's year or price) equals it.
/// - Every term must match (AND). A lone combining accent follows no letter, so it stays a term of its own.
/// - Input is data, never syntax: quotes, `*`, `^`, `:`, parentheses, `-`, `AND`, `OR`, `NOT`, `NEAR`
///   and SQL are looked for literally; a term with a control character matches nothing.
///
/// ```swift
/// let query = SearchQuery("iphone 599　2007")
/// query.terms.map(\.folded)  // ["iphone", "599", "2007"]
/// ```
public struct SearchQuery: Sendable, Hashable, CustomStringConvertible {
    /// The text as typed.
    public let text: String
    /// The terms, in the order typed.
    public let terms: [SearchTerm]

    /// Parses a search text.
    public init(_ text: String) {
        self.text = text
        terms = text.unicodeScalars
            .split(whereSeparator: { $0.properties.isWhitespace })
            // Through `Substring`'s concrete initializer: `String.UnicodeScalarView($0)` appends the
            // slice generically, which looks a conformance up at run time, a scan of every conformance
            // record of the static binary the first time.
            .map { SearchTerm(String(Substring($0))) }
            .filter { !$0.folded.isEmpty }
    }

    /// The terms' folded forms, in order: two texts with the same ones search the same (`mac` and `mac `).
    public var foldedTerms: [String] { terms.map(\.folded) }

    /// The terms that decide the matches, each once, in the order typed: without a term inside another
    /// term that is not a number (`a` in `max`, `ca` in `cafe`), which a text holding the longer one
    /// holds too (a number may match by its columns instead, so it implies nothing). Scalars compare
    /// as bytes, as SQLite's `instr` does.
    ///
    /// - Parameter isNumeric: whether a term also matches by a number column.
    public func decidingTerms(isNumeric: (SearchTerm) -> Bool) -> [SearchTerm] {
        var seen = Set<String>()
        let distinct = terms.filter { seen.insert($0.folded).inserted }
        return distinct.filter { term in
            let needle = Array(term.folded.utf8)
            return !distinct.contains { other in
                other.folded != term.folded && !isNumeric(other) && Self.contains(Array(other.folded.utf8), needle)
            }
        }
    }

    /// Whether `haystack` holds `needle` as a run of bytes.
    static func contains(_ haystack: [UInt8], _ needle: [UInt8]) -> Bool {
        guard needle.count <= haystack.count else { return false }
        return (0...(haystack.count - needle.count)).contains { start in
            haystack[start..<(start + needle.count)].elementsEqual(needle)
        }
    }

    /// Whether there is no term, so that every row matches.
    public var isEmpty: Bool { terms.isEmpty }

    /// The text as typed.
    public var description: String { text }
}
