import SQLiteStore
import TextSearch

extension PostgreSQLTextSearch {
    /// A page of the rows that match `query` within `scope`, in `order`, and how many match in all:
    /// the rows and total of SQLite's `SearchDescription.page`, read on PostgreSQL. Call it in a
    /// reading transaction (REPEATABLE READ), so that both come from one snapshot.
    ///
    /// The total comes from the gram counts for one term of 1-2 characters, or from the substring
    /// counts for one frequent term of 3+ (``substringCountsTable``), with a number's rows in the
    /// number columns counted from their indexes for one numeric term; TextSearch's `PagePlanner` then
    /// chooses how the page is read from it: the matches read through their indexes and sorted, the
    /// list index walked in order for a bounded number of entries, or the order's index walked with
    /// every term checked on each row. Other searches have no kept count: the planner chooses from
    /// the rarest term's estimate between reading the matches once for the page and the total, and
    /// counting them, then choosing as above.
    ///
    /// - Parameters:
    ///   - query: the search.
    ///   - scope: the scope column's value the rows must have; nil for every row.
    ///   - order: the page's order (its terms qualified with the table's name).
    ///   - limit: the most rows read.
    ///   - offset: the matching rows skipped before the page.
    ///   - selection: the columns `decode` reads, qualified with the table's name.
    ///   - costs: the planner's cost model (tests force each strategy with extreme values).
    ///   - db: the connection, in a reading transaction.
    ///   - decode: makes an entity of a row of `selection`.
    /// - Throws: what the connection throws, or what `decode` throws.
    /// - Precondition: `limit` and `offset` are not negative: a mistake of the calling code, which
    ///   checks a number a user typed before it asks for a page (an offset past the matches is no
    ///   mistake: its page is empty).
    public func page<Entity>(
        _ query: SearchQuery, scope: DatabaseValue? = nil, order: SearchOrder, limit: Int, offset: Int = 0,
        selection: String, costs: SearchCosts = .standard, _ db: some SQLConnection,
        decode: ([DatabaseValue]) throws -> Entity
    ) throws -> SearchPage<Entity> {
        try page(
            query, scope: scope, order: order, limit: limit, offset: offset, selection: selection, costs: costs,
            forcing: nil, db, decode: decode)
    }

    /// ``page(_:scope:order:limit:offset:selection:costs:_:decode:)`` read with `strategy` rather
    /// than the planner's choice (tests check every strategy against a reference).
    @_spi(Testing)
    public func page<Entity>(
        _ query: SearchQuery, scope: DatabaseValue? = nil, order: SearchOrder, limit: Int, offset: Int = 0,
        selection: String, forcing strategy: PageStrategy, _ db: some SQLConnection, decode: ([DatabaseValue]) throws -> Entity
    ) throws -> SearchPage<Entity> {
        try page(
            query, scope: scope, order: order, limit: limit, offset: offset, selection: selection, costs: .standard,
            forcing: strategy, db, decode: decode)
    }

    private func page<Entity>(
        _ query: SearchQuery, scope: DatabaseValue?, order: SearchOrder, limit: Int, offset: Int, selection: String,
        costs: SearchCosts, forcing: PageStrategy?, _ db: some SQLConnection, decode: ([DatabaseValue]) throws -> Entity
    ) throws -> SearchPage<Entity> {
        precondition(limit >= 0 && offset >= 0, "a search page's limit and offset are not negative, not \(limit) and \(offset)")
        let plan = PostgreSQLSearchPlan(query, self, scope: scope)
        if plan.matchesNothing { return SearchPage(query: query, records: [], offset: offset, totalCount: 0) }
        // What the page is planned from is read in one statement (W3 on PostgreSQL: `studio e`): the
        // kept count and the table's rows, or, without a kept count, every term's estimate and the rows.
        let readsRows = readsRowEstimate(plan, order: order)
        var rows: Int?
        if let kept = keptCount(plan) {
            let values = try self.values([kept] + (readsRows ? [rowEstimate] : []), db)
            rows = readsRows ? Self.rows(values[1]) : nil
            if values[0] != .null {
                let total = Self.int(values[0])
                if min(limit, total - offset) <= 0 { return SearchPage(query: query, records: [], offset: offset, totalCount: total) }
                return try page(
                    query, plan, total: total, rows: rows, order: order, limit: limit, offset: offset, selection: selection,
                    costs: costs, forcing: forcing, serially: false, db, decode: decode)
            }
        }
        let readsRowsNow = readsRows && rows == nil
        let values = try self.values(estimates(plan, costs: costs) + (readsRowsNow ? [rowEstimate] : []), serially: true, db)
        return try page(
            query, estimated(plan, query, from: values, costs: costs), total: nil,
            rows: readsRowsNow ? Self.rows(values.last ?? .null) : rows, order: order, limit: limit, offset: offset,
            selection: selection, costs: costs, forcing: forcing, serially: true, db, decode: decode)
    }

