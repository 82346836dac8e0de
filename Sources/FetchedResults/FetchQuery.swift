#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import SQLiteStore

/// One `ORDER BY` term of a request.
struct OrderTerm: Sendable, Hashable {
    var expression: String
    var isDescending: Bool
    /// Whether the expression may be NULL (``EntityColumn/canBeNull``).
    var canBeNull = true
    var sql: String { expression + (isDescending ? " DESC" : " ASC") }

    /// The term in `dialect`: SQLite's as written; PostgreSQL's with NULL placed as SQLite places it
    /// when the expression may be NULL (text needs no COLLATE: a declared entity's text columns are
    /// `COLLATE "C"` there).
    func sql(_ dialect: SQLDialect) -> String {
        dialect == .sqlite || !canBeNull ? sql : dialect.orderTerm(expression, descending: isDescending, isText: false)
    }

    /// `ORDER BY` terms: the section term, if any, then the row order.
    static func sql(_ section: OrderTerm?, _ rowOrder: [OrderTerm], _ dialect: SQLDialect = .sqlite) -> String {
        ((section.map { [$0] } ?? []) + rowOrder).map { $0.sql(dialect) }.joined(separator: ", ")
    }
}

/// The SQL of a ``FetchRequest``: where rows come from, which rows, in which order, in which sections.
///
/// Built once per fetch; every statement of a controller comes from here, so sections, counts, row
/// ids, batches and index paths all describe the same result.
struct FetchQuery<Entity: FetchableEntity>: Sendable {
    /// `ORDER BY` terms: the section term, if any, then the row order.
    var orderSQL: String { OrderTerm.sql(section, rowOrder, dialect) }

    /// The engine the statements are spelled for: the connection's the query was made in.
    var dialect: SQLDialect

    /// The entity table, which ``selection`` reads.
    var tableName: String
    /// The id column.
    var idColumn: String
    /// The columns an entity is read from.
    var selection: String
    /// `FROM` this: the table, or, with a limit or offset, a subquery of the limited rows.
    var source: String
    /// Arguments of ``source``.
    var sourceArguments: StatementArguments
    /// `WHERE` this, on ``source``.
    ///
    /// - Precondition: the condition is planned (``isPlanned``: see ``planned(_:)``).
    var condition: SQLFragment {
        guard let plannedCondition else { preconditionFailure("a deferred condition is planned (planned(_:)) before it is read") }
        return plannedCondition
    }
    /// ``condition``, once planned; nil while a request's filter alone is left to plan.
    private var plannedCondition: SQLFragment?
    /// What selects the rows: the request's filter when it is the only condition (no predicate,
    /// limit or offset), whose counts and pages the controller then reads; else the predicate with
    /// the filter's condition (``PredicateRows``).
    var rows: any RowSource<Entity>
    /// Whether the rows are the request's filter alone: its ``RowSource/sectionCounts(_:_:)`` and
    /// ``RowSource/page(_:_:)`` are then asked.
    var isFilterOnly: Bool
    /// The section key path, nil for one unnamed section.
    var sectionKeyPath: (PartialKeyPath<Entity> & Sendable)?
    /// The request's sort descriptors.
    var sortDescriptors: [SortDescriptor<Entity>]
    /// The section term (first in the order), nil for one unnamed section.
    var section: OrderTerm?
    /// The order within a section: the sort descriptors' terms, then the id ascending.
    var rowOrder: [OrderTerm]

    /// The SQL of `request`, planned in `db` (a search's condition reads its terms' estimates there).
    ///
    /// - Parameter deferringCondition: true leaves the condition of a request whose filter is its only
    ///   condition unplanned, for ``planned(_:)`` to plan in the read that first needs it: a fetch
    ///   whose sections and first batches the filter gives never reads it.
    init(_ request: FetchRequest<Entity>, deferringCondition: Bool = false, _ db: any SQLConnection) throws {
        guard request.fetchOffset >= 0, (request.fetchLimit ?? 0) >= 0, request.batchSize >= 0 else {
            throw FetchError.invalidRequest("fetch limit, fetch offset and batch size must not be negative")
        }
        dialect = db.dialect
        tableName = Entity.tableName
        idColumn = Entity.idColumn
        selection = Entity.selection
        sectionKeyPath = request.sectionKeyPath
        sortDescriptors = request.sortDescriptors
        var (section, rowOrder) = try request.orderTerms()
        if db.dialect != .sqlite {
            if let expression = section?.expression { section?.expression = db.dialect.renamingFunctions(expression) }
            for index in rowOrder.indices { rowOrder[index].expression = db.dialect.renamingFunctions(rowOrder[index].expression) }
        }
        (self.section, self.rowOrder) = (section, rowOrder)

        let dialect = db.dialect
        let predicate = try request.predicate.map { try PredicateTranslation.condition(for: $0, dialect: dialect) }
        let isLimited = request.fetchLimit != nil || request.fetchOffset > 0
        if let filter = request.filter, predicate == nil, !isLimited {
            rows = filter
            isFilterOnly = true
        } else {
            rows = PredicateRows(predicate: predicate, filter: request.filter)
            isFilterOnly = false
        }
        if isLimited {
            let filter = try rows.condition(db)
            source = "(SELECT * FROM \(tableName) WHERE \(filter.sql) ORDER BY \(OrderTerm.sql(section, rowOrder, dialect)) LIMIT ? OFFSET ?) AS \(tableName)"
            sourceArguments = filter.arguments
                + StatementArguments(values: [Self.limit(request.fetchLimit ?? -1, dialect), .integer(Int64(request.fetchOffset))])
            plannedCondition = .alwaysTrue
        } else {
            source = tableName
            sourceArguments = []
            plannedCondition = deferringCondition && isFilterOnly ? nil : try rows.condition(db)
        }
    }

