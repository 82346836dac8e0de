import SQLiteStore

/// An optional structure a search keeps beside its two exact indexes (the trigram index for terms of
/// 3+ scalars, the grams index for 1-2): it only makes some queries faster, never changes a result,
/// and is declared by the entity that wants it. A search with none is exact and complete.
///
/// ```swift
/// let products = SearchDescription(
///     table: "products", textColumns: ["name_folded"], accelerators: [.substringCounts, .gramBits])
/// ```
///
/// Each says what it keeps (its table, created empty by ``SearchDescription/installSQL``), how it stays
/// exact (statements of the description's triggers for each changed row; its set of entries chosen
/// again by ``refresh(_:_:)``) and, in its own type, what it answers: ``SubstringCountsAccelerator``
/// the rows of a frequent long term, ``GramBitsAccelerator`` which rows hold a very common 1-scalar
/// gram. Accelerators need the grams index (``SearchDescription/indexesShortTerms``).
public protocol SearchAccelerator: Sendable {
    /// The name it is declared and left out by (`substring-counts`, `gram-bits`).
    var name: String { get }
    /// Its table for `description`.
    func table(of description: SearchDescription) -> String
    /// The SQL that creates its table, empty.
    func createSQL(for description: SearchDescription) -> String
    /// The statements the triggers of `description` run for the changed row `new` (`new.change`: 1
    /// added, -1 removed) to keep the table exact.
    func changedRowSQL(for description: SearchDescription) -> [String]
    /// Chooses again which entries the table keeps, from the rows, and fills it.
    func refresh(_ description: SearchDescription, _ db: Database) throws
}

extension SearchAccelerator where Self == SubstringCountsAccelerator {
    /// Counts of the frequent substrings of 3+ scalars.
    public static var substringCounts: SubstringCountsAccelerator { SubstringCountsAccelerator() }
}

extension SearchAccelerator where Self == GramBitsAccelerator {
    /// Bits of the rows holding each very common 1-scalar gram.
    public static var gramBits: GramBitsAccelerator { GramBitsAccelerator() }
}

/// Counts of the frequent substrings of 3 to ``SearchDescription/substringCountMaximumLength`` scalars
/// (``SearchDescription/substringCountsTable``): answers how many rows (per scope value) hold such a
/// term in one row each, where the trigram index reads its doclists (Benchmarks/README.md, "What each
/// search accelerator buys").
public struct SubstringCountsAccelerator: SearchAccelerator {
    public var name: String { "substring-counts" }

    public func table(of description: SearchDescription) -> String { description.table + "_substring_counts" }

    public func createSQL(for description: SearchDescription) -> String { description.substringCountsSQL }

    public func changedRowSQL(for description: SearchDescription) -> [String] { description.substringCountsChangedRowSQL }

    public func refresh(_ description: SearchDescription, _ db: Database) throws { try description.refreshSubstringCounts(db) }
}

/// Bits of the rows holding each very common 1-scalar gram (``SearchDescription/gramBitsTable``):
/// answers which of a long term's rows hold such a gram, and the count of several such grams, without
/// reading the grams index's long doclists (Benchmarks/README.md, "What each search accelerator buys").
public struct GramBitsAccelerator: SearchAccelerator {
    public var name: String { "gram-bits" }

    public func table(of description: SearchDescription) -> String { description.table + "_gram_bits" }

    public func createSQL(for description: SearchDescription) -> String { description.gramBitsSQL }

    public func changedRowSQL(for description: SearchDescription) -> [String] { description.gramBitsChangedRowSQL }

    public func refresh(_ description: SearchDescription, _ db: Database) throws { try description.refreshGramBits(db) }
}

extension SearchDescription {
    /// The declared accelerator of type `kind`, when the description keeps it (it needs the grams index).
    func accelerator<Kind: SearchAccelerator>(_ kind: Kind.Type) -> Kind? {
        guard indexesShortTerms else { return nil }
        return accelerators.lazy.compactMap { $0 as? Kind }.first
    }

    /// The accelerators the description keeps: those declared, with a grams index.
    var keptAccelerators: [any SearchAccelerator] { indexesShortTerms ? accelerators : [] }
}
