/// One word of a search: what the user typed, folded for matching, and the number it reads as, if any.
///
/// A term matches a record when the record's folded name (for phones: name or maker) contains
/// ``folded`` as a substring. A product also matches a term that reads as a number (``number``) when
/// its year introduced or intro price equals it. See ``SearchQuery`` for the whole definition.
public struct SearchTerm: Sendable, Hashable {
    /// The term as typed.
    public let text: String
    /// The term folded by ``TextFolding/fold(_:)``: what is looked for in folded names.
    public let folded: String
    /// The value of a term made of decimal digits with an optional fraction (`599`, `2007`, `599.00`,
    /// also in full-width digits), compared with a product's year and price.
    public let number: Double?

    /// Reads one term, which must hold no white space.
    public init(_ text: String) {
        self.text = text
        folded = TextFolding.fold(text)
        number = Self.number(in: folded)
    }

    /// The length of ``folded`` in Unicode scalars, the unit of SQLite's `substr` and of FTS5's trigrams.
    public var length: Int { folded.unicodeScalars.count }

    /// Whether a name can contain the term at all. Names hold no control characters (see
    /// ``Product/validated()``), so a term with one matches no name. Such a term is never a number either.
    public var canMatchName: Bool {
        !folded.unicodeScalars.contains { $0.properties.generalCategory == .control }
    }

    /// Whether the term is too short for the trigram index (1 or 2 scalars).
    public var isShort: Bool { length < 3 }

    /// `599`, `599.5`, `599.`: ASCII digits (after folding, so full-width digits count) with at most one
    /// dot; finite values only. The whole part may be grouped by thousands with commas, as prices are
    /// shown (`1,299`, `1,299.00`).
    private static func number(in folded: String) -> Double? {
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
              let value = Double(folded.replacingOccurrences(of: ",", with: "")), value.isFinite else { return nil }
        return value
    }
}
