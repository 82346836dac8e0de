import SQLiteStore

extension PageRead {
    /// ``PageStrategy/scan(onePass:)``: no index counts the matches, so the driver's rows are checked
    /// one by one. With `onePass`, they are read once for the page and (with a window function, in
    /// the last column) the total; when that page is empty, or without `onePass`, they are counted,
    /// then the page is read.
    func scan<Entity>(onePass: Bool, _ db: Database, decode: (Row) throws -> Entity) throws -> SearchPage<Entity> {
        let table = description.table
        if onePass {
            let driver = matchesConditionOfDriver
            var total = 0
            let records = try db.fetchAll(
                sql: "SELECT \(selection), count(*) OVER () FROM \(table) WHERE \(driver.sql)"
                    + " ORDER BY \(order.terms.sql) LIMIT ? OFFSET ?",
                arguments: driver.arguments + order.terms.arguments + [limit, offset]
            ) { row in
                total = try row.decode(Int.self, at: row.count - 1)
                return try decode(row)
            }
            if !records.isEmpty { return SearchPage(records: records, totalCount: total) }
        }
        let total = try description.scannedCount(plan, scope: scope, db)
        let records = min(limit, max(0, total - offset)) == 0 ? [] : try rows(condition, db, decode: decode)
        return SearchPage(records: records, totalCount: total)
    }

    /// The driver's rows, the scope checked on each.
    private var matchesConditionOfDriver: SQLFragment {
        description.scoped(plan.condition(alias: description.table), scope: scope, alias: description.table, checkedOnRows: true)
    }
}
