import SQLiteStore

extension SearchDescription {
    /// How a page in list order of a known number of matches is read, when the expected costs of
    /// both ways are known.
    enum ListPageRoute: Equatable {
        /// Walk the list index in order, for at most `budget` entries (then read the matches by id).
        case walk(budget: Int)
        /// Read every match by its id and sort them.
        case readByID
    }

    /// The cheaper way to read the first `offset + limit` of `matches` rows in `order` within
    /// `scope`, by ``SearchThresholds/walksListIndex(depth:matches:scopeRows:)``: nil when the model
    /// does not apply — another order than the list index's, no driver (no index reaches the
    /// matches by id), a numeric term (the list index holds no number), a list index the walk cannot
    /// use, or a scope whose rows are not counted (`SectionCounts` of the scope column).
    func listPageRoute(
        _ plan: SearchPlan, scope: DatabaseValue?, order: SearchOrder, limit: Int, offset: Int, matches: Int,
        thresholds: SearchThresholds, _ db: Database
    ) throws -> ListPageRoute? {
        guard order.isListIndexOrder, listIndex != nil, textColumns.count == 1, plan.driver != nil,
              !plan.terms.contains(where: plan.isNumeric), let scopeRows = try rowCount(scope: scope, db)
        else { return nil }
        let depth = offset.addingReportingOverflow(limit)
        guard !depth.overflow, thresholds.walksListIndex(depth: depth.partialValue, matches: matches, scopeRows: scopeRows)
        else { return .readByID }
        return .walk(budget: thresholds.listWalkBudget(depth: depth.partialValue, matches: matches, scopeRows: scopeRows))
    }

    /// The rows of the table within `scope` (nil: all), from the maintained counts of its scope
    /// column (`SectionCounts`); nil when they are not kept.
    func rowCount(scope: DatabaseValue?, _ db: Database) throws -> Int? {
        guard let scopeColumn, let counts = try SectionCounts.counts(forTable: table, section: scopeColumn, in: db) else { return nil }
        guard let scope else { return counts.reduce(0) { $0 + $1.count } }
        return counts.first { $0.key == scope }?.count ?? 0
    }

    /// The ids of the `wanted` rows after `offset`, in list order, found by walking ``listIndex``
    /// (scope column, first text column, id) in order and checking the terms on the index's own text,
    /// for at most `budget` entries; nil when the walk ends before it finds them all, or when the
    /// description has no list index or more than one text column.
    func idsInListOrder(
        _ plan: SearchPlan, scope: DatabaseValue?, wanted: Int, offset: Int, budget: Int, _ db: Database
    ) throws -> [Int64]? {
        guard let listIndex, textColumns.count == 1, let text = textColumns.first else { return nil }
        let keyColumns = (scopeColumn.map { [$0] } ?? []) + [text, idColumn]
        let keys = keyColumns.joined(separator: ", ")
        let scoped = scope.map { SQLFragment(sql: "WHERE \(scopeColumn!) = ?", arguments: [$0]) } ?? SQLFragment(sql: "")
        let filter = plan.filterCondition(ofAllTermsOn: "s")
        // The subquery is a co-routine that yields index entries in order; the outer query has no
        // ORDER BY, so that it stops at the page (a sort would first read the whole budget).
        let rows = try db.fetchAll(
            sql: """
                SELECT \(keys) FROM (
                    SELECT \(keys) FROM \(table) INDEXED BY \(listIndex) \(scoped.sql)
                    ORDER BY \(keys) LIMIT ?
                ) AS s WHERE \(filter.sql) LIMIT ? OFFSET ?
                """,
            arguments: scoped.arguments + [budget] + filter.arguments + [wanted, offset]
        ) { row in (0..<keyColumns.count).map { row.databaseValue(at: $0) } }
        // Entries in list order (SQL promises no order without ORDER BY: check it).
        let isOrdered = zip(rows, rows.dropFirst()).allSatisfy { a, b in Self.precedes(a, b) == true }
        guard rows.count == wanted, isOrdered else { return nil }
        return rows.compactMap { if case .integer(let id) = $0.last { id } else { nil } }
    }

    /// Whether key `a` comes before key `b` in an ascending index of BINARY texts and numbers (nil:
    /// values this comparison does not order, such as a text against a number).
    private static func precedes(_ a: [DatabaseValue], _ b: [DatabaseValue]) -> Bool? {
        for (x, y) in zip(a, b) {
            switch (x, y) {
            case (.text(let s), .text(let t)):
                let (u, v) = (Array(s.utf8), Array(t.utf8))
                if u == v { continue }
                return u.lexicographicallyPrecedes(v)
            case (.integer(let m), .integer(let n)):
                if m == n { continue }
                return m < n
            default:
                return nil
            }
        }
        return false
    }
}
