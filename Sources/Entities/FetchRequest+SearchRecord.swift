import FetchedResults
import SQLiteStore
import TextSearch

/// What `FetchRequest.searchRecord(at:costs:_:)` found at an index path.
public enum SearchRecordLookup<Entity: SearchableEntity> {
    /// The entity at the path.
    case found(Entity)
    /// No row at the path; the result has `sectionCount` sections.
    case outOfRange(sectionCount: Int)
}

extension FetchRequest where Entity: SearchableEntity {
    /// The entity at `path` in the result of the request's search, read without counting its
    /// matches: which sections (values of the entity's ``SearchableEntity/searchScope``, as the table's
    /// maintained `SectionCounts` list them, in the sections' order) hold a match, up to the path's,
    /// each from its first match in the search indexes
    /// (`SearchDescription.scopesHoldingMatches(_:among:limit:costs:_:)`), and the row at the path's
    /// row in its section, a page of one planned with no total
    /// (`SearchDescription.row(at:of:scope:order:selection:costs:_:decode:)`). The path names the row a
    /// controller of the request shows there.
    ///
    /// Nil when the request is not one this reads: no search, a predicate, limit or offset, sections
    /// by another key path, a restriction on another attribute, counts not maintained, PostgreSQL, or
    /// a search whose counts read no match (`PagePlanner.scopePresence(for:costs:)`: `a`, `mac`).
    /// A `FetchedResultsController` reads those.
    ///
    /// `costs` chooses the strategies (tests force each one).
    ///
    /// - Throws: `FetchError.unmappedKeyPath(_:)` for a key path that is not a column; `DatabaseError`.
    public func searchRecord(at path: ItemPath, costs: SearchCosts = .standard, _ db: any SQLConnection) throws -> SearchRecordLookup<Entity>? {
        guard let db = db as? Database, let column = searchRecordSections, let query = searchQuery, let sectionKeyPath else { return nil }
        // A section sorted by its own key path descending lists its sections descending too (the
        // request's order).
        let descending = sortDescriptors.first.map { $0.keyPath == sectionKeyPath && $0.order == .reverse } ?? false
        guard let values = try SectionCounts.counts(
            forTable: Entity.tableName, section: column.sectionExpression, descending: descending, in: db)
        else { return nil }
        let description = (filter as? EntitySearch<Entity>)?.searchDescription ?? Entity.searchDescription
        let keys = values.map(\.key).filter { self.searchScope?.admits($0) ?? true }
        guard let sections = try description.scopesHoldingMatches(query, among: keys, limit: min(path.section, keys.count) + 1, costs: costs, db) else { return nil }
        if path.section < sections.count, let record = try description.row(
            at: path.row, of: query, scope: sections[path.section], order: searchOrder(), selection: Entity.selection, costs: costs, db,
            decode: Entity.init(row:)) {
            return .found(record)
        }
        // Out of range: every section is found, for the message.
        let all = try description.scopesHoldingMatches(query, among: keys, limit: keys.count, costs: costs, db) ?? []
        return .outOfRange(sectionCount: all.count)
    }

    /// The column of the sections ``searchRecord(at:costs:_:)`` finds, when it may read the request
    /// (on a file: a search, no predicate, limit or offset, sections and any restriction by the
    /// entity's ``SearchableEntity/searchScope``); nil when it returns nil whatever the database, so
    /// that a caller opens no read for it.
    public var searchRecordSections: EntityColumn? {
        guard let query = searchQuery, !query.isEmpty, predicate == nil, fetchLimit == nil, fetchOffset == 0,
              let searchScope = Entity.searchScope, let sectionKeyPath, sectionKeyPath == searchScope,
              self.searchScope.map({ $0.keyPath == searchScope }) ?? true
        else { return nil }
        return Entity.column(for: searchScope)
    }
}
