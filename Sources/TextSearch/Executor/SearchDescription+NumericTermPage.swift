import SQLiteStore

extension SearchDescription {
    /// A search of one numeric term that few rows (``SearchThresholds/numericTermNumberLimit``) match
    /// by number alone: the total is its text matches' (counted as a plain term's) plus those, and the
    /// page is read among the first `offset + limit` text matches and those rows. Nil when it does
    /// not apply. `totalCount`, when given, is the total (text and number matches) in this read.
    func numericTermPage<Entity>(
        _ plan: SearchPlan, scope: DatabaseValue?, order: SearchOrder, limit: Int, offset: Int, totalCount: Int?,
        thresholds: SearchThresholds, budget: Int, selection: String, _ db: Database, decode: (Row) throws -> Entity
    ) throws -> SearchPage<Entity>? {
        guard plan.terms.count == 1, let term = plan.terms.first, plan.isNumeric(term),
              limit > 0, offset + limit <= SearchThresholds.numericTermDepthLimit
        else { return nil }
        guard let numberIDs = try numberOnlyIDs(term, scope: scope, db) else { return nil }
        let textPlan = try self.plan(plan.query, scope: scope, thresholds: thresholds, matchesNumbers: false, db)
        let textTotal = try totalCount.map { $0 - numberIDs.count } ?? count(textPlan, scope: scope, db)
        let total = textTotal + numberIDs.count
        if min(limit, max(0, total - offset)) == 0 { return SearchPage(records: [], totalCount: total) }
        let textWanted = min(offset + limit, textTotal)
        let textIDs: [Int64]
        if textPlan.isDense, order.isListIndexOrder,
           let ids = try idsInListOrder(textPlan, scope: scope, wanted: textWanted, offset: 0, budget: budget, db) {
            textIDs = ids
        } else {
            let condition = scoped(textPlan.condition(alias: table), scope: scope, alias: table, checkedOnRows: !textPlan.isDense)
            textIDs = try db.fetchAll(
                sql: "SELECT \(table).\(idColumn) FROM \(table) WHERE \(condition.sql) ORDER BY \(order.terms.sql) LIMIT ?",
                arguments: condition.arguments + order.terms.arguments + [textWanted]
            ) { try $0.decode(Int64.self, at: 0) }
        }
        let idList = SQLFragment.list(textIDs + numberIDs)
        let records = try db.fetchAll(
            sql: "SELECT \(selection) FROM \(table) WHERE \(table).\(idColumn) IN \(idList.sql) ORDER BY \(order.terms.sql) LIMIT ? OFFSET ?",
            arguments: idList.arguments + order.terms.arguments + [limit, offset], decode)
        return SearchPage(records: records, totalCount: total)
    }

    /// The ids of the rows (within `scope`) that match the numeric `term` only by a number column
    /// (`numberOnlyCondition(_:scope:)`), when there are at most `SearchThresholds.numericTermNumberLimit`
    /// (1,000) of them; nil when there are more.
    func numberOnlyIDs(_ term: SearchTerm, scope: DatabaseValue?, _ db: Database) throws -> [Int64]? {
        let numberOnly = numberOnlyCondition(term, scope: scope)
        let ids = try db.fetchAll(
            sql: "SELECT \(table).\(idColumn) FROM \(table) WHERE \(numberOnly.sql) LIMIT ?",
            arguments: numberOnly.arguments + [SearchThresholds.numericTermNumberLimit + 1]
        ) { try $0.decode(Int64.self, at: 0) }
        return ids.count <= SearchThresholds.numericTermNumberLimit ? ids : nil
    }

    /// The ids of the rows (within `scope`) that hold some numeric term of `plan` only as a number
    /// (``numberOnlyIDs(_:scope:_:)``), ascending, each once; nil when a term has more of them than
    /// that allows.
    func numberOnlyIDs(ofNumericTermsIn plan: SearchPlan, scope: DatabaseValue?, _ db: Database) throws -> [Int64]? {
        var ids: Set<Int64> = []
        for term in plan.terms where plan.isNumeric(term) {
            guard let termIDs = try numberOnlyIDs(term, scope: scope, db) else { return nil }
            ids.formUnion(termIDs)
        }
        return ids.sorted()
    }

    /// The rows among `ids` (from ``numberOnlyIDs(ofNumericTermsIn:scope:_:)``, or a long term's rows in
    /// the trigram index) that match every term of `plan`: the id list drives (a rowid lookup each),
    /// every term is checked on those rows.
    func rowsMatchingEveryTerm(_ plan: SearchPlan, ids: [Int64]) -> SQLFragment {
        let idList = SQLFragment.list(ids)
        return SQLFragment(sql: "\(table).\(idColumn) IN \(idList.sql)", arguments: idList.arguments)
            && plan.filterCondition(ofAllTermsOn: table)
    }

    /// For a plan of several terms, some numeric, whose terms are all of 1-2 or all of 3+ scalars:
    /// the exact condition (within `scope`, checked on the rows) of the rows that hold every term in
    /// their text, found in one index, or that are among the few rows holding a numeric term only as a
    /// number (``numberOnlyIDs(_:scope:_:)``) and match every term. Nil when it does not apply.
    func numericTermsCondition(_ plan: SearchPlan, scope: DatabaseValue?, _ db: Database) throws -> SQLFragment? {
        guard plan.terms.count > 1, plan.terms.contains(where: plan.isNumeric),
              let allTerms = SearchPlan(plan.query, self, matchesNumbers: false, scope: scope).allTermsCondition(alias: table)
        else { return nil }
        guard let numberIDs = try numberOnlyIDs(ofNumericTermsIn: plan, scope: scope, db) else { return nil }
        if numberIDs.isEmpty { return scoped(allTerms, scope: scope, alias: table, checkedOnRows: true) }
        let byNumber = rowsMatchingEveryTerm(plan, ids: numberIDs)
        // One list of ids (a UNION), which SQLite reads before the rows; with `OR` it may walk an
        // index in the page's order instead, probing each entry.
        let select = "SELECT \(table).\(idColumn) FROM \(table) WHERE "
        let either = SQLFragment(sql: "\(table).\(idColumn) IN (\(select)") + allTerms + SQLFragment(sql: " UNION \(select)")
            + byNumber + SQLFragment(sql: ")")
        return scoped(either, scope: scope, alias: table, checkedOnRows: true)
    }
}