    /// Whether the condition is planned.
    var isPlanned: Bool { plannedCondition != nil }

    /// This query with its condition planned in `db` (itself when it is): the same query as made
    /// without `deferringCondition`, planned in this read.
    ///
    /// - Throws: what the rows' ``RowSource/condition(_:)`` throws.
    func planned(_ db: any SQLConnection) throws -> FetchQuery {
        guard plannedCondition == nil else { return self }
        var planned = self
        planned.plannedCondition = try rows.condition(db)
        return planned
    }

    /// The rows' counts per section in `db` when they are known without a `GROUP BY`: a whole table's
    /// (no condition, limit or offset) as ``SectionCounts`` maintains them, or, for a filter alone,
    /// as it counts them (``RowSource/sectionCounts(_:_:)``); nil otherwise.
    func knownSectionCounts(_ db: any SQLConnection) throws -> SectionMatches? {
        if let section = wholeTableSection {
            return try SectionCounts.counts(
                forTable: tableName, section: section.expression, descending: section.isDescending, in: db
            ).map { SectionMatches(counts: Dictionary($0.map { ($0.key, $0.count) }, uniquingKeysWith: +)) }
        }
        guard isFilterOnly, let sectionKeyPath, let section else { return nil }
        return try rows.sectionCounts(SectionGrouping(keyPath: sectionKeyPath, isDescending: section.isDescending), db)
    }

    /// A page of the section whose key is `key` read by a filter alone its own way
    /// (``RowSource/page(_:_:)``); nil otherwise, or when it reads none.
    func page(section key: DatabaseValue, limit: Int, offset: Int, count: Int?, ids: [Int64]?, _ db: any SQLConnection) throws -> [Entity]? {
        guard isFilterOnly else { return nil }
        let page = SectionPage<Entity>(
            section: sectionKeyPath.map { ($0, key) }, sortDescriptors: sortDescriptors,
            order: SQLFragment(sql: orderSQL), limit: limit, offset: offset, count: count, ids: ids)
        return try rows.page(page, db)
    }

    // MARK: - Statements

    /// `SELECT key, count(*) FROM … GROUP BY key ORDER BY key`: one row per section, in order.
    /// Without sections: one row, `NULL, count(*)`.
    var sectionsQuery: SQLFragment {
        guard let section else {
            return SQLFragment(
                sql: "SELECT NULL, count(*) FROM \(source) WHERE \(condition.sql)",
                arguments: sourceArguments + condition.arguments)
        }
        return SQLFragment(
            sql: "SELECT \(section.expression), count(*) FROM \(source) WHERE \(condition.sql) "
                + "GROUP BY \(section.expression) ORDER BY \(section.sql(dialect))",
            arguments: sourceArguments + condition.arguments)
    }

    /// `SELECT key, id FROM … ORDER BY …`: every row of the result in order, as its section key (NULL
    /// without sections) and its id. How a search's result is read in one pass: its sections, their
    /// counts and the whole result's ids at once.
    var keysQuery: SQLFragment {
        SQLFragment(
            sql: "SELECT \(section?.expression ?? "NULL"), \(idColumn) FROM \(source) WHERE \(condition.sql) "
                + "ORDER BY \(orderSQL)",
            arguments: sourceArguments + condition.arguments)
    }

    /// The section term of a result that is the whole table (no condition, limit or offset), whose
    /// sections may be read from maintained counts (``SectionCounts``); nil otherwise.
    var wholeTableSection: OrderTerm? {
        source == tableName && plannedCondition == .alwaysTrue ? section : nil
    }

    /// The condition that keeps the rows of the section whose key is `key`.
    func sectionCondition(_ key: DatabaseValue) -> SQLFragment {
        guard let section else { return .alwaysTrue }
        return key.isNull
            ? SQLFragment(sql: "\(section.expression) IS NULL")
            : SQLFragment(sql: "\(section.expression) = ?", arguments: [key])
    }

