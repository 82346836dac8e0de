/// One word of a search: what the user typed, folded for matching, and the number it reads as, if any.
///
/// A term matches a row when one of its folded text columns contains ``folded`` as a substring, or,
/// for a term that reads as a number (``number``), when one of its number columns equals it (a
/// product's year or price). See ``SearchQuery`` for the whole definition.
public struct SearchTerm: Sendable, Hashable {
    /// The term as typed.
    public let text: String
    /// The term folded by ``TextFolding/fold(_:)``: what is looked for in folded texts.
    public let folded: String
    /// The value of a term made of decimal digits with an optional fraction (`599`, `2007`, `599.00`,
    /// also in full-width digits; `$599` too), compared with a row's number columns.
    public let number: Double?

    /// Reads one term, which must hold no white space.
    public init(_ text: String) {
        self.text = text
        folded = TextFolding.fold(text)
        number = Self.number(in: folded)
    }

    /// The length of ``folded`` in Unicode scalars, the unit of SQLite's `substr` and of FTS5's trigrams.
    public var length: Int { folded.unicodeScalars.count }

    /// Whether a searched text can contain the term at all. Searched texts hold no control characters
    /// (their owners validate them: the catalog's names do), so a term with one matches nothing. Such a
    /// term is never a number either.
    public var canMatchText: Bool {
        !folded.unicodeScalars.contains { $0.properties.generalCategory == .control }
    }

    /// Whether the term is too short for the trigram index (1 or 2 scalars).
    public var isShort: Bool { length < 3 }

    /// `599`, `599.5`, `599.`: ASCII digits (after folding, so full-width digits count) with at most one
    /// dot; finite values only. The whole part may be grouped by thousands with commas, and one
    /// currency sign (Unicode's `Sc` category) may lead, as prices are shown (`1,299`, `$1,299.00`).
    private static func number(in term: String) -> Double? {
        let signed = term.unicodeScalars.first?.properties.generalCategory == .currencySymbol
        let folded = signed ? String(term.unicodeScalars.dropFirst()) : term
        let scalars = folded.unicodeScalars
        guard let first = scalars.first, ("0"..."9").contains(first), scalars.count <= 40 else { return nil }
        var dots = 0
        for scalar in scalars {
            if scalar == "." { dots += 1 } else if !("0"..."9").contains(scalar) && scalar != "," { return nil }
        }
        let whole = folded.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)[0]
        let groups = whole.split(separator: ",", omittingEmptySubsequences: false)
        let isGrouped = groups.count == 1 || (groups[0].count <= 3 && groups.dropFirst().allSatisfy { $0.count == 3 })
        guard dots <= 1, isGrouped, !folded.dropFirst(whole.count).contains(","),
              let value = Double(String(String.UnicodeScalarView(scalars.filter { $0 != "," }))), value.isFinite else { return nil }
        return value
    }
}
