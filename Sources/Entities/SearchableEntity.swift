import FetchedResults
import SQLiteStore
import TextSearch

/// A declared entity searched through a `SearchDescription`: a `FetchRequest`'s `searchText` then
/// selects the entities whose searched attributes match it (`SearchQuery`), through the indexes.
///
/// ```swift
/// extension Film: SearchableEntity {
///     static let searchDescription = declaration.searchDescription(indexesShortTerms: false)
/// }
/// ```
///
/// The description's `SearchDescription.installSQL` belongs in a migration of the entity's table.
public protocol SearchableEntity: DeclaredEntity {
    /// What a search looks in: usually ``EntityDeclaration/searchDescription(scope:listIndex:indexesShortTerms:scopeValues:)``
    /// of the entity's declaration.
    static var searchDescription: SearchDescription { get }
}

extension SearchableEntity {
    /// The entities that match `text` under the search semantics of `SearchQuery`: the plan of
    /// ``searchDescription``, estimates included, made in `db`.
    public static func searchCondition(for text: String, _ db: Database) throws -> SQLFragment? {
        try searchDescription.condition(for: SearchQuery(text), alias: tableName, db)
    }

    /// The entities that match `text` per value of the description's scope column, when its
    /// indexes count them without reading the rows (`SearchDescription.matchesPerScope(_:_:)`, with
    /// their ids when it read them), for sections by that column; nil otherwise.
    public static func searchCounts(for text: String, sectionExpression: String, _ db: Database) throws -> SearchSectionCounts? {
        guard sectionExpression == searchDescription.scopeColumn,
              let matches = try searchDescription.matchesPerScope(SearchQuery(text), db) else { return nil }
        return SearchSectionCounts(counts: matches.counts, ids: matches.ids)
    }

    /// A page of the entities that match `text` (within the section of `sectionKey` when sectioned
    /// by the description's scope column), planned and read by `SearchDescription.page(…)`, the
    /// executor of `searchPage`, `count` its known total and `ids` its known matches; nil for sections
    /// by another expression (or of NULL).
    public static func searchPage(
        for text: String, sectionExpression: String?, sectionKey: DatabaseValue, orderSQL: String,
        limit: Int, offset: Int, count: Int?, ids: [Int64]?, _ db: Database
    ) throws -> [Self]? {
        let description = searchDescription
        if let sectionExpression, sectionExpression != description.scopeColumn || sectionKey.isNull { return nil }
        return try description.page(
            SearchQuery(text), scope: sectionExpression == nil ? nil : sectionKey, order: description.order(sql: orderSQL),
            limit: limit, offset: offset, totalCount: count, matchIDs: ids, selection: selection, db, decode: Self.init(row:)
        ).records
    }
}
