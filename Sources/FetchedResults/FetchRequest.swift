#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// What to fetch: which entities (a `#Predicate`, and a further ``RowSource`` such as a search), in
/// which order (sort descriptors), in which sections (a section key path), how many (limit and
/// offset), and how many to load at a time (batch size).
///
/// ```swift
/// var request = FetchRequest<Product>(
///     predicate: #Predicate { $0.yearIntroduced >= 2000 },
///     sortDescriptors: [SortDescriptor(\.name)],
///     sectionKeyPath: \.type)
/// request.searchText = "mac"   // a SearchableEntity's search (Entities), set as the filter
/// request.batchSize = 50
/// ```
///
/// The order of a result is total and the same on every run: rows are ordered by the section key
/// (see ``sectionKeyPath``), then by each sort descriptor's ``EntityColumn/sortExpression``, then by id
/// ascending, always, so that ties are broken the same way everywhere.
public struct FetchRequest<Entity: FetchableEntity>: Sendable {
    /// Which entities to fetch; nil for all of them.
    public var predicate: Predicate<Entity>?
    /// The order of rows within a section. A descriptor's key path must map to a column; text sorts
    /// by the column's sort expression (folded, for names).
    public var sortDescriptors: [SortDescriptor<Entity>]
    /// A further selection of the entities, AND-ed with ``predicate``: a search (Entities'
    /// `FetchRequest.searchText` sets one) or any other ``RowSource``; nil for none. A request with a
    /// filter alone (no predicate, limit or offset) takes its sections' counts and pages from it.
    public var filter: (any RowSource<Entity>)?
    /// The key path whose ``EntityColumn/sectionExpression`` groups rows into sections; nil for one
    /// unnamed section.
    ///
    /// Sections follow the first sort key, as in Core Data: the section expression is the first
    /// `ORDER BY` term. It is ascending, unless the first sort descriptor is on the same key path and
    /// descending; then sections are in descending order too.
    public var sectionKeyPath: (PartialKeyPath<Entity> & Sendable)?
    /// The most rows the result holds; nil for no limit.
    public var fetchLimit: Int?
    /// The number of leading rows of the ordered result to skip.
    public var fetchOffset: Int
    /// With a batch size, the controller keeps row ids only and loads entities this many at a time,
    /// evicting old batches; 0 loads every entity at `FetchedResultsController/performFetch()`.
    public var batchSize: Int

    /// Creates a request.
    public init(
        predicate: Predicate<Entity>? = nil,
        sortDescriptors: [SortDescriptor<Entity>] = [],
        filter: (any RowSource<Entity>)? = nil,
        sectionKeyPath: (PartialKeyPath<Entity> & Sendable)? = nil,
        fetchLimit: Int? = nil,
        fetchOffset: Int = 0,
        batchSize: Int = 0
    ) {
        self.predicate = predicate
        self.sortDescriptors = sortDescriptors
        self.filter = filter
        self.sectionKeyPath = sectionKeyPath
        self.fetchLimit = fetchLimit
        self.fetchOffset = fetchOffset
        self.batchSize = batchSize
    }
}
