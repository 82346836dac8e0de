import SQLiteStore

extension CatalogStore {
    /// The products that match `query` within `request` (entity, scope, sort), in its sections and order:
    /// the same as ``sections(_:)-(ListRequest)`` with `request.searchText = query.text`.
    ///
    /// ```swift
    /// let sections: [RecordSection<Product>] = try store.search(SearchQuery("mac"), in: ListRequest(scope: .desktop))
    /// ```
    ///
    /// - Throws: ``CatalogError/invalidValue(field:value:reason:)``, ``DatabaseError``.
    public func search(_ query: SearchQuery, in request: ListRequest) throws -> [RecordSection<Product>] {
        var request = request
        request.searchText = query.text
        return try sections(request)
    }

    /// The phones that match `query` within `request`, in its sections and order.
    ///
    /// - Throws: ``CatalogError/invalidValue(field:value:reason:)``, ``DatabaseError``.
    public func search(_ query: SearchQuery, in request: ListRequest) throws -> [RecordSection<Phone>] {
        var request = request
        request.searchText = query.text
        return try sections(request)
    }

    /// A page of the records that match the request's search, in its order, and how many match in all,
    /// read from one snapshot of the database.
    ///
    /// ```swift
    /// let page = try store.searchPage(Product.self, ListRequest(searchText: "ip"), limit: 50)
    /// ```
    ///
    /// The total comes from the gram counts for one short product term, from the trigram index for
    /// terms of 3+ characters, and otherwise from the indexed driver term with the other terms checked
    /// on its rows. A page of a large result sorted by name is read in the order of the
    /// `products_by_type_name` index, stopping after `limit` rows; other pages come from the driver.
    ///
    /// - Throws: ``CatalogError/invalidValue(field:value:reason:)``, ``DatabaseError``.
    public func searchPage<Record: CatalogRecord>(
        _ type: Record.Type, _ request: ListRequest, limit: Int = 50, offset: Int = 0
    ) throws -> SearchPage<Record> {
        try searchPage(type, request, limit: limit, offset: offset, orderedScanThreshold: Self.orderedScanThreshold)
    }

    /// ``searchPage(_:_:limit:offset:)`` with the total from which a page is read in index order.
    @_spi(Testing)
    public func searchPage<Record: CatalogRecord>(
        _ type: Record.Type, _ request: ListRequest, limit: Int, offset: Int, orderedScanThreshold: Int
    ) throws -> SearchPage<Record> {
        precondition(request.entity == Record.entity && limit >= 0 && offset >= 0)
        try request.validate()
        return try queue.read { db in
            let plan = try Self.plan(request, db)
            let total = try Self.count(plan, scope: request.scope, db)
            let table = Record.tableName
            let sql: String
            let arguments: StatementArguments
            if total >= orderedScanThreshold, Record.entity == .products, request.sort == .name, !request.isReversed,
               !plan.query.terms.contains(where: { $0.number != nil }) {
                // Dense result: walk the (type, name_folded, id) index in order, checking the terms on
                // the index's own name_folded, and stop after the page.
                let condition = Self.scoped(plan.filterCondition(ofAllTermsOn: table), scope: request.scope, alias: table)
                sql = "SELECT \(Record.selection) FROM \(table) INDEXED BY products_by_type_name WHERE \(condition.sql)"
                    + " ORDER BY \(request.orderClause(alias: table)) LIMIT ? OFFSET ?"
                arguments = condition.arguments + [limit, offset]
            } else {
                let condition = Self.condition(plan, scope: request.scope, alias: table)
                sql = "SELECT \(Record.selection) FROM \(table) WHERE \(condition.sql)"
                    + " ORDER BY \(request.orderClause(alias: table)) LIMIT ? OFFSET ?"
                arguments = condition.arguments + [limit, offset]
            }
            let records = total == 0 ? [] : try db.fetchAll(sql: sql, arguments: arguments) { try Record(row: $0) }
            return SearchPage(query: plan.query, records: records, offset: offset, totalCount: total)
        }
    }

    /// The number of records that match the request's search.
    ///
    /// - Throws: ``CatalogError/invalidValue(field:value:reason:)``, ``DatabaseError``.
    public func searchCount(_ request: ListRequest) throws -> Int {
        try request.validate()
        return try queue.read { db in try Self.count(try Self.plan(request, db), scope: request.scope, db) }
    }

    /// Whether the request's entity has any record in its scope, search aside: tells "the store is
    /// empty" from "nothing matched this search".
    ///
    /// - Throws: ``DatabaseError``.
    public func hasRecords(_ request: ListRequest) throws -> Bool {
        let table = request.entity.searchSchema.table
        return try queue.read { db in
            if let scope = request.scope, request.entity == .products {
                return try db.scalar(Bool.self, sql: "SELECT EXISTS (SELECT 1 FROM \(table) WHERE type = ?)", arguments: [scope]) ?? false
            }
            return try db.scalar(Bool.self, sql: "SELECT EXISTS (SELECT 1 FROM \(table))") ?? false
        }
    }

    // MARK: - Plans and counts

    /// The total from which a page sorted by name is read in index order rather than from the driver.
    static let orderedScanThreshold = 2_000

    static func plan(_ request: ListRequest, _ db: Database) throws -> SearchPlan {
        let query = request.searchQuery
        let counts = try query.shortTermCounts(entity: request.entity, scope: request.scope, db)
        return SearchPlan(query, entity: request.entity, shortTermCounts: counts)
    }

    static func condition(_ plan: SearchPlan, scope: ProductType?, alias: String) -> SQLFragment {
        scoped(plan.condition(alias: alias), scope: scope, alias: alias)
    }

    static func scoped(_ condition: SQLFragment, scope: ProductType?, alias: String) -> SQLFragment {
        guard let scope else { return condition }
        return SQLFragment(joining: [condition, SQLFragment("\(alias).type = ?", [scope])], separator: " AND ")
    }

    static func count(_ plan: SearchPlan, scope: ProductType?, _ db: Database) throws -> Int {
        let schema = plan.entity.searchSchema
        if plan.matchesNothing { return 0 }
        if plan.filters.isEmpty, case .term(let term) = plan.driver, term.isShort, let counts = schema.gramCountsTable {
            // One short product term: its gram count, plus the rows its number finds that its name does not.
            var total = try SearchQuery.gramCount(term.folded, scope: scope, table: counts, db)
            if let number = term.number {
                let extra = scoped(
                    SQLFragment("(year_introduced = ? OR intro_price = ?) AND instr(name_folded, ?) = 0", [number, number, term.folded]),
                    scope: scope, alias: schema.table)
                total += try db.scalar(Int.self, sql: "SELECT count(*) FROM \(schema.table) WHERE \(extra.sql)", arguments: extra.arguments) ?? 0
            }
            return total
        }
        if plan.filters.isEmpty, scope == nil, case .fullText(let terms) = plan.driver {
            // Terms of 3+ characters only: the trigram index answers alone.
            return try db.scalar(
                Int.self, sql: "SELECT count(*) FROM \(schema.fullTextTable) WHERE \(schema.fullTextTable) MATCH ?",
                arguments: [SearchPlan.fullTextPattern(terms)]) ?? 0
        }
        let condition = condition(plan, scope: scope, alias: schema.table)
        return try db.scalar(Int.self, sql: "SELECT count(*) FROM \(schema.table) WHERE \(condition.sql)", arguments: condition.arguments) ?? 0
    }
}
