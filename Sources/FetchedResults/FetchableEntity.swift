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
    /// Every row of `statement` read with ``init(row:)``, in order, given to `body` with its index path
    /// in consecutive sections of `counts` rows, none kept: how a controller streams its whole result
    /// (``FetchedResultsController/forEachObject(sectionsRead:_:)``). The default, which a type need
    /// not replace, is specialized for the type in its own module, as ``readSections(of:arguments:counts:)`` is.
    ///
    /// - Throws: ``FetchError/resultChanged`` when the statement has more or fewer rows than the sum of
    ///   `counts`; what `body`, ``init(row:)`` or the statement throws.
    static func forEachRow(
        of statement: Statement, arguments: StatementArguments, counts: [Int], _ body: (ItemPath, Self) throws -> Void
    ) throws
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
        func open(_ section: Int) {
            while sections.count <= section {
                sections.append(([], []))
                sections[sections.count - 1].entities.reserveCapacity(counts[sections.count - 1])
                sections[sections.count - 1].ids.reserveCapacity(counts[sections.count - 1])
            }
        }
        try forEachRow(of: statement, arguments: arguments, counts: counts) { path, entity in
            guard let id = entity.rowID else { preconditionFailure("\(Self.self).init(row:) read no row id") }
            if path.row == 0 { open(path.section) }
            sections[path.section].entities.append(entity)
            sections[path.section].ids.append(id)
        }
        if !counts.isEmpty { open(counts.count - 1) }
        return sections
    }

    @inlinable  // specialized in the entity's module, as readSections is
    public static func forEachRow(
        of statement: Statement, arguments: StatementArguments, counts: [Int], _ body: (ItemPath, Self) throws -> Void
    ) throws {
        try forEachRow(counts: counts, of: { try statement.forEachRow(arguments: arguments, $0) }, body)
    }

    /// Calls `body` with each row `rows` reads and its place in sections of `counts` rows each.
    ///
    /// - Throws: ``FetchError/resultChanged`` when the rows are more or fewer than the counts say.
    @inlinable
    static func forEachRow(
        counts: [Int], of rows: ((Row) throws -> Void) throws -> Void, _ body: (ItemPath, Self) throws -> Void
    ) throws {
        var section = 0
        var row = 0
        // `body` is called only during `rows`, never kept.
        try withoutActuallyEscaping(body) { body in
            try rows { databaseRow in
                while section < counts.count, row == counts[section] {
                    section += 1
                    row = 0
                }
                guard section < counts.count else { throw FetchError.resultChanged }
                try body(ItemPath(section: section, row: row), try Self(row: databaseRow))
                row += 1
            }
        }
        while section < counts.count, row == counts[section] {
            section += 1
            row = 0
        }
        guard section == counts.count else { throw FetchError.resultChanged }
    }
}

extension FetchableEntity {
    /// ``readSections(of:arguments:counts:)`` of the rows of `sql` on either engine's connection:
    /// SQLite's statement, read by the type's own (specialised) method; another engine's rows read as
    /// `Row`s.
    static func readSections(
        sql: String, arguments: StatementArguments, counts: [Int], _ db: any SQLConnection
    ) throws -> [(entities: [Self], ids: [Int64])] {
        if let db = db as? Database { return try readSections(of: db.cachedStatement(sql: sql), arguments: arguments, counts: counts) }
        var sections = counts.map { _ in (entities: [Self](), ids: [Int64]()) }
        try forEachRow(sql: sql, arguments: arguments, counts: counts, db) { path, entity in
            guard let id = entity.rowID else { preconditionFailure("\(Self.self).init(row:) read no row id") }
            sections[path.section].entities.append(entity)
            sections[path.section].ids.append(id)
        }
        return sections
    }

    /// ``forEachRow(of:arguments:counts:_:)`` of the rows of `sql` on either engine's connection, one
    /// row at a time on both.
    static func forEachRow(
        sql: String, arguments: StatementArguments, counts: [Int], _ db: any SQLConnection, _ body: (ItemPath, Self) throws -> Void
    ) throws {
        if let db = db as? Database { return try forEachRow(of: db.cachedStatement(sql: sql), arguments: arguments, counts: counts, body) }
        try forEachRow(counts: counts, of: { try db.forEachRow(sql: sql, arguments: arguments, $0) }, body)
    }
}
