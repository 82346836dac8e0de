#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import FetchedResults
import PostgreSQLSearch
import SQLiteStore
import TextSearch

/// A declared entity searched through a `SearchDescription`: a `FetchRequest`'s `FetchRequest.searchText`
/// then selects the entities whose searched attributes match it (`SearchQuery`), through the indexes.
///
/// ```swift
/// extension Film: SearchableEntity {
///     static let searchDescription = declaration.searchDescription(indexesShortTerms: false)
/// }
/// ```
///
/// The description's `SearchDescription.installSQL` belongs in a migration of the entity's table.
public protocol SearchableEntity: DeclaredEntity {
    /// What a search looks in: usually the entity's declaration's
    /// ``EntityDeclaration/searchDescription(scope:listIndex:indexesShortTerms:scopeValues:accelerators:)``.
    static var searchDescription: SearchDescription { get }
    /// The attribute the description's scope column holds (the `scope` it was declared with), whose
    /// sections a search counts and pages itself; nil (the default) for none.
    static var searchScope: (PartialKeyPath<Self> & Sendable)? { get }
}

extension SearchableEntity {
    public static var searchScope: (PartialKeyPath<Self> & Sendable)? { nil }

    /// The order of a page of the entities sectioned by `sectionKeyPath` and sorted by `sortDescriptors`
    /// (`order`, its SQL), marked as the description's list index order when it is that index's:
    /// sections by ``searchScope`` (or none without a scope), sorted by the first searched text
    /// attribute ascending, then the id.
    static func searchOrder(
        sectionKeyPath: PartialKeyPath<Self>?, sortDescriptors: [SortDescriptor<Self>], order: SQLFragment
    ) -> SearchOrder {
        var firstText: PartialKeyPath<Self>?
        for attribute in declaration.attributes where attribute.isSearchedText && attribute.foldedColumn != nil {
            firstText = attribute.keyPath
            break
        }
        let isListIndexOrder = searchDescription.listIndex != nil && sectionKeyPath == searchScope.map { $0 }
            && sortDescriptors.count == 1 && sortDescriptors[0].order == .forward && sortDescriptors[0].keyPath == firstText
        return SearchOrder(order, isListIndexOrder: isListIndexOrder)
    }
}

/// A search of a ``SearchableEntity`` as the rows of a fetch request: the search's implementation of
/// `RowSource`, which `FetchRequest.searchText` sets as the request's filter.
///
/// Its condition is the search description's plan (`SearchDescription.condition(for:scope:alias:_:)`).
/// Sectioned by the entity's ``SearchableEntity/searchScope``, its sections' counts come from the
/// search's indexes (`SearchDescription.matchesPerScope(_:_:)`) and its pages from the search's
/// executor (`SearchDescription.page(…)`), which also decides what a controller reads first
/// (`SearchCosts.readsFirstBatchOnly(total:idsRead:batchSize:)`).
public struct EntitySearch<Entity: SearchableEntity>: RowSource {
    /// The search, parsed.
    public let query: SearchQuery
    /// The rows the search is restricted to; nil for all.
    public let scope: SearchScope<Entity>?
    /// What the search looks in: the entity's ``SearchableEntity/searchDescription``, or another
    /// description of the same table and indexes (one that reads fewer of its accelerators: a
    /// benchmark pricing them).
    public let searchDescription: SearchDescription

    /// A search of the entity, within `scope` if given, through `description`.
    public init(_ query: SearchQuery, scope: SearchScope<Entity>? = nil, searching description: SearchDescription = Entity.searchDescription) {
        self.query = query
        self.scope = scope
        searchDescription = description
    }

    /// On PostgreSQL, PostgreSQLSearch's condition, through its own indexes.
    public func condition(_ db: any SQLConnection) throws -> SQLFragment {
        let value = scope?.indexedValue
        let search = if let sqlite = db as? Database {
            try searchDescription.condition(for: query, scope: value, alias: Entity.tableName, sqlite)
        } else {
            try PostgreSQLTextSearch(searchDescription).condition(for: query, scope: value, alias: Entity.tableName, db)
        }
        guard let scope, value == nil else { return search }
        return SQLFragment(sql: "(") + search + SQLFragment(sql: ") AND ") + scope.condition(alias: Entity.tableName, db.dialect)
    }