    /// The page of `plan` (estimated when no kept count gave its `total`), read as planned, its
    /// statements planned without parallel workers when `serially` (``statement(_:serially:)``);
    /// `rows` is the table's row estimate when ``readsRowEstimate(_:order:)``.
    private func page<Entity>(
        _ query: SearchQuery, _ plan: PostgreSQLSearchPlan, total: Int?, rows: Int?, order: SearchOrder, limit: Int, offset: Int,
        selection: String, costs: SearchCosts, forcing: PageStrategy?, serially: Bool, _ db: some SQLConnection,
        decode: ([DatabaseValue]) throws -> Entity
    ) throws -> SearchPage<Entity> {
        var total = total
        let facts = pageFacts(plan, total: total, order: order, limit: limit, offset: offset, rows: rows)
        var strategy = forcing ?? PagePlanner.strategy(for: facts, costs: costs)
        if case .scan(let onePass) = strategy {
            if onePass, let page = try onePassPage(
                plan, order: order, limit: limit, offset: offset, selection: selection, serially: serially, db, decode) {
                return SearchPage(query: query, records: page.records, offset: offset, totalCount: page.total)
            }
            // Dense matches expected in list order: the walk planned for the matches expected, in the
            // statement that counts them; its page stands when it holds all it should.
            var walked: (records: [Entity], total: Int)?
            if !onePass, forcing == nil, let expected = facts.expectedMatches,
                case .walkListIndex(let budget, _) = PagePlanner.strategy(afterCounting: expected, facts, costs: costs) {
                walked = try countingWalk(
                    plan, budget: budget, order: order, limit: limit, offset: offset, selection: selection, serially: serially, db, decode)
                if let walked, walked.records.count == min(limit, walked.total - offset) {
                    return SearchPage(query: query, records: walked.records, offset: offset, totalCount: walked.total)
                }
            }
            // Counted (without reading the page's columns), then the page planned again with the total.
            let counted = try total ?? walked?.total ?? rowCount(plan, serially: serially, db)
            total = counted
            strategy = forcing == nil ? PagePlanner.strategy(afterCounting: counted, facts, costs: costs) : .readMatches(.sorted)
        }
        let counted = try total ?? rowCount(plan, serially: serially, db)
        guard min(limit, counted - offset) > 0 else { return SearchPage(query: query, records: [], offset: offset, totalCount: counted) }
        let records = try read(
            strategy, plan, order: order, limit: min(limit, counted - offset), offset: offset, selection: selection, serially: serially, db,
            decode)
        return SearchPage(query: query, records: records, offset: offset, totalCount: counted)
    }

    /// Whether a page of `plan` in `order` is planned from the table's rows (``rowEstimate``): in list
    /// order over the whole table, no term numeric. The table's rows cost a walk in list order, and
    /// make a share of each term's estimate. A numeric term is not walked: the walk reads each
    /// entry's row, which costs more than the list index's entries alone (W3 on PostgreSQL: `3 a`).
    func readsRowEstimate(_ plan: PostgreSQLSearchPlan, order: SearchOrder) -> Bool {
        order.isListIndexOrder && description.listIndex != nil && !plan.terms.contains(where: plan.isNumeric) && plan.scope == nil
    }

