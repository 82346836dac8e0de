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
    /// Products: the rarest term drives (its range of `products_suffixes`, or its gram count for 1-2
    /// characters, tells how rare; a number adds its year and price rows). The total comes from the
    /// gram counts for one short term, from the suffixes index for one term of up to 8 characters,
    /// from the trigram index for common terms of 3+ characters, and otherwise from the driver's rows
    /// with the other terms checked on them, read once for the total and the page. When even the
    /// rarest term is common, a page sorted by name is found by walking the `products_by_type_name`
    /// index in order, for a bounded number of entries, and from the trigram index of all terms or
    /// the driver's rows if that falls short.
    ///
    /// - Throws: ``CatalogError/invalidValue(field:value:reason:)``, ``DatabaseError``.
    public func searchPage<Record: CatalogRecord>(
        _ type: Record.Type, _ request: ListRequest, limit: Int = 50, offset: Int = 0
    ) throws -> SearchPage<Record> {
        try searchPage(
            type, request, limit: limit, offset: offset, orderedScanThreshold: Self.orderedScanThreshold,
            orderedScanBudget: Self.orderedScanBudget(limit: limit, offset: offset))
    }

    /// ``searchPage(_:_:limit:offset:)`` with the driver's estimated rows from which a page is looked
    /// for in index order, and how many index entries that walk may read.
    @_spi(Testing)
    public func searchPage<Record: CatalogRecord>(
        _ type: Record.Type, _ request: ListRequest, limit: Int, offset: Int, orderedScanThreshold: Int,
        orderedScanBudget: Int = .max
    ) throws -> SearchPage<Record> {
        precondition(request.entity == Record.entity && limit >= 0 && offset >= 0 && orderedScanBudget >= 0)
        try request.validate()
        return try database.read { db in
            let plan = try Self.plan(request, denseThreshold: orderedScanThreshold, db)
            if let page = try Self.numericTermPage(
                Record.self, plan, request, limit: limit, offset: offset, orderedScanThreshold: orderedScanThreshold,
                budget: orderedScanBudget, db) {
                return page
            }
            let table = Record.tableName
            let condition = Self.condition(plan, scope: request.scope, alias: table)
            let pageSQL = "SELECT \(Record.selection) FROM \(table) WHERE \(condition.sql)"
                + " ORDER BY \(request.orderClause(alias: table)) LIMIT ? OFFSET ?"
            guard let total = try Self.indexedCount(plan, scope: request.scope, db) else {
                if !plan.isDense || plan.driverEstimate.map({ $0 <= Self.onePassLimit }) == true, limit > 0 {
                    // The total needs the driver's rows checked one by one: read them once, for the
                    // page and (with a window function) the total.
                    var total = 0
                    let records = try db.fetchAll(
                        sql: "SELECT \(Record.selection), count(*) OVER () FROM \(table) WHERE \(condition.sql)"
                            + " ORDER BY \(request.orderClause(alias: table)) LIMIT ? OFFSET ?",
                        arguments: condition.arguments + [limit, offset]
                    ) { row in
                        total = try row.decode(Int.self, at: Record.columnNames.count + 1)
                        return try Record(row: row)
                    }
                    if !records.isEmpty { return SearchPage(query: plan.query, records: records, offset: offset, totalCount: total) }
                }
                let total = try Self.scannedCount(plan, scope: request.scope, db)
                let records = min(limit, max(0, total - offset)) == 0 ? []
                    : try db.fetchAll(sql: pageSQL, arguments: condition.arguments + [limit, offset]) { try Record(row: $0) }
                return SearchPage(query: plan.query, records: records, offset: offset, totalCount: total)
            }
            let wanted = min(limit, max(0, total - offset))
            if wanted == 0 { return SearchPage(query: plan.query, records: [], offset: offset, totalCount: total) }
            // Terms all in the trigram index: its rows of all of them are the matches, read `total` rows.
            let fullText = plan.terms.count > 1 ? plan.fullTextCondition(alias: table).map { Self.scoped($0, scope: request.scope, alias: table) } : nil
            let fullTextPageSQL = fullText.map {
                "SELECT \(Record.selection) FROM \(table) WHERE \($0.sql) ORDER BY \(request.orderClause(alias: table)) LIMIT ? OFFSET ?"
            }
            if let fullText, let fullTextPageSQL, total <= Self.orderedScanThreshold {
                let records = try db.fetchAll(sql: fullTextPageSQL, arguments: fullText.arguments + [limit, offset]) { try Record(row: $0) }
                return SearchPage(query: plan.query, records: records, offset: offset, totalCount: total)
            }
            if plan.isDense, request.sort == .name, !request.isReversed,
               !plan.terms.contains(where: plan.isNumeric),
               let records = try Self.pageInListOrder(Record.self, plan, scope: request.scope, wanted: wanted, offset: offset, budget: orderedScanBudget, db) {
                return SearchPage(query: plan.query, records: records, offset: offset, totalCount: total)
            }
            if let fullText, let fullTextPageSQL {
                let records = try db.fetchAll(sql: fullTextPageSQL, arguments: fullText.arguments + [limit, offset]) { try Record(row: $0) }
                return SearchPage(query: plan.query, records: records, offset: offset, totalCount: total)
            }
            let records = try db.fetchAll(sql: pageSQL, arguments: condition.arguments + [limit, offset]) { try Record(row: $0) }
            return SearchPage(query: plan.query, records: records, offset: offset, totalCount: total)
        }
    }

    /// A search of one numeric term that few products (at most 1,000) match by year or price alone:
    /// the total is its name matches' (counted as a plain term's) plus those, and the page is read
    /// among the first `offset + limit` name matches and those rows. Nil when it does not apply.
    private static func numericTermPage<Record: CatalogRecord>(
        _ type: Record.Type, _ plan: SearchPlan, _ request: ListRequest, limit: Int, offset: Int,
        orderedScanThreshold: Int, budget: Int, _ db: Database
    ) throws -> SearchPage<Record>? {
        guard plan.terms.count == 1, let term = plan.terms.first, plan.isNumeric(term), let number = term.number,
              limit > 0, offset + limit <= 10_000
        else { return nil }
        let schema = plan.entity.searchSchema
        let table = Record.tableName
        let byNumber = schema.numberColumns.map { "\(table).\($0) = ?" }.joined(separator: " OR ")
        let numberOnly = scoped(
            SQLFragment(
                sql: "(\(byNumber)) AND instr(\(table).name_folded, ?) = 0",
                arguments: StatementArguments(schema.numberColumns.map { _ in number }) + [term.folded]),
            scope: request.scope, alias: table)
        let numberIDs = try db.fetchAll(
            sql: "SELECT id FROM \(table) WHERE \(numberOnly.sql) LIMIT 1001", arguments: numberOnly.arguments
        ) { try $0.decode(Int64.self, at: 0) }
        guard numberIDs.count <= 1_000 else { return nil }
        let namePlan = try Self.plan(request, denseThreshold: orderedScanThreshold, matchesNumbers: false, db)
        let nameTotal = try count(namePlan, scope: request.scope, db)
        let total = nameTotal + numberIDs.count
        if min(limit, max(0, total - offset)) == 0 {
            return SearchPage(query: plan.query, records: [], offset: offset, totalCount: total)
        }
        let nameWanted = min(offset + limit, nameTotal)
        var nameIDs: [Int64]
        if namePlan.isDense, request.sort == .name, !request.isReversed,
           let records = try pageInListOrder(
            Record.self, namePlan, scope: request.scope, wanted: nameWanted, offset: 0, budget: budget, db) {
            nameIDs = records.map { $0.id! }
        } else {
            let condition = condition(namePlan, scope: request.scope, alias: table)
            nameIDs = try db.fetchAll(
                sql: "SELECT \(table).id FROM \(table) WHERE \(condition.sql) ORDER BY \(request.orderClause(alias: table)) LIMIT ?",
                arguments: condition.arguments + [nameWanted]
            ) { try $0.decode(Int64.self, at: 0) }
        }
        let ids = nameIDs + numberIDs
        let idList = SQLFragment.list(ids)
        let records = try db.fetchAll(
            sql: "SELECT \(Record.selection) FROM \(table) WHERE \(table).id IN \(idList.sql)"
                + " ORDER BY \(request.orderClause(alias: table)) LIMIT ? OFFSET ?",
            arguments: idList.arguments + [limit, offset]
        ) { try Record(row: $0) }
        return SearchPage(query: plan.query, records: records, offset: offset, totalCount: total)
    }

    /// The `wanted` products after `offset`, in list order by name, found by walking the (type,
    /// name_folded, id) index in order and checking the terms on the index's own name_folded, for at
    /// most `budget` entries; nil when the walk ends before it finds them all.
    private static func pageInListOrder<Record: CatalogRecord>(
        _ type: Record.Type, _ plan: SearchPlan, scope: ProductType?, wanted: Int, offset: Int, budget: Int, _ db: Database
    ) throws -> [Record]? {
        let table = Record.tableName
        let scoped = scope.map { SQLFragment(sql: "WHERE type = ?", arguments: [$0]) } ?? SQLFragment(sql: "")
        let filter = plan.filterCondition(ofAllTermsOn: "s")
        // The subquery is a co-routine that yields index entries in order; the outer query has no
        // ORDER BY, so that it stops at the page (a sort would first read the whole budget).
        let keys = try db.fetchAll(
            sql: """
                SELECT type, name_folded, id FROM (
                    SELECT type, name_folded, id FROM \(table) INDEXED BY products_by_type_name \(scoped.sql)
                    ORDER BY type, name_folded, id LIMIT ?
                ) AS s WHERE \(filter.sql) LIMIT ? OFFSET ?
                """,
            arguments: scoped.arguments + [budget] + filter.arguments + [wanted, offset]
        ) { row in
            (type: Array(try row.decode(String.self, at: 0).utf8), name: Array(try row.decode(String.self, at: 1).utf8),
             id: try row.decode(Int64.self, at: 2))
        }
        // Entries in list order (SQL promises no order without ORDER BY: check it, BINARY = UTF-8 bytes).
        let isOrdered = zip(keys, keys.dropFirst()).allSatisfy { a, b in
            if a.type != b.type { return a.type.lexicographicallyPrecedes(b.type) }
            if a.name != b.name { return a.name.lexicographicallyPrecedes(b.name) }
            return a.id < b.id
        }
        guard keys.count == wanted, isOrdered else { return nil }
        let ids = keys.map(\.id)
        let idList = SQLFragment.list(ids)
        let records = try db.fetchAll(
            sql: "SELECT \(Record.selection) FROM \(table) WHERE id IN \(idList.sql)", arguments: idList.arguments
        ) { try Record(row: $0) }
        let byID = Dictionary(uniqueKeysWithValues: records.map { ($0.id!, $0) })
        return ids.compactMap { byID[$0] }
    }

    /// The number of records that match the request's search.
    ///
    /// - Throws: ``CatalogError/invalidValue(field:value:reason:)``, ``DatabaseError``.
    public func searchCount(_ request: ListRequest) throws -> Int {
        try request.validate()
        return try database.read { db in
            try Self.count(try Self.plan(request, denseThreshold: Self.orderedScanThreshold, db), scope: request.scope, db)
        }
    }

    /// Whether the request's entity has any record in its scope, search aside: tells "the store is
    /// empty" from "nothing matched this search".
    ///
    /// - Throws: ``DatabaseError``.
    public func hasRecords(_ request: ListRequest) throws -> Bool {
        let table = request.entity.searchSchema.table
        return try database.read { db in
            if let scope = request.scope, request.entity == .products {
                return try db.scalar(Bool.self, sql: "SELECT EXISTS (SELECT 1 FROM \(table) WHERE type = ?)", arguments: [scope]) ?? false
            }
            return try db.scalar(Bool.self, sql: "SELECT EXISTS (SELECT 1 FROM \(table))") ?? false
        }
    }

    // MARK: - Plans and counts

    /// The estimated rows of the rarest term from which a page sorted by name is looked for in index
    /// order, and a common term's total is counted in the trigram index. Below it, sorting the
    /// driver's rows (one table lookup each) is cheaper than walking about `limit × products / rows`
    /// index entries; measured on 1,000,000 products, the two meet between 2,000 and 5,000 rows.
    static let orderedScanThreshold = 4_000

    /// The driver's estimated rows up to which, when the total needs every driver row checked, the
    /// page and the total are read in one pass over them (a window function), rather than a count
    /// then a walk in list order that may fall back to a second pass.
    static let onePassLimit = 60_000

    /// The length from which one common term's total is counted from its suffixes (distinct ids)
    /// rather than its phrase in the trigram index: measured on 1,000,000 products, about even at 4.
    static let distinctIDsMinimumLength = 5

    /// How many index entries a walk in list order may read: enough for matches spread evenly among
    /// 1,000,000 products at the threshold's density, with room; clustered matches fall back.
    static func orderedScanBudget(limit: Int, offset: Int) -> Int {
        let (product, overflow) = (limit + offset).multipliedReportingOverflow(by: 400)
        return overflow ? .max : max(product, 10_000)
    }

    /// The plan of the request's search, within the current read; `matchesNumbers: false` plans
    /// numeric terms as plain ones.
    static func plan(
        _ request: ListRequest, denseThreshold: Int, matchesNumbers: Bool = true, _ db: Database
    ) throws -> SearchPlan {
        let query = request.searchQuery
        let estimates = try query.termEstimates(entity: request.entity, scope: request.scope, cap: denseThreshold, db)
        let plan = SearchPlan(
            query, entity: request.entity, estimates: estimates, denseThreshold: denseThreshold, matchesNumbers: matchesNumbers)
        // A numeric term matches by year or price too; when, in this read, every product of that year
        // or price has the number in its name anyway (`500`, `3`: none or a few rows, checked until
        // one is found), it is a plain term: its total and page come from the name indexes alone.
        let numeric = plan.terms.filter(plan.isNumeric)
        guard !numeric.isEmpty, !plan.matchesNothing else { return plan }
        let schema = request.entity.searchSchema
        for term in numeric {
            let byNumber = schema.numberColumns.map { "\($0) = ?" }.joined(separator: " OR ")
            let numberOnly = try db.scalar(
                Bool.self,
                sql: "SELECT EXISTS (SELECT 1 FROM \(schema.table) WHERE (\(byNumber)) AND instr(name_folded, ?) = 0)",
                arguments: StatementArguments(schema.numberColumns.map { _ in term.number! }) + [term.folded]) ?? true
            if numberOnly { return plan }
        }
        return SearchPlan(
            query, entity: request.entity, estimates: estimates, denseThreshold: denseThreshold, matchesNumbers: false)
    }

    static func condition(_ plan: SearchPlan, scope: ProductType?, alias: String) -> SQLFragment {
        scoped(plan.condition(alias: alias), scope: scope, alias: alias)
    }

    static func scoped(_ condition: SQLFragment, scope: ProductType?, alias: String) -> SQLFragment {
        guard let scope else { return condition }
        return SQLFragment(joining: [condition, SQLFragment(sql: "\(alias).type = ?", arguments: [scope])], separator: " AND ")
    }

    static func count(_ plan: SearchPlan, scope: ProductType?, _ db: Database) throws -> Int {
        if let count = try indexedCount(plan, scope: scope, db) { return count }
        return try scannedCount(plan, scope: scope, db)
    }

    /// The total when an index gives it without reading a table row per match; nil otherwise.
    static func indexedCount(_ plan: SearchPlan, scope: ProductType?, _ db: Database) throws -> Int? {
        let schema = plan.entity.searchSchema
        if plan.matchesNothing { return 0 }
        if plan.filters.isEmpty, case .suffixes(let term) = plan.driver, term.isShort, let counts = schema.gramCountsTable {
            // One short product term: its gram count, plus the rows its number finds that its name does not.
            var total = try SearchQuery.gramCount(term.folded, scope: scope, table: counts, db)
            if plan.isNumeric(term), let number = term.number {
                let extra = scoped(
                    SQLFragment(sql: "(year_introduced = ? OR intro_price = ?) AND instr(name_folded, ?) = 0", arguments: [number, number, term.folded]),
                    scope: scope, alias: schema.table)
                total += try db.scalar(Int.self, sql: "SELECT count(*) FROM \(schema.table) WHERE \(extra.sql)", arguments: extra.arguments) ?? 0
            }
            return total
        }
        if plan.filters.isEmpty, scope == nil, case .suffixes(let term) = plan.driver, !plan.isNumeric(term),
           !plan.isDense, term.length <= SearchSchema.suffixLength, let suffixes = schema.suffixesTable {
            // One rare term: its distinct products in the suffixes index, with no table lookup.
            let range = SearchPlan.suffixRange(term)
            return try db.scalar(
                Int.self, sql: "SELECT count(DISTINCT id) FROM \(suffixes) WHERE \(range.sql)", arguments: range.arguments) ?? 0
        }
        if plan.filters.isEmpty, scope == nil, case .suffixes(let term) = plan.driver, !plan.isNumeric(term), plan.isDense,
           term.length >= Self.distinctIDsMinimumLength, term.length <= SearchSchema.suffixLength,
           let suffixes = schema.suffixesTable {
            // One common term of 5-8 scalars: its distinct products in its range of the suffixes index,
            // told apart here, which reads the range once (its phrase in FTS5 reads L - 2 doclists).
            // A bit per id up to the largest (ids are the table's rowids: dense in practice), else a set.
            let range = SearchPlan.suffixRange(term)
            let statement = try db.cachedStatement(sql: "SELECT id FROM \(suffixes) WHERE \(range.sql)")
            let largest = try db.scalar(Int64.self, sql: "SELECT max(id) FROM \(schema.table)") ?? 0
            if (0..<(1 << 27)).contains(largest) {
                var bits = [UInt64](repeating: 0, count: Int(largest >> 6) + 1)
                var count = 0
                try statement.forEachRow(arguments: range.arguments) { row in
                    let id = try row.decode(Int64.self, at: 0)
                    guard (0...largest).contains(id) else { return }
                    let (word, bit) = (Int(id >> 6), UInt64(1) << UInt64(id & 63))
                    if bits[word] & bit == 0 { bits[word] |= bit; count += 1 }
                }
                return count
            }
            var ids = Set<Int64>(minimumCapacity: plan.driverEstimate ?? 0)
            try statement.forEachRow(arguments: range.arguments) { row in ids.insert(try row.decode(Int64.self, at: 0)) }
            return ids.count
        }
        let plainLong = plan.terms.allSatisfy { !$0.isShort && !plan.isNumeric($0) }
        if scope == nil, plainLong, plan.isDense || (plan.filters.isEmpty && plan.driver.map { if case .fullText = $0 { true } else { false } } == true) {
            // Common terms of 3+ characters only: the trigram index answers alone, reading each term's
            // doclists rather than one table row per match.
            return try db.scalar(
                Int.self, sql: "SELECT count(*) FROM \(schema.fullTextTable) WHERE \(schema.fullTextTable) MATCH ?",
                arguments: [SearchPlan.fullTextPattern(plan.terms)]) ?? 0
        }
        return nil
    }

    /// The total counted on the table: the driver's rows, each checked.
    static func scannedCount(_ plan: SearchPlan, scope: ProductType?, _ db: Database) throws -> Int {
        let schema = plan.entity.searchSchema
        let condition = condition(plan, scope: scope, alias: schema.table)
        return try db.scalar(Int.self, sql: "SELECT count(*) FROM \(schema.table) WHERE \(condition.sql)", arguments: condition.arguments) ?? 0
    }
}
