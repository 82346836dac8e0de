import SQLiteStore

extension SearchDescription {
    /// The rows of the table within `scope` (nil: all), from the maintained counts of its scope
    /// column (`SectionCounts`); nil when they are not kept.
    func rowCount(scope: DatabaseValue?, _ db: Database) throws -> Int? {
        guard let scopeColumn, let counts = try SectionCounts.counts(forTable: table, section: scopeColumn, in: db) else { return nil }
        guard let scope else { return counts.reduce(0) { $0 + $1.count } }
        return counts.first { $0.key == scope }?.count ?? 0
    }

    /// The ids of the `wanted` rows after `offset`, in list order, found by walking ``listIndex``
    /// (scope column, first text column, id) in order and checking the terms on the index's own text,
    /// for at most about `budget` entries; nil when the walk ends before it finds them all, or when the
    /// description has no list index or more than one text column.
    ///
    /// One statement walks the index with the terms in its `WHERE` and stops at the page (its
    /// `LIMIT`); `budget` bounds it as SQLite instructions (``SearchCosts/listWalkInstructionsPerEntry``
    /// an entry), so that a walk whose matches sort late stops there. (A subquery that yields the
    /// first `budget` entries to an outer query checking the terms bounds the entries exactly, but
    /// copies each entry's text to the outer query, which doubles the time of a walk.)
    func idsInListOrder(
        _ plan: SearchPlan, scope: DatabaseValue?, wanted: Int, offset: Int, budget: Int, _ db: Database
    ) throws -> [Int64]? {
        guard let listIndex, textColumns.count == 1, let text = textColumns.first else { return nil }
        let keys = ((scopeColumn.map { [$0] } ?? []) + [text, idColumn]).map { "\(table).\($0)" }.joined(separator: ", ")
        let scoped = scope.map { SQLFragment(sql: "\(table).\(scopeColumn!) = ? AND ", arguments: [$0]) } ?? SQLFragment(sql: "")
        let filter = scoped + plan.filterCondition(ofAllTermsOn: table)
        let (instructions, overflow) = budget.multipliedReportingOverflow(by: SearchCosts.listWalkInstructionsPerEntry)
        let ids = try db.withInstructionLimit(overflow ? .max : instructions) {
            try db.fetchAll(
                sql: "SELECT \(table).\(idColumn) FROM \(table) INDEXED BY \(listIndex) WHERE \(filter.sql) ORDER BY \(keys) LIMIT ? OFFSET ?",
                arguments: filter.arguments + [wanted, offset]
            ) { try $0.decode(Int64.self, at: 0) }
        }
        guard let ids, ids.count == wanted else { return nil }
        return ids
    }
}
