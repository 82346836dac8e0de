import SQLiteStore

extension SearchDescription {
    /// The number of rows that match `query` within `scope`, in the current read.
    ///
    /// - Throws: `DatabaseError`.
    public func count(_ query: SearchQuery, scope: DatabaseValue? = nil, _ db: Database) throws -> Int {
        try count(try plan(query, scope: scope, costs: .standard, db), scope: scope, db)
    }

    func count(_ plan: SearchPlan, scope: DatabaseValue?, _ db: Database) throws -> Int {
        if let count = try indexedCount(plan, scope: scope, db) { return count }
        return try scannedCount(plan, scope: scope, db)
    }

    /// The total when an index gives it without reading a table row per match; nil otherwise. The
    /// strategies, in the order tried:
    /// - one short term: its gram count (plus the rows its number finds that its text does not);
    /// - short terms only, none numeric (within a scope or not): the grams index's count of their
    ///   tokens (and the scope's) joined by AND;
    /// - terms of 3+ scalars only, none numeric, without a scope or within one that the trigram index's
    ///   rowids carry: the trigram index's count;
    /// - short and long terms driving together (``SearchPlan/Driver/gramsAndFullText(short:long:narrowing:)``),
    ///   within a scope that the grams index tells apart or without one: the rows of the grams index
    ///   that the trigram index also finds, counted without reading the table.
    func indexedCount(_ plan: SearchPlan, scope: DatabaseValue?, _ db: Database) throws -> Int? {
        if plan.matchesNothing { return 0 }
        if plan.filters.isEmpty, case .term(let term) = plan.driver, term.isShort, gramCountsTable != nil {
            var total = try gramCount(term.folded, scope: scope, db)
            if plan.isNumeric(term) {
                let extra = numberOnlyCondition(term, scope: scope)
                total += try db.scalar(Int.self, sql: "SELECT count(*) FROM \(table) WHERE \(extra.sql)", arguments: extra.arguments) ?? 0
            }
            return total
        }
        if let total = try gramsCount(plan, scope: scope, db) { return total }
        if let total = try intersectionCount(plan, scope: scope, db) { return total }
        return try fullTextCount(plan, scope: scope, db)
    }

    /// Short and long terms driving together: the rows both indexes find, within the scope's rowid
    /// range or with its token in the grams index. Nil for another plan, or a scope the indexes do not
    /// tell apart.
    func intersectionCount(_ plan: SearchPlan, scope: DatabaseValue?, _ db: Database) throws -> Int? {
        guard let ids = exactIntersectionIDs(plan, scope: scope) else { return nil }
        return try db.scalar(Int.self, sql: "SELECT count(*) FROM (\(ids.sql))", arguments: ids.arguments) ?? 0
    }

    /// Short and long terms driving together: a `SELECT` of the ids of exactly the matches within
    /// `scope` (its rowid range, or its token in the grams index), from the two indexes alone. Nil
    /// for another plan, or a scope the indexes do not tell apart.
    func exactIntersectionIDs(_ plan: SearchPlan, scope: DatabaseValue?) -> SQLFragment? {
        guard case .gramsAndFullText(let short, let long, let narrowing)? = plan.driver else { return nil }
        return intersectionIDs(grams: short.map(\.folded) + narrowing, long: long, scope: scope, exact: true)
    }

    /// The first `limit` ids of ``exactIntersectionIDs(_:scope:)``, read; nil for another plan.
    func exactIntersectionIDs(_ plan: SearchPlan, scope: DatabaseValue?, limit: Int, _ db: Database) throws -> [Int64]? {
        guard let matches = exactIntersectionIDs(plan, scope: scope) else { return nil }
        return try db.fetchAll(sql: matches.sql + " LIMIT ?", arguments: matches.arguments + [limit]) { try $0.decode(Int64.self, at: 0) }
    }

    /// ``gramsCount(_:scope:_:)`` for each of `scopes`, keeping the positive counts; nil when it is
    /// nil for one.
    func gramsCounts(_ plan: SearchPlan, scopes: [DatabaseValue], _ db: Database) throws -> [DatabaseValue: Int]? {
        var counts: [DatabaseValue: Int] = [:]
        for scope in scopes {
            guard let count = try gramsCount(plan, scope: scope, db) else { return nil }
            if count > 0 { counts[scope] = count }
        }
        return counts
    }

    /// Short terms only, none numeric: the rows of the grams index that hold all their tokens (and
    /// the scope's token, or, when the rowids carry the scope, within its rowid range), counted in the
    /// index. Nil otherwise.
    func gramsCount(_ plan: SearchPlan, scope: DatabaseValue?, _ db: Database) throws -> Int? {
        guard let gramsTable, !plan.terms.isEmpty,
              plan.terms.allSatisfy({ $0.isShort && SearchPlan.isIndexable($0) && !plan.isNumeric($0) })
        else { return nil }
        let match: SQLFragment
        if rowIDsCarryScope {
            // The scope is a rowid range (the documents hold no scope token).
            guard indexesSeparate(scope), let pattern = SearchPlan.gramsPattern(plan.terms) else { return nil }
            match = indexMatch(gramsTable, pattern, scope: scope)
        } else {
            guard let pattern = SearchPlan.gramsPattern(plan.terms, scope: scope) else { return nil }
            match = SQLFragment(sql: "\(gramsTable) MATCH ?", arguments: [pattern])
        }
        return try db.scalar(Int.self, sql: "SELECT count(*) FROM \(gramsTable) WHERE \(match.sql)", arguments: match.arguments) ?? 0
    }

    /// Terms of 3+ scalars only, none numeric, without a scope or within one the trigram index's
    /// rowids tell apart: one term's count in ``substringCountsTable`` when it holds the term, else
    /// the trigram index's count, which reads each term's doclists (within the scope, its rowid
    /// range) rather than one table row per match. Nil otherwise.
    func fullTextCount(_ plan: SearchPlan, scope: DatabaseValue?, _ db: Database) throws -> Int? {
        guard indexesSeparate(scope), !plan.terms.isEmpty, plan.terms.allSatisfy({ !$0.isShort && !plan.isNumeric($0) })
        else { return nil }
        if plan.terms.count == 1, let count = try substringCount(plan.terms[0].folded, scope: scope, db) { return count }
        let match = fullTextMatch(SearchPlan.fullTextPattern(plan.terms), scope: scope)
        return try db.scalar(Int.self, sql: "SELECT count(*) FROM \(fullTextTable) WHERE \(match.sql)", arguments: match.arguments) ?? 0
    }

    /// The total counted on the table: the driver's rows, each checked.
    func scannedCount(_ plan: SearchPlan, scope: DatabaseValue?, _ db: Database) throws -> Int {
        let condition = scoped(plan.condition(alias: table), scope: scope, alias: table)
        return try db.scalar(Int.self, sql: "SELECT count(*) FROM \(table) WHERE \(condition.sql)", arguments: condition.arguments) ?? 0
    }
}