    /// What the planner chooses the page of `plan` from (its `total` when a kept count gave it;
    /// `rows`, the table's row estimate, when ``readsRowEstimate(_:order:)``).
    func pageFacts(_ plan: PostgreSQLSearchPlan, total: Int?, order: SearchOrder, limit: Int, offset: Int, rows: Int?) -> PageFacts {
        let scopeRows = readsRowEstimate(plan, order: order) ? rows : nil
        return PageFacts(
            limit: limit, offset: offset, total: total, driverRows: total ?? plan.driverEstimate,
            hasAllTermsIndex: plan.hasAllTermsIndex, inListOrder: order.isListIndexOrder && description.listIndex != nil,
            hasNumericTerm: plan.terms.contains(where: plan.isNumeric), scopeRows: scopeRows,
            expectedMatches: scopeRows.flatMap { plan.expectedMatches(rows: $0) })
    }

    /// ``PageStrategy/scan(onePass:)`` in one statement: the matches read once (``sortedMatches``)
    /// for the page and, by a window function, the total; nil when the page is empty (the matches
    /// must be counted).
    private func onePassPage<Entity>(
        _ plan: PostgreSQLSearchPlan, order: SearchOrder, limit: Int, offset: Int, selection: String, serially: Bool,
        _ db: some SQLConnection, _ decode: ([DatabaseValue]) throws -> Entity
    ) throws -> (records: [Entity], total: Int)? {
        let statement = Self.statement(
            sortedMatches(plan, columns: "\(selection), count(*) OVER ()", order: order, limit: limit, offset: offset), serially: serially)
        let rows = try db.fetchRows(sql: statement.sql, values: statement.arguments.values)
        guard let last = rows.last?.last else { return nil }
        return (try rows.map { try decode(Array($0.dropLast())) }, Self.int(last))
    }

    /// The statement that reads `columns` of the matches' page in `order`: the matches found through
    /// their indexes in a subquery that `OFFSET 0` keeps apart, then sorted; apart, because PostgreSQL
    /// would otherwise cost walking the order's index as if the `LIMIT` stopped it early (even where a
    /// window function must read every match first), and check each row it walks. A subquery rather
    /// than a `MATERIALIZED` common table expression, which copied every column of every match
    /// (W3 on PostgreSQL: `studio e`, `3 a`).
    private func sortedMatches(
        _ plan: PostgreSQLSearchPlan, columns: String, order: SearchOrder, limit: Int, offset: Int
    ) -> SQLFragment {
        let table = description.table
        let matches = plan.condition(alias: table)
        return SQLFragment(
            sql: "SELECT \(columns) FROM (SELECT * FROM \(table) WHERE \(matches.sql) OFFSET 0) AS \(table)"
                + " ORDER BY \(order.terms.sql) LIMIT ? OFFSET ?",
            arguments: matches.arguments + order.terms.arguments + [limit, offset])
    }

    /// The statement that reads `columns` of the first `limit` matches from `offset` among the first
    /// `budget` rows of the scope in list order, every term checked on each.
    private func walk(_ plan: PostgreSQLSearchPlan, budget: Int, order: SearchOrder, limit: Int, offset: Int, columns: String) -> SQLFragment {
        let table = description.table
        let scope = plan.scoped(SQLFragment(sql: "TRUE"), alias: table)
        let filters = plan.filterCondition(alias: table)
        return SQLFragment(
            sql: "SELECT \(columns) FROM (SELECT * FROM \(table) WHERE \(scope.sql) ORDER BY \(order.terms.sql) LIMIT ?) AS \(table)"
                + " WHERE \(filters.sql) ORDER BY \(order.terms.sql) LIMIT ? OFFSET ?",
            arguments: scope.arguments + order.terms.arguments + [budget] + filters.arguments + order.terms.arguments + [limit, offset])
    }

