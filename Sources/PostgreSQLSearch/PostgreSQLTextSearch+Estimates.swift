import SQLiteStore
import TextSearch

/// What a page is planned from: each term's rows estimated from the gram and substring counts and
/// the number columns' indexes, read in one statement, and the table's row estimate.
extension PostgreSQLTextSearch {
    /// `plan` (of `query`) with its terms' rows estimated (``estimates(_:costs:)``), in one statement.
    func estimated(
        _ plan: PostgreSQLSearchPlan, _ query: SearchQuery, costs: SearchCosts, _ db: some SQLConnection
    ) throws -> PostgreSQLSearchPlan {
        try estimated(plan, query, from: values(estimates(plan, costs: costs), db), costs: costs)
    }

    /// The values that estimate `plan`'s terms' rows, reading no row of the table but a number
    /// column's index, per term: a term of 1-2 characters its gram count; a longer one its substring
    /// count when the substring counts hold it (a single term's ``keptCount(_:)`` found they do not),
    /// else its rarest pair's gram count (a bound); then, for a numeric term, its rows in each number
    /// column, counted up to just past `costs.onePassRows`, which also choose the numbers that join
    /// the grams index's scan.
    func estimates(_ plan: PostgreSQLSearchPlan, costs: SearchCosts) -> [SQLFragment] {
        let table = description.table
        return plan.terms.flatMap { term -> [SQLFragment] in
            var text = gramCount(term.folded, scope: plan.scope)
            if !term.isShort {
                let pairs = SQLFragment(joining: PostgreSQLSearchPlan.pairs(of: term.folded).map { gramCount($0, scope: plan.scope) }, separator: ", ")
                let rarestPair = pairs.sql.isEmpty ? SQLFragment(sql: "0") : SQLFragment(sql: "least(\(pairs.sql))", arguments: pairs.arguments)
                text = plan.terms.count > 1 ? substringCount(term, scope: plan.scope).map { counted in
                    let both = SQLFragment(joining: [counted, rarestPair], separator: ", ")
                    return SQLFragment(sql: "coalesce(\(both.sql))", arguments: both.arguments)
                } ?? rarestPair : rarestPair
            }
            guard plan.isNumeric(term), let number = term.number else { return [text] }
            return [text] + description.numberColumns.map { column in
                let equals = PostgreSQLSearchPlan.equals("\(table).\(SQLText.identifier(column))", number)
                return SQLFragment(
                    sql: "(SELECT count(*) FROM (SELECT 1 FROM \(table) WHERE \(equals.sql) LIMIT ?) AS capped)",
                    arguments: equals.arguments + [costs.onePassRows + 1])
            }
        }
    }

    /// `plan` (of `query`) with the estimates read from `values`, the values of ``estimates(_:costs:)``
    /// (more may follow).
    func estimated(
        _ plan: PostgreSQLSearchPlan, _ query: SearchQuery, from values: [DatabaseValue], costs: SearchCosts
    ) -> PostgreSQLSearchPlan {
        var estimates: [String: Int] = [:]
        var numberRows: [String: Int] = [:]
        var next = values.makeIterator()
        for term in plan.terms {
            var estimate = Self.int(next.next() ?? .null)
            if plan.isNumeric(term), term.number != nil {
                let rows = description.numberColumns.reduce(0) { sum, _ in sum + Self.int(next.next() ?? .null) }
                numberRows[term.folded] = rows
                estimate += rows
            }
            estimates[term.folded] = estimate
        }
        return PostgreSQLSearchPlan(
            query, self, scope: plan.scope, estimates: estimates, numberRows: numberRows, fewRows: costs.fewRows)
    }

    /// `statement`, planned without PostgreSQL's parallel workers when `serially`: a search counted
    /// over its rows reads a few thousand pages from shared buffers, where starting two workers and
    /// sharing the pages costs more than it saves on two cores, idle or busy (W3 on PostgreSQL: `x
    /// in`, `2 le`, `se 1`). A common table expression that calls a function PostgreSQL marks
    /// `PARALLEL UNSAFE` makes it plan the whole statement serially; unreferenced, it is neither
    /// planned nor run, and the session's settings stay as they are, where turning the workers off
    /// and back cost a statement more per search (W3 on PostgreSQL: `studio e`).
    static func statement(_ statement: SQLFragment, serially: Bool) -> SQLFragment {
        guard serially else { return statement }
        return SQLFragment(sql: "WITH serially AS (SELECT pg_current_xact_id_if_assigned()) " + statement.sql, arguments: statement.arguments)
    }

    /// The table's rows as PostgreSQL's statistics estimate them (`pg_class.reltuples`, as of the
    /// last `ANALYZE` or `VACUUM`), as one value (-1 before either; ``rows(_:)`` reads it), for the
    /// planner to cost a walk in list order.
    var rowEstimate: SQLFragment {
        SQLFragment(
            sql: "(SELECT coalesce(max(reltuples), -1)::bigint FROM pg_class WHERE oid = to_regclass(?))",
            arguments: [description.table])
    }

    /// The rows of ``rowEstimate``'s value; nil before the table was analyzed.
    static func rows(_ value: DatabaseValue) -> Int? {
        let rows = int(value)
        return rows > 0 ? rows : nil
    }

    /// The rows whose texts hold `gram` (1 or 2 characters), within `scope`, from the gram counts,
    /// as one value.
    func gramCount(_ gram: String, scope: DatabaseValue?) -> SQLFragment {
        if let scope, description.scopeColumn != nil {
            return SQLFragment(
                sql: "(SELECT coalesce(sum(count), 0) FROM \(gramCountsTable) WHERE gram = ? AND scope = ?)", arguments: [gram, scope])
        }
        return SQLFragment(sql: "(SELECT coalesce(sum(count), 0) FROM \(gramCountsTable) WHERE gram = ?)", arguments: [gram])
    }

    /// The values of `scalars` (SQL expressions of one value each), read in one statement, planned
    /// without parallel workers when `serially` (``statement(_:serially:)``).
    func values(_ scalars: [SQLFragment], serially: Bool = false, _ db: some SQLConnection) throws -> [DatabaseValue] {
        guard !scalars.isEmpty else { return [] }
        let list = SQLFragment(joining: scalars, separator: ", ")
        let statement = Self.statement(SQLFragment(sql: "SELECT " + list.sql, arguments: list.arguments), serially: serially)
        return try db.fetchRows(sql: statement.sql, values: statement.arguments.values).first ?? []
    }

    /// An integer (or a numeric sum) read as an `Int`; 0 for anything else.
    static func int(_ value: DatabaseValue) -> Int {
        switch value {
        case .integer(let integer): Int(integer)
        case .real(let real): Int(real)
        default: 0
        }
    }
}
