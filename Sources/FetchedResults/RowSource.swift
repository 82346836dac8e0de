import SQLiteStore

/// What selects a request's rows and how a ``FetchedResultsController`` reads them: the one protocol
/// between the controller and whatever selects rows.
///
/// A request's ``FetchRequest/predicate`` is the plain implementation: a condition, whose sections are
/// counted by a `GROUP BY` and whose pages are read in SQL. A search (Entities' `SearchableEntity`,
/// set as ``FetchRequest/filter``) is another: it counts its sections and reads its pages through
/// its own indexes. The controller asks only this protocol, so it holds no policy of either.
///
/// ```swift
/// struct TitleWords: RowSource {
///     var words: [String]
///     func condition(_ db: any SQLConnection) throws -> SQLFragment {
///         SQLFragment(joining: words.map { SQLFragment(sql: "instr(title_folded, ?) > 0", arguments: [$0]) }, separator: " AND ")
///     }
/// }
/// var request = FetchRequest<Album>()
/// request.filter = TitleWords(words: ["blue"])
/// ```
public protocol RowSource<Entity>: Sendable {
    /// The entity whose rows are selected.
    associatedtype Entity: FetchableEntity

    /// The condition on a row of the entity's table (columns unqualified, or qualified with the table's
    /// name) that holds exactly for the selected rows: what keyset batches, index paths, snapshots and
    /// change tracking read through. Planned in `db`, inside the read that runs it, and exact in later
    /// reads too, which reuse it.
    ///
    /// `db` is either engine's connection (SQLiteStore's `Database`, PostgreSQLStore's
    /// `PostgreSQLConnection`): a source written for one engine casts it, and throws on the other.
    func condition(_ db: any SQLConnection) throws -> SQLFragment

    /// How many selected rows each section holds, when the source knows without reading the rows (with
    /// their ids, when counting read them); nil (the default): the controller counts them over
    /// ``condition(_:)``. Read in `db`, in the read of the fetch.
    func sectionCounts(_ sections: SectionGrouping<Entity>, _ db: any SQLConnection) throws -> SectionMatches?

    /// A page of one section's selected rows in the request's order, read the source's own way; nil
    /// (the default): the controller reads it through ``condition(_:)``. Read in `db`.
    ///
    /// - Returns: exactly the page's entities, or nil.
    func page(_ page: SectionPage<Entity>, _ db: any SQLConnection) throws -> [Entity]?

    /// How `performFetch()` reads a result of this source with a batch size: given the section counts
    /// the source gave (``sectionCounts(_:_:)``, nil when it gave none) and the batch size. The default
    /// reads the sections' counts and the first batch (``FirstRead/sections``).
    func firstRead(_ counts: SectionMatches?, batchSize: Int) -> FirstRead
}

extension RowSource {
    public func sectionCounts(_ sections: SectionGrouping<Entity>, _ db: any SQLConnection) throws -> SectionMatches? { nil }

    public func page(_ page: SectionPage<Entity>, _ db: any SQLConnection) throws -> [Entity]? { nil }

    public func firstRead(_ counts: SectionMatches?, batchSize: Int) -> FirstRead { .sections }
}

/// What `performFetch()` reads of a result with a batch size, as its ``RowSource`` chooses.
public enum FirstRead: Sendable, Hashable {
    /// The sections and their counts (counted over the condition when the source gave none), and the
    /// first batch through the condition, in the same read; each other batch when first asked for, as
    /// a page of the source or through its condition.
    case sections
    /// The sections, and the first batch read as a page of the source
    /// (``RowSource/page(_:_:)``), in the same read; the others when asked for.
    case firstBatch
    /// Each section read whole as one page of the source: every row's id, so that tracking reads
    /// nothing more.
    case wholeSections
    /// One pass over the condition in order (`SELECT key, id … ORDER BY …`): the sections, their
    /// counts and every row's id at once, so that batches are read by id and tracking reads nothing more.
    case onePass
}

/// How a request's rows are grouped into sections, as a ``RowSource`` is asked for their counts.
public struct SectionGrouping<Entity: FetchableEntity>: Sendable {
    /// The section key path.
    public var keyPath: PartialKeyPath<Entity> & Sendable
    /// Whether sections are in descending order of their keys.
    public var isDescending: Bool
}

/// How many selected rows each section holds, as a ``RowSource`` counted them, and which, when
/// counting read their ids.
public struct SectionMatches: Sendable, Hashable {
    /// The number of rows per section key; keys missing count 0.
    public var counts: [DatabaseValue: Int]
    /// The rows' ids per section key, in any order, when counting read them; nil otherwise. The
    /// source's pages of the same read are then read from them (``SectionPage/ids``).
    public var ids: [DatabaseValue: [Int64]]?

    /// Counts per section key, with the ids when they were read.
    public init(counts: [DatabaseValue: Int], ids: [DatabaseValue: [Int64]]? = nil) {
        self.counts = counts
        self.ids = ids
    }

    /// The number of rows in all sections.
    public var total: Int { counts.values.reduce(0, +) }
}

/// One page a controller asks a ``RowSource`` for: rows of one section, in the request's order.
public struct SectionPage<Entity: FetchableEntity>: Sendable {
    /// The section key path and the key of the page's section; nil for one section of every row.
    public var section: (keyPath: PartialKeyPath<Entity> & Sendable, key: DatabaseValue)?
    /// The request's order within a section (its sort descriptors; the id ascending breaks ties).
    public var sortDescriptors: [SortDescriptor<Entity>]
    /// The same order as SQL on the entity's table: the section's expression first when sectioned,
    /// then each sort descriptor's sort expression, then the id ascending.
    public var order: SQLFragment
    /// The most rows of the page.
    public var limit: Int
    /// The section's rows skipped before the page.
    public var offset: Int
    /// How many rows the section holds in this read, when the source counted them in it.
    public var count: Int?
    /// Exactly the section's rows' ids in this read, when the source's counts read them.
    public var ids: [Int64]?
}
