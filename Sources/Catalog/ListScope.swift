import SQLiteStore

/// The values a list of an entity type may be limited to (``CatalogEntity/Scope``): the values of its
/// scope attribute, each with the word a person types (its raw value) and the title a scope bar shows.
public protocol ListScope: RawRepresentable<String>, Hashable, Sendable, Codable, CaseIterable, DatabaseValueConvertible {
    /// Reads a scope as a person types it.
    ///
    /// - Throws: ``CatalogError/invalidValue(field:value:reason:)`` naming the valid values.
    init(parsing text: String) throws
    /// The title a scope bar shows (`Desktop`).
    var title: String { get }
}

extension ProductType: ListScope {}

/// The scope of an entity type that has none: no value, so that a request of it is never limited.
public enum NoScope: ListScope {
    /// Refuses every text: there is no scope to name.
    ///
    /// - Throws: ``CatalogError/invalidValue(field:value:reason:)``.
    public init(parsing text: String) throws {
        throw CatalogError.invalidValue(field: "scope", value: text, reason: "there is no scope")
    }

    /// No text names a value: nil.
    public init?(rawValue: String) { nil }

    /// No stored value is one: nil.
    public static func fromDatabaseValue(_ value: DatabaseValue) -> NoScope? { nil }

    /// Never asked: there is no value.
    public var rawValue: String { switch self {} }

    /// Never asked: there is no value.
    public var title: String { switch self {} }

    /// Never asked: there is no value.
    public var databaseValue: DatabaseValue { switch self {} }
}
