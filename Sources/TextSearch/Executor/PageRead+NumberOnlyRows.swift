import SQLiteStore

extension PageRead {
    /// ``PageStrategy/MatchRead/addingNumberOnlyRows(textWalk:)``: the matches are the rows with every
    /// term in their text and the few listed rows that hold a numeric term only as a number (and match
    /// every term): the first `offset + limit` of the former, found by walking the list index for at
    /// most `textWalk` entries when given (else, or when it falls short, sorted), are read with the
    /// latter, sorted together, and the page taken.
    func readAddingNumberOnlyRows<Entity>(textWalk: Int?, _ db: Database, decode: (Row) throws -> Entity) throws -> SearchPage<Entity> {
        guard let total, let (textPlan, listed) = numberOnly else {
            preconditionFailure("number-only rows are added once listed and counted")
        }
        let table = description.table
        // One numeric term: each listed row matches; several: those that match every term.
        let numberIDs = plan.terms.count == 1 ? listed : try db.fetchAll(
            sql: "SELECT \(table).\(description.idColumn) FROM \(table) WHERE \(description.rowsMatchingEveryTerm(plan, ids: listed).sql)",
            arguments: description.rowsMatchingEveryTerm(plan, ids: listed).arguments
        ) { try $0.decode(Int64.self, at: 0) }
        let textWanted = min(offset + limit, max(0, total - numberIDs.count))
        let textIDs: [Int64]
        if let textWalk, let ids = try description.idsInListOrder(textPlan, scope: scope, wanted: textWanted, offset: 0, budget: textWalk, db) {
            textIDs = ids
        } else {
            let textCondition = textPlan.allTermsCondition(alias: table) ?? textPlan.condition(alias: table)
            // Dense: the scope left to SQLite, which may walk the order's index to the first rows.
            let condition = description.scoped(textCondition, scope: scope, alias: table, checkedOnRows: !costs.isDense(plan.driverEstimate))
            textIDs = try db.fetchAll(
                sql: "SELECT \(table).\(description.idColumn) FROM \(table) WHERE \(condition.sql) ORDER BY \(order.terms.sql) LIMIT ?",
                arguments: condition.arguments + order.terms.arguments + [textWanted]
            ) { try $0.decode(Int64.self, at: 0) }
        }
        let idList = SQLFragment.list(textIDs + numberIDs)
        return SearchPage(
            records: try rows(SQLFragment(sql: "\(table).\(description.idColumn) IN \(idList.sql)", arguments: idList.arguments), db, decode: decode),
            totalCount: total)
    }
}

extension SearchDescription {
    /// The ids of the rows (within `scope`) that match the numeric `term` only by a number column
    /// (`numberOnlyCondition(_:scope:)`), when there are at most `limit` of them; nil when there are more.
    func numberOnlyIDs(_ term: SearchTerm, scope: DatabaseValue?, limit: Int, _ db: Database) throws -> [Int64]? {
        let numberOnly = numberOnlyCondition(term, scope: scope)
        let ids = try db.fetchAll(
            sql: "SELECT \(table).\(idColumn) FROM \(table) WHERE \(numberOnly.sql) LIMIT ?",
            arguments: numberOnly.arguments + [limit + 1]
        ) { try $0.decode(Int64.self, at: 0) }
        return ids.count <= limit ? ids : nil
    }

    /// The ids of the rows (within `scope`) that hold some numeric term of `plan` only as a number
    /// (``numberOnlyIDs(_:scope:limit:_:)``), ascending, each once; nil when a term has more than
    /// `limit` of them.
    func numberOnlyIDs(ofNumericTermsIn plan: SearchPlan, scope: DatabaseValue?, limit: Int, _ db: Database) throws -> [Int64]? {
        var ids: Set<Int64> = []
        for term in plan.terms where plan.isNumeric(term) {
            guard let termIDs = try numberOnlyIDs(term, scope: scope, limit: limit, db) else { return nil }
            ids.formUnion(termIDs)
        }
        return ids.sorted()
    }

    /// The rows among `ids` (from ``numberOnlyIDs(ofNumericTermsIn:scope:limit:_:)``, or a long term's
    /// rows in the trigram index) that match every term of `plan`: the id list drives (a rowid lookup
    /// each), every term is checked on those rows.
    func rowsMatchingEveryTerm(_ plan: SearchPlan, ids: [Int64]) -> SQLFragment {
        let idList = SQLFragment.list(ids)
        return SQLFragment(sql: "\(table).\(idColumn) IN \(idList.sql)", arguments: idList.arguments)
            && plan.filterCondition(ofAllTermsOn: table)
    }
}
