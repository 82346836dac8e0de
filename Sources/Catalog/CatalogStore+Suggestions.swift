import SQLiteStore

extension CatalogStore {
    /// Names that complete a typed prefix: the names whose folded form starts with the folded prefix,
    /// in folded-name order, at most `limit`.
    ///
    /// ```swift
    /// try store.suggest(prefix: "mac")  // ["Mac Pro", "MacBook Air", "MacBook Pro"]
    /// ```
    ///
    /// Leading white space is ignored; the rest of the prefix is folded like a search term
    /// (``TextFolding/fold(_:)``), so `ｍａｃ` and `MÀC` complete like `mac`. A range on the
    /// `name_folded` index finds the names, so the cost depends on `limit`, not on the catalog's size.
    ///
    /// - Parameters:
    ///   - prefix: what the user typed so far.
    ///   - limit: the most names returned.
    ///   - entity: whose names: products (default) or phones.
    /// - Throws: ``DatabaseError``.
    public func suggest(prefix: String, limit: Int = 10, entity: Entity = .products) throws -> [String] {
        precondition(limit >= 0)
        return try database.read { db in try Self.suggestions(prefix: prefix, limit: limit, entity: entity, db) }
    }

    /// The names that complete `prefix`, read in `db`: see ``suggest(prefix:limit:entity:)``.
    static func suggestions(prefix: String, limit: Int, entity: Entity, _ db: Database) throws -> [String] {
        let folded = TextFolding.fold(String(prefix.drop { $0.isWhitespace }))
        let table = entity.searchSchema.table
        // Every text that starts with `folded` sorts from `folded` to `folded` followed by the
        // highest scalar; substr() then keeps exactly those that start with it.
        return try db.fetchAll(
            sql: """
                SELECT name FROM \(table)
                WHERE name_folded >= ?1 AND name_folded <= ?2 AND substr(name_folded, 1, length(?1)) = ?1
                ORDER BY name_folded, id LIMIT ?3
                """,
            arguments: [folded, folded + "\u{10FFFF}\u{10FFFF}", limit]) { try $0.decode(String.self, at: 0) }
    }
}