    /// The sort key columns read with each row id: the row order's expressions (the id last).
    var sortKeySelection: String { rowOrder.map(\.expression).joined(separator: ", ") }

    /// Rows of one section in order, `LIMIT limit OFFSET offset`, after the row with sort key `after`
    /// (keyset pagination) when given: the entity's selection (if asked), then the sort key, whose last
    /// column is the id.
    func rowsQuery(section key: DatabaseValue, after: [DatabaseValue]?, limit: Int, offset: Int, withEntities: Bool) -> SQLFragment {
        var filter = condition && sectionCondition(key)
        if let after { filter = filter && keyset(after: after) }
        // The entity's columns first, as `init(row:)` reads them from column 0; the sort key last.
        let columns = (withEntities ? selection + ", " : "") + sortKeySelection
        return SQLFragment(
            sql: "SELECT \(columns) FROM \(source) WHERE \(filter.sql) ORDER BY \(orderSQL) LIMIT ? OFFSET ?",
            arguments: sourceArguments + filter.arguments + StatementArguments(values: [Self.limit(limit, dialect), .integer(Int64(offset))]))
    }

    /// Every row of the result in order, sections first: the entity's selection. How a request without
    /// a batch size is read at once.
    var allRowsQuery: SQLFragment { rowsQuery(after: nil) }

    /// The rows of the result in order, sections first, after the row whose full key (its section key
    /// when sectioned, then its sort key) is `key`, or, for the section key alone, after that section;
    /// every row for nil: the entity's selection, then with `sectionKey` the section key (NULL without
    /// sections). How a streamed result goes on after its first rows, or is read whole uncounted.
    func rowsQuery(after key: [DatabaseValue]?, sectionKey: Bool = false) -> SQLFragment {
        let terms = (section.map { [$0] } ?? []) + rowOrder
        var filter = condition
        if let key { filter = filter && keyset(key, terms: terms, after: true) }
        let columns = selection + (sectionKey ? ", " + (section?.expression ?? "NULL") : "")
        return SQLFragment(
            sql: "SELECT \(columns) FROM \(source) WHERE \(filter.sql) ORDER BY \(terms.map { $0.sql(dialect) }.joined(separator: ", "))",
            arguments: sourceArguments + filter.arguments)
    }

    /// `SELECT <selection> FROM table WHERE id IN (…)`.
    func entitiesQuery(ids: [Int64]) -> SQLFragment {
        SQLFragment(sql: "SELECT \(selection) FROM \(tableName) WHERE \(idColumn) IN ") + .list(ids)
    }

    /// The section key and sort key of the row with this id, if it is in the result.
    func placeQuery(id: Int64) -> SQLFragment {
        let filter = condition && SQLFragment(sql: "\(idColumn) = ?", arguments: [id])
        return SQLFragment(
            sql: "SELECT \(section?.expression ?? "NULL"), \(sortKeySelection) FROM \(source) WHERE \(filter.sql)",
            arguments: sourceArguments + filter.arguments)
    }

    /// The number of rows of a section placed before the row with sort key `key`.
    func countBeforeQuery(section sectionKey: DatabaseValue, key: [DatabaseValue]) -> SQLFragment {
        let filter = condition && sectionCondition(sectionKey) && keyset(before: key)
        return SQLFragment(sql: "SELECT count(*) FROM \(source) WHERE \(filter.sql)", arguments: sourceArguments + filter.arguments)
    }

    /// A `LIMIT` argument: SQLite takes a negative one as no limit, PostgreSQL NULL.
    static func limit(_ value: Int, _ dialect: SQLDialect) -> DatabaseValue {
        value < 0 && dialect == .postgreSQL ? .null : .integer(Int64(value))
    }

    // MARK: - Keyset conditions

    /// Rows after the row with sort key `key` in the row order.
    ///
    /// `(t1 after v1) OR (t1 IS v1 AND t2 after v2) OR …`, plus a redundant bound on the first term so
    /// that SQLite seeks in the index instead of scanning from the section's start. NULL sorts first
    /// ascending and last descending, as in SQLite's ORDER BY.
    func keyset(after key: [DatabaseValue]) -> SQLFragment { keyset(key, terms: rowOrder, after: true) }

    /// Rows before the row with sort key `key` in the row order.
    func keyset(before key: [DatabaseValue]) -> SQLFragment { keyset(key, terms: rowOrder, after: false) }