    /// A walk in list order (``walk(_:budget:order:limit:offset:columns:)``) whose statement also
    /// counts the matches (a subquery PostgreSQL runs once), one round trip for both; nil when it
    /// found no row, which carries no total.
    private func countingWalk<Entity>(
        _ plan: PostgreSQLSearchPlan, budget: Int, order: SearchOrder, limit: Int, offset: Int, selection: String, serially: Bool,
        _ db: some SQLConnection, _ decode: ([DatabaseValue]) throws -> Entity
    ) throws -> (records: [Entity], total: Int)? {
        let matches = plan.condition(alias: "counted")
        let total = SQLFragment(
            sql: "(SELECT count(*) FROM \(description.table) AS counted WHERE \(matches.sql))", arguments: matches.arguments)
        let walk = self.walk(plan, budget: budget, order: order, limit: limit, offset: offset, columns: "\(selection), \(total.sql)")
        let statement = Self.statement(SQLFragment(sql: walk.sql, arguments: total.arguments + walk.arguments), serially: serially)
        let rows = try db.fetchRows(sql: statement.sql, values: statement.arguments.values)
        guard let last = rows.last?.last else { return nil }
        return (try rows.map { try decode(Array($0.dropLast())) }, Self.int(last))
    }

    /// The page read with `strategy`: `limit` is what remains of the result from `offset`, so that
    /// a walk that finds fewer rows fell short.
    private func read<Entity>(
        _ strategy: PageStrategy, _ plan: PostgreSQLSearchPlan, order: SearchOrder, limit: Int, offset: Int, selection: String,
        serially: Bool, _ db: some SQLConnection, _ decode: ([DatabaseValue]) throws -> Entity
    ) throws -> [Entity] {
        let table = description.table
        let page = SQLFragment(sql: " ORDER BY \(order.terms.sql) LIMIT ? OFFSET ?", arguments: order.terms.arguments + [limit, offset])
        let statement: SQLFragment
        switch strategy {
        case .scan, .readMatches:
            statement = sortedMatches(plan, columns: selection, order: order, limit: limit, offset: offset)
        case .walkListIndex(let budget, let fallback):
            let walk = Self.statement(
                self.walk(plan, budget: budget, order: order, limit: limit, offset: offset, columns: selection), serially: serially)
            let rows = try db.fetchRows(sql: walk.sql, values: walk.arguments.values)
            if rows.count == limit { return try rows.map(decode) }
            return try read(fallback, plan, order: order, limit: limit, offset: offset, selection: selection, serially: serially, db, decode)
        case .walkOrderIndex:
            let filters = plan.filterCondition(alias: table)
            statement = SQLFragment(sql: "SELECT \(selection) FROM \(table) WHERE \(filters.sql)", arguments: filters.arguments) + page
        }
        let serial = Self.statement(statement, serially: serially)
        return try db.fetchRows(sql: serial.sql, values: serial.arguments.values).map(decode)
    }

    /// How many rows match `query` within `scope`.
    ///
    /// - Throws: what the connection throws.
    public func count(_ query: SearchQuery, scope: DatabaseValue? = nil, _ db: some SQLConnection) throws -> Int {
        try count(PostgreSQLSearchPlan(query, self, scope: scope), db)
    }

    private func count(_ plan: PostgreSQLSearchPlan, _ db: some SQLConnection) throws -> Int {
        if plan.matchesNothing { return 0 }
        if let kept = keptCount(plan), let total = try values([kept], db).first, total != .null { return Self.int(total) }
        return try rowCount(plan, serially: true, db)
    }

    /// The matches counted over the search's condition (no kept count holds them), planned without
    /// parallel workers when `serially` (``statement(_:serially:)``).
    private func rowCount(_ plan: PostgreSQLSearchPlan, serially: Bool, _ db: some SQLConnection) throws -> Int {
        let condition = plan.condition(alias: description.table)
        let statement = Self.statement(
            SQLFragment(sql: "SELECT count(*) FROM \(description.table) WHERE \(condition.sql)", arguments: condition.arguments), serially: serially)
        return try integer(db, statement.sql, statement.arguments.values)
    }

