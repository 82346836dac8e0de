import SQLiteStore
import TextSearch

extension CatalogStore {
    /// Names that complete a typed prefix: the names whose folded form starts with the folded prefix,
    /// in folded-name order, at most `limit`.
    ///
    /// ```swift
    /// try store.suggest(prefix: "mac")  // ["Mac Pro", "MacBook Air", "MacBook Pro"]
    /// ```
    ///
    /// Leading white space is ignored; the rest of the prefix is folded like a search term
    /// (`TextFolding/fold(_:)`), so `ｍａｃ` and `MÀC` complete like `mac`, and `ﾃﾞ` like `デ`. Ranges
    /// of the `name_folded` column find the names (`SearchDescription/completionCondition(forPrefix:)`):
    /// in a file, products are read as each type's range of their list index
    /// (`products_by_type_name`) and phones as a range of `phones_by_name`, so the cost depends on
    /// `limit`, not on the catalog's size.
    ///
    /// - Parameters:
    ///   - prefix: what the user typed so far.
    ///   - limit: the most names returned.
    ///   - entity: whose names: products (default) or phones.
    /// - Throws: `DatabaseError`.
    /// - Precondition: `limit` is not negative: a mistake of the calling code, which checks a number a
    ///   user typed (as `catalog suggest --limit` does).
    public func suggest(prefix: String, limit: Int = 10, entity: EntityKind = .products) throws -> [String] {
        precondition(limit >= 0, "a suggestions' limit is not negative, not \(limit)")
        return try writer.read { db in try Self.suggestions(prefix: prefix, limit: limit, entity: entity, db) }
    }

    /// The names that complete `prefix`, read in `db`: see ``suggest(prefix:limit:entity:)``.
    ///
    /// With a scope (a product's type, which its CHECK keeps among the scope values), the first `limit`
    /// names of each value's range, then the first `limit` of those: a file has no index of products
    /// by name alone (migration 2). On a server, whose products have no list index, one read.
    static func suggestions(prefix: String, limit: Int, entity: EntityKind, _ db: any SQLConnection) throws -> [String] {
        let description = entity.searchDescription
        let range = description.completionCondition(forPrefix: prefix) ?? .alwaysTrue
        let table = description.table
        let first = "ORDER BY name_folded, id LIMIT ?"
        var query = SQLFragment(sql: "SELECT name FROM \(table) WHERE \(range.sql) \(first)", arguments: range.arguments + [limit])
        if db.dialect == .sqlite, let scope = description.scopeColumn, !description.scopeValues.isEmpty {
            let ranges = description.scopeValues.map { value in
                SQLFragment(
                    sql: "SELECT * FROM (SELECT name, name_folded, id FROM \(table) WHERE \(scope) = ? AND \(range.sql) \(first))",
                    arguments: [value] + range.arguments + [limit])
            }
            let union = SQLFragment(joining: ranges, separator: " UNION ALL ")
            query = SQLFragment(sql: "SELECT name FROM (\(union.sql)) \(first)", arguments: union.arguments + [limit])
        }
        return try db.fetchAll(sql: query.sql, arguments: query.arguments) { try $0.decode(String.self, at: 0) }
    }
}
