import Foundation

/// A product of a generated catalog, before it is stored: what each contender inserts.
public struct SyntheticProduct: Sendable, Hashable, Codable {
    /// `device`, `desktop` or `portable`: the schema's product types and the list's sections.
    public var type: String
    /// Two or three words of ``Vocabulary/words``, unique in its catalog.
    public var name: String
    public var yearIntroduced: Int
    public var introPrice: Double

    public init(type: String, name: String, yearIntroduced: Int, introPrice: Double) {
        self.type = type
        self.name = name
        self.yearIntroduced = yearIntroduced
        self.introPrice = introPrice
    }
}

/// A product as the benchmarks read it back, the struct W2 fetches into (raw C and GRDB; the store
/// fetches its own `Product`, which has the same fields).
public struct BenchProduct: Sendable, Hashable {
    public var id: Int64
    public var type: String
    public var name: String
    public var yearIntroduced: Int
    public var introPrice: Double

    public init(id: Int64, type: String, name: String, yearIntroduced: Int, introPrice: Double) {
        self.id = id
        self.type = type
        self.name = name
        self.yearIntroduced = yearIntroduced
        self.introPrice = introPrice
    }
}

/// The text folding the store applies to names before indexing them, repeated here so that the raw-C
/// and GRDB contenders write the same `name_folded` (the runner checks it against `TextFolding.fold`).
public enum Folding {
    public static func fold(_ text: String) -> String {
        text.folding(options: [.caseInsensitive, .diacriticInsensitive, .widthInsensitive], locale: nil)
    }

    /// `text` as an FTS5 string literal: one phrase, which the trigram tokenizer matches as a substring.
    public static func ftsPhrase(_ text: String) -> String {
        "\"" + text.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }
}