    /// The matches counted from kept counts and indexes, as one value (NULL when the kept counts do
    /// not hold the term), reading no row but those both a number column and a text index find: from
    /// the gram counts for one term of 1-2 characters, from the substring counts for one long term;
    /// for one numeric term, its text's count from those, plus its number columns' rows (an
    /// index-only count each), less those whose text also holds it. Nil for other searches.
    private func keptCount(_ plan: PostgreSQLSearchPlan) -> SQLFragment? {
        if plan.countsOneGram { return gramCount(plan.terms[0].folded, scope: plan.scope) }
        if let term = plan.countedLongTerm { return substringCount(term, scope: plan.scope) }
        guard let term = plan.countedNumber,
            let inText = term.isShort ? gramCount(term.folded, scope: plan.scope) : substringCount(term, scope: plan.scope)
        else { return nil }
        let table = description.table
        let both = plan.numberAndTextRows(term, alias: table)
        let total = SQLFragment(
            joining: [SQLFragment(sql: "kept.text")]
                + plan.numberRows(term, alias: table).map { SQLFragment(sql: "(SELECT count(*) FROM \(table) WHERE \($0.sql))", arguments: $0.arguments) },
            separator: " + ") + SQLFragment(sql: " - (SELECT count(*) FROM \(table) WHERE \(both.sql))", arguments: both.arguments)
        // The number columns are counted only when the text's count is kept.
        return SQLFragment(
            sql: "(SELECT CASE WHEN kept.text IS NOT NULL THEN (\(total.sql))::bigint END FROM (SELECT \(inText.sql) AS text OFFSET 0) AS kept)",
            arguments: total.arguments + inText.arguments)
    }

    /// How many rows match `query` in each scope value that has any (every row's scope value, NULL
    /// included): a sectioned result's counts. Needs a scope column.
    ///
    /// - Throws: what the connection throws.
    public func countsPerScope(_ query: SearchQuery, _ db: some SQLConnection) throws -> [DatabaseValue: Int] {
        guard let scopeColumn = description.scopeColumn else { preconditionFailure("counts per scope need a scope column") }
        let plan = PostgreSQLSearchPlan(query, self, scope: nil)
        if plan.matchesNothing { return [:] }
        if let term = plan.countedLongTerm, let counts = try substringCounts(term, db) { return counts }
        let condition = plan.condition(alias: description.table)
        let rows = try plan.countsOneGram
            ? db.fetchRows(sql: "SELECT scope, count FROM \(gramCountsTable) WHERE gram = ? AND count > 0", values: [.text(plan.terms[0].folded)])
            : db.fetchRows(
                sql: "SELECT \(scopeColumn), count(*) FROM \(description.table) WHERE \(condition.sql) GROUP BY 1",
                values: condition.arguments.values)
        return Dictionary(rows.map { ($0[0], Self.int($0[1])) }, uniquingKeysWith: +)
    }

    /// The ids of the rows that match `query` within `scope`, in no order.
    ///
    /// - Throws: what the connection throws.
    public func matchIDs(_ query: SearchQuery, scope: DatabaseValue? = nil, _ db: some SQLConnection) throws -> [Int64] {
        let condition = try self.condition(for: query, scope: scope, alias: description.table, db)
        return try db.fetchRows(
            sql: "SELECT \(description.idColumn) FROM \(description.table) WHERE \(condition.sql)", values: condition.arguments.values
        ).map { Int64(Self.int($0[0])) }
    }

    /// The condition on a row of the table, named `alias`, that holds exactly when it matches `query`
    /// within `scope`, for embedding in other SQL (`?` placeholders, as `SQLConnection` takes them):
    /// the numbers that join the grams index's scan are chosen by this read's counts, the condition
    /// stays exact in any later read.
    ///
    /// - Throws: what the connection throws.
    public func condition(
        for query: SearchQuery, scope: DatabaseValue? = nil, alias: String, _ db: some SQLConnection
    ) throws -> SQLFragment {
        let plan = PostgreSQLSearchPlan(query, self, scope: scope)
        guard plan.checksCandidates else { return plan.condition(alias: alias) }
        return try estimated(plan, query, costs: .standard, db).condition(alias: alias)
    }

    /// The integer of a statement's first column of its first row.
    private func integer(_ db: some SQLConnection, _ sql: String, _ values: [DatabaseValue]) throws -> Int {
        try Self.int(db.fetchRows(sql: sql, values: values).first?.first ?? .null)
    }
}
