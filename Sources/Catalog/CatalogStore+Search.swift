import SQLiteStore
import TextSearch

extension CatalogStore {
    /// The products that match `query` within `request` (entity, scope, sort), in its sections and order:
    /// the same as ``sections(_:)-(ListRequest)`` with `request.searchText = query.text`.
    ///
    /// ```swift
    /// let sections: [RecordSection<Product>] = try store.search(SearchQuery("mac"), in: ListRequest(scope: .desktop))
    /// ```
    ///
    /// - Throws: ``CatalogError/invalidValue(field:value:reason:)``, `DatabaseError`.
    public func search(_ query: SearchQuery, in request: ListRequest) throws -> [RecordSection<Product>] {
        var request = request
        request.searchText = query.text
        return try sections(request)
    }

    /// The phones that match `query` within `request`, in its sections and order.
    ///
    /// - Throws: ``CatalogError/invalidValue(field:value:reason:)``, `DatabaseError`.
    public func search(_ query: SearchQuery, in request: ListRequest) throws -> [RecordSection<Phone>] {
        var request = request
        request.searchText = query.text
        return try sections(request)
    }

    /// A page of the records that match the request's search, in its order, and how many match in all,
    /// read from one snapshot of the database: `SearchDescription/page(_:scope:order:limit:offset:selection:thresholds:_:decode:)`
    /// of the entity's description.
    ///
    /// ```swift
    /// let page = try store.searchPage(Product.self, ListRequest(searchText: "ip"), limit: 50)
    /// ```
    ///
    /// - Throws: ``CatalogError/invalidValue(field:value:reason:)``, `DatabaseError`.
    public func searchPage<Record: CatalogRecord>(
        _ type: Record.Type, _ request: ListRequest, limit: Int = 50, offset: Int = 0
    ) throws -> SearchPage<Record> {
        try searchPage(type, request, limit: limit, offset: offset, thresholds: .standard)
    }

    /// ``searchPage(_:_:limit:offset:)`` with the executor's thresholds (tests force each strategy).
    @_spi(Testing)
    public func searchPage<Record: CatalogRecord>(
        _ type: Record.Type, _ request: ListRequest, limit: Int, offset: Int, thresholds: SearchThresholds
    ) throws -> SearchPage<Record> {
        precondition(request.entity == Record.entity && limit >= 0 && offset >= 0)
        try request.validate()
        let query = request.searchQuery
        let order = try request.searchOrder(Record.self)
        let page = try database.read { db in
            try Record.entity.searchDescription.page(
                query, scope: request.scope?.databaseValue, order: order, limit: limit, offset: offset,
                selection: Record.selection, thresholds: thresholds, db, decode: Record.init(row:))
        }
        return SearchPage(query: query, records: page.records, offset: offset, totalCount: page.totalCount)
    }

    /// The number of records that match the request's search.
    ///
    /// - Throws: ``CatalogError/invalidValue(field:value:reason:)``, `DatabaseError`.
    public func searchCount(_ request: ListRequest) throws -> Int {
        try request.validate()
        return try database.read { db in
            try request.entity.searchDescription.count(request.searchQuery, scope: request.scope?.databaseValue, db)
        }
    }

    /// Whether the request's entity has any record in its scope, search aside: tells "the store is
    /// empty" from "nothing matched this search".
    ///
    /// - Throws: `DatabaseError`.
    public func hasRecords(_ request: ListRequest) throws -> Bool {
        let table = request.entity.searchDescription.table
        return try database.read { db in
            if let scope = request.scope, request.entity == .products {
                return try db.scalar(Bool.self, sql: "SELECT EXISTS (SELECT 1 FROM \(table) WHERE type = ?)", arguments: [scope]) ?? false
            }
            return try db.scalar(Bool.self, sql: "SELECT EXISTS (SELECT 1 FROM \(table))") ?? false
        }
    }
}