    /// The matches per value of the description's scope, for sections by ``SearchableEntity/searchScope``,
    /// when its indexes count them (with their ids when counting read them), the values the search's
    /// ``scope`` admits only; nil otherwise (or for a scope on another attribute).
    /// On PostgreSQL, nil: the controller counts over ``condition(_:)``.
    public func sectionCounts(_ sections: SectionGrouping<Entity>, _ db: any SQLConnection) throws -> SectionMatches? {
        guard let db = db as? Database else { return nil }
        if query.isEmpty {
            // A scope without terms, on the section key path: the table's maintained counts of the
            // values it admits (nil when not maintained: the controller counts the rows).
            guard let scope, scope.keyPath == sections.keyPath, let column = Entity.column(for: sections.keyPath),
                  let counts = try SectionCounts.counts(
                      forTable: Entity.tableName, section: column.sectionExpression, descending: sections.isDescending, in: db)
            else { return nil }
            return SectionMatches(counts: Dictionary(
                counts.filter { scope.admits($0.key) }.map { ($0.key, $0.count) }, uniquingKeysWith: +))
        }
        guard let searchScope = Entity.searchScope, sections.keyPath == searchScope,
              scope == nil || scope?.keyPath == searchScope,
              let matches = try searchDescription.matchesPerScope(query, db) else { return nil }
        guard let scope else { return SectionMatches(counts: matches.counts, ids: matches.ids) }
        return SectionMatches(
            counts: matches.counts.filter { scope.admits($0.key) }, ids: matches.ids?.filter { scope.admits($0.key) })
    }

    /// A page read by the search's executor, within the section's scope value when sectioned by
    /// ``SearchableEntity/searchScope`` (or within the search's ``scope`` when it is one value of it);
    /// nil for sections by another key path (or of NULL), or a scope the executor cannot page within.
    /// On PostgreSQL, nil: the controller reads through ``condition(_:)``.
    public func page(_ page: SectionPage<Entity>, _ db: any SQLConnection) throws -> [Entity]? {
        guard let db = db as? Database else { return nil }
        // A scope without terms: its pages are read through its condition, as a predicate's are.
        guard !query.isEmpty else { return nil }
        let searchScope = Entity.searchScope.map { $0 }
        let within: DatabaseValue?
        if let section = page.section {
            guard section.keyPath == searchScope, !section.key.isNull, scope.map({ $0.keyPath == searchScope }) ?? true
            else { return nil }
            within = section.key
        } else if let scope {
            guard let value = scope.indexedValue else { return nil }
            within = value
        } else {
            within = nil
        }
        let order = Entity.searchOrder(sectionKeyPath: page.section?.keyPath, sortDescriptors: page.sortDescriptors, order: page.order)
        return try searchDescription.page(
            query, scope: within, order: order, limit: page.limit, offset: page.offset, totalCount: page.count,
            matchIDs: page.ids, selection: Entity.selection, db, decode: Entity.init(row:)
        ).records
    }

    /// With counts from the indexes, the first batch alone (a page of the executor) for many matches,
    /// each section whole for few; without, one pass over the condition, or for a scope without
    /// terms the sections' counts alone.
    public func firstRead(_ counts: SectionMatches?, batchSize: Int) -> FirstRead {
        // A scope without terms reads its pages in the list index, as a predicate does.
        if query.isEmpty { return .sections }
        guard let counts else { return .onePass }
        return SearchCosts.standard.readsFirstBatchOnly(total: counts.total, idsRead: counts.ids != nil, batchSize: batchSize)
            ? .firstBatch : .wholeSections
    }
}

extension FetchRequest where Entity: SearchableEntity {
    /// A request of the entities that match `searchText` too (see `searchText`).
    public init(
        predicate: Predicate<Entity>? = nil, sortDescriptors: [SortDescriptor<Entity>] = [], searchText: String?,
        sectionKeyPath: (PartialKeyPath<Entity> & Sendable)? = nil, fetchLimit: Int? = nil, fetchOffset: Int = 0,
        batchSize: Int = 0
    ) {
        self.init(
            predicate: predicate, sortDescriptors: sortDescriptors, sectionKeyPath: sectionKeyPath, fetchLimit: fetchLimit,
            fetchOffset: fetchOffset, batchSize: batchSize)
        self.searchText = searchText
    }

    /// A request of the entities that match `searchText` (nil or empty: all) among those whose attribute
    /// at `scope` holds one of `values` (see ``searchScope``).
    ///
    /// ```swift
    /// let french = FetchRequest<Recipe>(sortDescriptors: [SortDescriptor(\.name)], searchText: "tarte", scope: \.cuisine, in: ["French"])
    /// ```
    public init<Value: DatabaseValueConvertible>(
        predicate: Predicate<Entity>? = nil, sortDescriptors: [SortDescriptor<Entity>] = [], searchText: String?,
        scope: KeyPath<Entity, Value> & Sendable, in values: [Value],
        sectionKeyPath: (PartialKeyPath<Entity> & Sendable)? = nil, fetchLimit: Int? = nil, fetchOffset: Int = 0,
        batchSize: Int = 0
    ) {
        self.init(
            predicate: predicate, sortDescriptors: sortDescriptors, searchText: searchText, sectionKeyPath: sectionKeyPath,
            fetchLimit: fetchLimit, fetchOffset: fetchOffset, batchSize: batchSize)
        searchScope = SearchScope(scope, in: values)
    }

