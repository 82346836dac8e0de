import SQLiteStore

extension SearchDescription {
    /// The values of `scopes` (in their order) that hold a row matching `query`, the first `limit` of
    /// them, found without counting the matches when ``PagePlanner/scopePresence(for:costs:)`` says
    /// so (``ScopePresenceStrategy/firstMatch``): each value's first match in its rowid range of the
    /// search indexes. Nil when it says to count them (``matchesPerScope(_:_:)`` then tells), or when
    /// a value of `scopes` has no rowid range of its own (not one of ``scopeValues``).
    ///
    /// ```swift
    /// let holding = try products.scopesHoldingMatches(SearchQuery("touch s"), among: [.text("desktop"), .text("device")], limit: 1, db)
    /// // [.text("desktop")]: its first `touch` row holding `s`, not the 49,921 rows of `touch`
    /// ```
    ///
    /// - Throws: `DatabaseError`.
    public func scopesHoldingMatches(
        _ query: SearchQuery, among scopes: [DatabaseValue], limit: Int, costs: SearchCosts = .standard, _ db: Database
    ) throws -> [DatabaseValue]? {
        guard scopeColumn != nil, gramCountsTable != nil, !query.isEmpty, scopes.allSatisfy({ scopeNumber($0) != nil }) else { return nil }
        let plan = try unestimatedPlan(query, db)
        let facts = try scopeCountFacts(plan, costs: costs, db).facts
        guard PagePlanner.scopePresence(for: facts, costs: costs) == .firstMatch else { return nil }
        var holding: [DatabaseValue] = []
        for scope in scopes where holding.count < limit {
            guard let first = try indexedMatchIDs(plan, scope: scope, limit: 1, db) else { return nil }
            if !first.isEmpty { holding.append(scope) }
        }
        return holding
    }

    /// The ids of the first `limit` rows (in rowid order) of `scope`'s rowid range that match every
    /// term of `plan`: the long terms' rows in the trigram index, each row they yield checked for the
    /// short terms (the index drives: `CROSS JOIN`); or, all terms short, their rows in the grams
    /// index. Nil when the indexes cannot tell: a numeric term, a scope without a rowid range of its
    /// own, short terms alone with a space.
    func indexedMatchIDs(_ plan: SearchPlan, scope: DatabaseValue, limit: Int, _ db: Database) throws -> [Int64]? {
        guard !plan.matchesNothing else { return [] }
        guard scopeNumber(scope) != nil, !plan.terms.isEmpty, !plan.terms.contains(where: plan.isNumeric) else { return nil }
        let long = plan.terms.filter { !$0.isShort }
        let short = plan.terms.filter(\.isShort)
        let ids: SQLFragment
        if long.isEmpty {
            guard let gramsTable, short.allSatisfy(SearchPlan.isIndexable), let pattern = SearchPlan.gramsPattern(short) else { return nil }
            ids = SQLFragment(sql: "SELECT rowid & \(Self.largestScopedID) FROM \(gramsTable) WHERE ")
                + indexMatch(gramsTable, pattern, scope: scope)
        } else {
            let rows = SQLFragment(sql: "SELECT rowid AS indexRowID FROM \(fullTextTable) WHERE ")
                + indexMatch(fullTextTable, SearchPlan.fullTextPattern(long), scope: scope)
            if short.isEmpty {
                ids = SQLFragment(sql: "SELECT indexRowID & \(Self.largestScopedID) FROM (") + rows + SQLFragment(sql: ")")
            } else {
                let checks = SQLFragment(joining: short.map { plan.filter($0, alias: table, numbers: false) }, separator: " AND ")
                ids = SQLFragment(sql: "SELECT \(table).\(idColumn) FROM (") + rows
                    + SQLFragment(sql: ") AS matched CROSS JOIN \(table) ON \(table).\(idColumn) = (matched.indexRowID & \(Self.largestScopedID)) WHERE ")
                    + checks
            }
        }
        return try db.fetchAll(sql: ids.sql + " LIMIT ?", arguments: ids.arguments + [limit]) { try $0.decode(Int64.self, at: 0) }
    }
}
