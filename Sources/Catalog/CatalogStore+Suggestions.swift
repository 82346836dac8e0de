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
    /// (`TextFolding/fold(_:)`), so `ｍａｃ` and `MÀC` complete like `mac`, and `ﾃﾞ` like `デ`. A
    /// range on the `name_folded` index finds the names
    /// (`SearchDescription/completionCondition(forPrefix:)`), so the cost depends on `limit`, not
    /// on the catalog's size.
    ///
    /// - Parameters:
    ///   - prefix: what the user typed so far.
    ///   - limit: the most names returned.
    ///   - entity: whose names: products (default) or phones.
    /// - Throws: `DatabaseError`.
    public func suggest(prefix: String, limit: Int = 10, entity: EntityKind = .products) throws -> [String] {
        precondition(limit >= 0)
        return try writer.read { db in try Self.suggestions(prefix: prefix, limit: limit, entity: entity, db) }
    }

    /// The names that complete `prefix`, read in `db`: see ``suggest(prefix:limit:entity:)``.
    static func suggestions(prefix: String, limit: Int, entity: EntityKind, _ db: any SQLConnection) throws -> [String] {
        let description = entity.searchDescription
        let range = description.completionCondition(forPrefix: prefix) ?? .alwaysTrue
        return try db.fetchAll(
            sql: "SELECT name FROM \(description.table) WHERE \(range.sql) ORDER BY name_folded, id LIMIT ?",
            arguments: range.arguments + [limit]) { try $0.decode(String.self, at: 0) }
    }
}
