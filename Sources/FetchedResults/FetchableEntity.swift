import SQLiteStore

/// A type a ``FetchRequest`` can fetch: a table, a row decoder, and the one place where its key paths
/// map to SQL.
///
/// ```swift
/// extension Player: FetchableEntity {
///     static var tableName: String { "players" }
///     static var selection: String { "id, name, score" }
///     var rowID: Int64? { id }
///     static func column(for keyPath: PartialKeyPath<Player>) -> EntityColumn? {
///         switch keyPath {
///         case \Player.name: EntityColumn("name", sortedBy: "name_folded")
///         case \Player.score: EntityColumn("score")
///         default: nil
///         }
///     }
/// }
/// ```
///
/// A key path without a column is not fetchable: a predicate, sort descriptor or section key path that
/// uses it is rejected with ``FetchError/unmappedKeyPath(_:)``.
public protocol FetchableEntity: Sendable {
    /// The table holding the entities.
    static var tableName: String { get }
    /// The column holding each row's unique integer id (its `INTEGER PRIMARY KEY`); `id` by default.
    static var idColumn: String { get }
    /// The columns ``init(row:)`` reads, in order, as SQL: `id, name, score`.
    static var selection: String { get }
    /// The SQL for `keyPath`, or nil when it has none.
    static func column(for keyPath: PartialKeyPath<Self>) -> EntityColumn?
    /// The name of a section whose ``EntityColumn/sectionExpression`` is
    /// `value`, for the section key path `keyPath`. By default the value as text.
    static func sectionName(for value: DatabaseValue, keyPath: PartialKeyPath<Self>) -> String
    /// The condition that selects the entities matching a search text, or nil when the entity cannot be
    /// searched (the default); then a request with a search text fails with
    /// ``FetchError/searchNotSupported(_:)``.
    ///
    /// It is planned in `db`, inside the read transaction that runs it (a search engine such as
    /// TextSearch's `SearchDescription/condition(for:scope:alias:_:)` reads its terms' estimates there),
    /// and must stay exact in later reads, which reuse it for the controller's batches and changes.
    static func searchCondition(for text: String, _ db: Database) throws -> SQLFragment?
    /// How many entities match a search text in each value of the section expression
    /// `sectionExpression`, when the entity's search keeps such counts (TextSearch's
    /// `SearchDescription/countsPerScope(_:_:)`), so that a controller's sections need not count the
    /// matching rows; nil (the default) has them counted with a `GROUP BY`. Read in `db`, in the
    /// read transaction of the fetch. Values missing from the result count 0.
    static func searchCounts(for text: String, sectionExpression: String, _ db: Database) throws -> [DatabaseValue: Int]?
    /// The ids of a page of the entities that match a search text, within the section whose
    /// key is `sectionKey` when `sectionExpression` is given (nil: one section, every row), in the
    /// order `orderSQL` (an `ORDER BY` clause ending with the id), `limit` of them from `offset`: as the
    /// entity's search plans a page (TextSearch's `SearchDescription/page(_:scope:order:limit:offset:selection:thresholds:_:decode:)`),
    /// so that a controller's batch is read the way the search reads its own pages. Nil (the
    /// default): the batch is read through the fetch's condition. Read in `db`, in the read of the batch.
    static func searchPageIDs(
        for text: String, sectionExpression: String?, sectionKey: DatabaseValue, orderSQL: String,
        limit: Int, offset: Int, _ db: Database
    ) throws -> [Int64]?
    /// Reads an entity from a row of `SELECT <selection> FROM <tableName>`.
    init(row: Row) throws
    /// The entity's row id; nil for an entity that was never saved.
    var rowID: Int64? { get }
}

extension FetchableEntity {
    public static var idColumn: String { "id" }

    public static func sectionName(for value: DatabaseValue, keyPath: PartialKeyPath<Self>) -> String {
        switch value {
        case .null: ""
        case .text(let text): text
        default: value.description
        }
    }

    public static func searchCondition(for text: String, _ db: Database) throws -> SQLFragment? { nil }

    public static func searchCounts(for text: String, sectionExpression: String, _ db: Database) throws -> [DatabaseValue: Int]? {
        nil
    }

    public static func searchPageIDs(
        for text: String, sectionExpression: String?, sectionKey: DatabaseValue, orderSQL: String,
        limit: Int, offset: Int, _ db: Database
    ) throws -> [Int64]? {
        nil
    }
}
