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
    /// Reads an entity from a row of `SELECT <selection> FROM <tableName>`.
    init(row: Row) throws
    /// Every row of `statement` read with ``init(row:)``, in order, cut into consecutive sections of
    /// `counts` rows, each with its rows' ids: how a controller without a batch size reads its whole
    /// result. The default, which a type need not replace, is specialized for the type in its own module
    /// (it is inlinable), so that no row is read through generic code.
    ///
    /// - Throws: ``FetchError/resultChanged`` when the statement has more or fewer rows than the sum of
    ///   `counts`; what ``init(row:)`` or the statement throws.
    static func readSections(
        of statement: Statement, arguments: StatementArguments, counts: [Int]
    ) throws -> [(entities: [Self], ids: [Int64])]
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

    @inlinable  // specialized in the entity's module: a row's entity and id are read without generic metadata lookups
    public static func readSections(
        of statement: Statement, arguments: StatementArguments, counts: [Int]
    ) throws -> [(entities: [Self], ids: [Int64])] {
        var sections: [(entities: [Self], ids: [Int64])] = []
        sections.reserveCapacity(counts.count)
        var entities: [Self] = []
        var ids: [Int64] = []
        entities.reserveCapacity(counts.first ?? 0)
        ids.reserveCapacity(counts.first ?? 0)
        try statement.forEachRow(arguments: arguments) { row in
            guard sections.count < counts.count else { throw FetchError.resultChanged }
            let entity = try Self(row: row)
            guard let id = entity.rowID else { preconditionFailure("\(Self.self).init(row:) read no row id") }
            entities.append(entity)
            ids.append(id)
            if ids.count == counts[sections.count] {
                sections.append((entities, ids))
                let next = sections.count < counts.count ? counts[sections.count] : 0
                entities = []
                ids = []
                entities.reserveCapacity(next)
                ids.reserveCapacity(next)
            }
        }
        guard sections.count == counts.count else { throw FetchError.resultChanged }
        return sections
    }
}