    /// The request's search as typed: only the entities that match it (`SearchQuery`), an
    /// ``EntitySearch`` set as the request's `FetchRequest.filter`. Nil or empty for no search.
    public var searchText: String? {
        get { searchQuery?.text }
        set { searchQuery = newValue.flatMap { $0.isEmpty ? nil : SearchQuery($0) } }
    }

    /// The request's search, parsed; nil for none.
    public var searchQuery: SearchQuery? {
        get {
            guard let query = (filter as? EntitySearch<Entity>)?.query, !query.text.isEmpty else { return nil }
            return query
        }
        set { setSearch(newValue, scope: searchScope) }
    }

    /// What the request's search is restricted to, carried with its text: the two are one
    /// ``EntitySearch``, so that a controller counts and pages the scoped search. Nil for no restriction.
    public var searchScope: SearchScope<Entity>? {
        get { (filter as? EntitySearch<Entity>)?.scope }
        set { setSearch(searchQuery, scope: newValue) }
    }

    /// Sets the request's filter to the search of `query` within `scope`; none without either.
    private mutating func setSearch(_ query: SearchQuery?, scope: SearchScope<Entity>?) {
        let description = (filter as? EntitySearch<Entity>)?.searchDescription ?? Entity.searchDescription
        filter = query == nil && scope == nil ? nil : EntitySearch<Entity>(query ?? SearchQuery(""), scope: scope, searching: description)
    }

    /// The request's order as a search's page order (`SearchableEntity.searchOrder(sectionKeyPath:sortDescriptors:order:)`).
    ///
    /// - Throws: `FetchError.unmappedKeyPath(_:)` for a key path that is not a column.
    public func searchOrder() throws -> SearchOrder {
        Entity.searchOrder(sectionKeyPath: sectionKeyPath, sortDescriptors: sortDescriptors, order: SQLFragment(sql: try orderSQL()))
    }

    /// A page of the entities that match the request's search within its ``searchScope``, in its sort
    /// descriptors' order, and how many match in all, read in the current read (one snapshot): the
    /// search's executor (`SearchDescription.page(…)`) within one value of the entity's
    /// ``SearchableEntity/searchScope`` or none; one statement over the search's condition for another
    /// restriction. The request has no predicate (a restriction is its ``searchScope``).
    ///
    /// ```swift
    /// let request = FetchRequest<Recipe>(sortDescriptors: [SortDescriptor(\.name)], searchText: "tarte", scope: \.cuisine, in: ["French"])
    /// let page = try queue.read { db in try request.searchPage(limit: 20, db) }
    /// ```
    ///
    /// - Throws: `FetchError.unmappedKeyPath(_:)` for a key path that is not a column; `DatabaseError`.
    /// - Precondition: `limit` and `offset` are not negative, and the request has no predicate: mistakes
    ///   of the calling code, which checks a number a user typed before it asks for a page (an offset
    ///   past the matches is no mistake: its page is empty).
    public func searchPage(
        limit: Int, offset: Int = 0, costs: SearchCosts = .standard, _ db: any SQLConnection
    ) throws -> SearchPage<Entity> {
        precondition(limit >= 0 && offset >= 0, "a search page's limit and offset are not negative, not \(limit) and \(offset)")
        precondition(predicate == nil, "a search page restricts by its scope, not a predicate")
        let query = searchQuery ?? SearchQuery("")
        let scope = searchScope
        // SQLite's executor pages through its indexes; on PostgreSQL, one statement over the search's
        // condition (PostgreSQLSearch's indexes).
        if let db = db as? Database, scope == nil || scope?.indexedValue != nil {
            let description = (filter as? EntitySearch<Entity>)?.searchDescription ?? Entity.searchDescription
            return try description.page(
                query, scope: scope?.indexedValue, order: searchOrder(), limit: limit, offset: offset,
                selection: Entity.selection, costs: costs, db, decode: Entity.init(row:))
        }
        let condition = try (filter as? EntitySearch<Entity> ?? EntitySearch<Entity>(query, scope: scope)).condition(db)
        let from = "FROM \(Entity.tableName) WHERE \(condition.sql)"
        let total = try db.scalar(Int.self, sql: "SELECT count(*) \(from)", arguments: condition.arguments) ?? 0
        let records = try db.fetchAll(
            sql: "SELECT \(Entity.selection) \(from) ORDER BY \(try orderSQL()) LIMIT \(limit) OFFSET \(offset)",
            arguments: condition.arguments, Entity.init(row:))
        return SearchPage(query: query, records: records, offset: offset, totalCount: total)
    }
}