    /// Rows after (or before) those whose first `key.count` of `terms` equal `key`.
    private func keyset(_ key: [DatabaseValue], terms: [OrderTerm], after: Bool) -> SQLFragment {
        precondition(!key.isEmpty && key.count <= terms.count, "a key has one value per order term, from the first")
        var alternatives: [SQLFragment] = []
        var equalities: [SQLFragment] = []
        for (term, value) in zip(terms, key) {
            // Whether later rows have greater values of this term (NULL being the least).
            let greater = term.isDescending != after
            let strict: SQLFragment? = switch (greater, value.isNull) {
            case (true, true): SQLFragment(sql: "\(term.expression) IS NOT NULL")
            case (true, false): SQLFragment(sql: "\(term.expression) > ?", arguments: [value])
            case (false, true): nil
            case (false, false): SQLFragment(sql: "(\(term.expression) < ? OR \(term.expression) IS NULL)", arguments: [value])
            }
            if let strict { alternatives.append(SQLFragment(joining: equalities + [strict], separator: " AND ")) }
            equalities.append(SQLFragment(sql: dialect.isNotDistinct(term.expression, "?"), arguments: [value]))
        }
        guard !alternatives.isEmpty else { return .alwaysFalse }
        var result = SQLFragment(joining: alternatives.map { SQLFragment(sql: "(\($0.sql))", arguments: $0.arguments) }, separator: " OR ")
        if let first = terms.first, let value = key.first, !value.isNull {
            // Later rows are >= the first value, or (going down) <= it or NULL, since NULL is the least.
            let bound = first.isDescending != after
                ? SQLFragment(sql: "\(first.expression) >= ?", arguments: [value])
                : SQLFragment(sql: "(\(first.expression) <= ? OR \(first.expression) IS NULL)", arguments: [value])
            result = bound && result
        }
        return result
    }
}

// MARK: - Live updates

extension FetchQuery {
    /// Whether rows enter and leave the result only by changing themselves: not so with a limit or
    /// offset, where one row's change can push another in or out.
    var isIncrementallyMaintainable: Bool { source == tableName }

    /// For each of `ids` that is in the result: its id, section key, then sort key (the row order's
    /// expressions, the id last).
    func placementsQuery(ids: [Int64]) -> SQLFragment {
        let filter = condition && (SQLFragment(sql: "\(idColumn) IN ") + .list(ids))
        return SQLFragment(
            sql: "SELECT \(idColumn), \(section?.expression ?? "NULL"), \(sortKeySelection) "
                + "FROM \(source) WHERE \(filter.sql)",
            arguments: sourceArguments + filter.arguments)
    }

    /// The change log's entries after the snapshot `position` (``PostgreSQLChangeLogSchema/changesSQL``),
    /// then, in the same statement, the placements of the rows of this query's table among them that
    /// are in the result (``placementsQuery(ids:)``'s columns): one snapshot and one round trip for
    /// both (W4 on PostgreSQL). Each row is `0` and an entry's columns then NULLs, or `1`, NULLs in
    /// the entry's columns, then a placement's; entries first, in order. No placement is read when
    /// there are more than `limit` entries (the controller refetches then).
    ///
    /// - Precondition: ``isPlanned`` and ``isIncrementallyMaintainable``.
    func changesWithPlacementsQuery(after position: String, placingAtMost limit: Int) -> SQLFragment {
        let nulls = { (count: Int) in Array(repeating: "NULL", count: count).joined(separator: ", ") }
        let changed = SQLFragment(
            sql: "(SELECT count(*) FROM log) <= ? AND \(idColumn) = ANY(ARRAY(SELECT row_id FROM log WHERE table_name = ?))",
            arguments: StatementArguments(values: [.integer(Int64(limit)), .text(tableName)]))
        let filter = condition && changed
        return SQLFragment(
            sql: """
                WITH log AS (\(PostgreSQLChangeLogSchema.changesSQL))
                SELECT 0, log.*, \(nulls(2 + rowOrder.count)) FROM log
                UNION ALL
                SELECT 1, \(nulls(PostgreSQLChangeLogSchema.changesColumnCount)), \(idColumn), \(section?.expression ?? "NULL"), \(sortKeySelection)
                FROM \(source) WHERE \(filter.sql)
                ORDER BY 1, 3
                """,
            arguments: StatementArguments(values: [.text(position)]) + sourceArguments + filter.arguments)
    }

    /// The section key, then the sort key, of each row of `ids`, whether or not it matches: the
    /// searches' probes for changed rows' places, and where a streamed listing goes on after its first
    /// batch.
    func sortKeysQuery(ids: [Int64]) -> SQLFragment {
        SQLFragment(sql: "SELECT \(section?.expression ?? "NULL"), \(sortKeySelection) FROM \(tableName) WHERE \(idColumn) IN ") + .list(ids)
    }

    /// Whether each component of a full sort key (section key first, then the row order) is descending.
    var fullOrderIsDescending: [Bool] {
        [section?.isDescending ?? false] + rowOrder.map(\.isDescending)
    }
}
