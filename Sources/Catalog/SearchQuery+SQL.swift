import SQLiteStore

extension SearchQuery {
    /// The SQL condition, and its bound values, that holds for a row of `entity`'s table exactly when the
    /// row matches this search: for embedding in generated SQL (a fetch request's WHERE clause).
    ///
    /// ```swift
    /// let (sql, arguments) = try SearchQuery("mac 2006").sqlCondition(for: .products, tableAlias: "p", db)
    /// let rows = try db.fetchAll(sql: "SELECT p.id FROM products p WHERE \(sql) ORDER BY p.name_folded",
    ///                            arguments: arguments) { try $0.decode(Int64.self, at: 0) }
    /// ```
    ///
    /// For products, the condition reaches rows through the suffixes index (one term: the rarest by
    /// the counts when `db` is given, else the longest); for phones, through the FTS5 trigram index for
    /// terms of 3+ characters. The remaining terms are checked with `instr` on the folded columns of
    /// `tableAlias`. User text only ever travels as bound
    /// values. No term gives `1`; a term that cannot match gives `0`.
    ///
    /// - Parameters:
    ///   - entity: the entity whose table `tableAlias` names.
    ///   - tableAlias: the table's name or alias in the caller's SQL; it needs the columns `id`,
    ///     `name_folded` (and `maker_folded` for phones, `year_introduced` and `intro_price` for products).
    ///   - db: when given, the terms' counts in the indexes choose the rarest one to drive the search.
    /// - Throws: `DatabaseError` when the counts cannot be read.
    public func sqlCondition(
        for entity: Entity, tableAlias: String, _ db: Database? = nil
    ) throws -> (sql: String, arguments: StatementArguments) {
        let estimates = try db.flatMap { try termEstimates(entity: entity, scope: nil, cap: .max, $0) }
        let fragment = SearchPlan(self, entity: entity, estimates: estimates).condition(alias: tableAlias)
        return (fragment.sql, fragment.arguments)
    }

    /// ``sqlCondition(for:tableAlias:_:)`` for a search text, without gram counts.
    ///
    /// ```swift
    /// let (sql, arguments) = SearchQuery.sqlCondition(for: "ipod", entity: .products, tableAlias: "products")
    /// ```
    public static func sqlCondition(
        for text: String, entity: Entity, tableAlias: String
    ) -> (sql: String, arguments: StatementArguments) {
        let fragment = SearchPlan(SearchQuery(text), entity: entity).condition(alias: tableAlias)
        return (fragment.sql, fragment.arguments)
    }

    /// The rows of each term of a products search, for choosing the rarest one to drive: for a term
    /// of 1-2 scalars, the products holding it within `scope`, from the gram counts; for a longer term,
    /// its occurrences in the suffixes index (all types), counted up to `cap`, and past `cap` the
    /// products of its rarest 2-scalar gram (a bound read from the gram counts, so that common terms
    /// still compare). A term that reads as a number adds its rows in the year and price indexes
    /// (each counted up to `cap`). Nil for an entity without suffixes.
    func termEstimates(entity: Entity, scope: ProductType?, cap: Int, _ db: Database) throws -> [String: Int]? {
        let schema = entity.searchSchema
        guard let suffixes = schema.suffixesTable, let counts = schema.gramCountsTable else { return nil }
        var estimates: [String: Int] = [:]
        // Short terms first (one row each); then, with other terms, a long term is counted past `cap`
        // up to the rarest estimate so far (at most `Self.driverCountLimit`): enough to tell which drives.
        var rarest = Int.max
        for term in terms.filter(\.isShort) + terms.filter({ !$0.isShort }) where estimates[term.folded] == nil {
            var estimate: Int
            if term.isShort {
                estimate = try Self.gramCount(term.folded, scope: scope, table: counts, db)
            } else {
                let range = SearchPlan.suffixRange(term)
                let limit = terms.count > 1 ? max(cap, min(rarest, Self.driverCountLimit)) : cap
                estimate = try db.scalar(
                    Int.self, sql: "SELECT count(*) FROM (SELECT 1 FROM \(suffixes) WHERE \(range.sql) LIMIT ?)",
                    arguments: range.arguments + [limit]) ?? 0
                if estimate >= limit {
                    let scalars = Array(term.folded.unicodeScalars)
                    var bound = Int.max
                    for start in 0..<(scalars.count - 1) {
                        let gram = String(String.UnicodeScalarView(scalars[start...start + 1]))
                        bound = min(bound, try Self.gramCount(gram, scope: scope, table: counts, db))
                    }
                    estimate = max(estimate, bound)
                }
            }
            if let number = term.number {
                for column in schema.numberColumns {
                    estimate += try db.scalar(
                        Int.self,
                        sql: "SELECT count(*) FROM (SELECT 1 FROM \(schema.table) WHERE \(column) = ? LIMIT ?)",
                        arguments: [number, cap]) ?? 0
                }
            }
            estimates[term.folded] = estimate
            rarest = min(rarest, estimate)
        }
        return estimates
    }

    /// How many suffix rows a long term of a search of several terms is counted up to, to choose the driver.
    static let driverCountLimit = 100_000

    /// The rows whose folded name holds `gram` (1 or 2 scalars), within `scope`.
    static func gramCount(_ gram: String, scope: ProductType?, table: String, _ db: Database) throws -> Int {
        if let scope {
            return try db.scalar(
                Int.self, sql: "SELECT count FROM \(table) WHERE gram = ? AND type = ?", arguments: [gram, scope]) ?? 0
        }
        return try db.scalar(Int.self, sql: "SELECT coalesce(sum(count), 0) FROM \(table) WHERE gram = ?", arguments: [gram]) ?? 0
    }
}
