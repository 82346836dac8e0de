import FetchedResults
import SQLiteStore

/// What a search of a ``SearchableEntity`` is restricted to: the rows whose attribute holds one of
/// some values (recipes of one cuisine), asked with the attribute's key path and values of its type.
///
/// ```swift
/// let french = FetchRequest<Recipe>(searchText: "tarte", scope: \.cuisine, in: ["French"])
/// ```
///
/// Restricted to one value of the entity's ``SearchableEntity/searchScope``, the search asks its
/// indexes within that value; any other restriction is a condition on the attribute's column.
public struct SearchScope<Entity: SearchableEntity>: Sendable, Hashable {
    /// The attribute.
    public let keyPath: PartialKeyPath<Entity> & Sendable
    /// The values it may hold, as stored; none selects no row.
    public let values: [DatabaseValue]

    /// The rows whose attribute at `keyPath` holds one of `values`; no value selects no row (an empty
    /// page, not an error, since the values may be what a user chose).
    ///
    /// - Precondition: `keyPath` is a declared attribute's: a mistake of the calling code.
    public init<Value: DatabaseValueConvertible>(_ keyPath: KeyPath<Entity, Value> & Sendable, in values: [Value]) {
        precondition(Entity.declaration.attribute(for: keyPath) != nil, "a search scope is a declared attribute, not \(keyPath)")
        self.keyPath = keyPath
        self.values = values.map(\.databaseValue)
    }

    public static func == (lhs: Self, rhs: Self) -> Bool { lhs.keyPath == rhs.keyPath && lhs.values == rhs.values }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(keyPath)
        hasher.combine(values)
    }

    /// The one value of the entity's search scope the restriction is, when it is one: what the search's
    /// indexes are asked within.
    var indexedValue: DatabaseValue? {
        guard values.count == 1, keyPath == Entity.searchScope.map({ $0 }) else { return nil }
        return values[0]
    }

    /// Whether the restriction admits a row whose attribute holds `value`.
    func admits(_ value: DatabaseValue) -> Bool { values.contains(value) }

    /// `<alias>.<column> IN (?, …)`; false (in the dialect's words) for no values.
    func condition(alias: String, _ dialect: SQLDialect) -> SQLFragment {
        guard !values.isEmpty else { return SQLFragment(sql: dialect.boolean(false)) }
        let column = Entity.declaration.attribute(for: keyPath)!.column
        let placeholders = Array(repeating: "?", count: values.count).joined(separator: ", ")
        return SQLFragment(sql: "\(alias).\(SQLText.identifier(column)) IN (\(placeholders))", arguments: StatementArguments(values: values))
    }
}
