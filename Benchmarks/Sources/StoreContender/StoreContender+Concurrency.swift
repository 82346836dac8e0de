import BenchmarkSupport
import Catalog
import SQLiteStore

// MARK: - W8: concurrent reads beside a writer, through the async API

extension StoreContender {
    /// `CatalogStore` on a file (a `DatabasePool`) through its async API: searches with the async
    /// `searchPage` (first page of 50 and the total, as W3), fetches with `database.read` into
    /// `Product`s (the same rows as ``ConcurrentLoad/fetchSQL``), writes with `database.write`.
    public func concurrentReads(
        databaseAt path: String, read: ConcurrentLoad.Read, tasks: Int, queries: [BenchmarkSupport.SearchQuery],
        window: Duration
    ) throws -> ConcurrentLoad.Outcome {
        let store = try CatalogStore(path: path)
        let rows = try store.count(Product.self)
        let fetchSQL = "SELECT \(Product.selection) FROM products ORDER BY \(BenchSQL.listOrder) LIMIT \(ConcurrentLoad.fetchLimit)"
        return try ConcurrentLoad.run(tasks: tasks, window: window, read: { index in
            switch read {
            case .search:
                let query = queries[index % queries.count]
                _ = try await store.searchPage(ListRequest<Product>(searchText: query.term), limit: 50)
            case .fetch:
                let products = try await store.file!.read { db in try db.fetchAll(sql: fetchSQL) { try Product(row: $0) } }
                guard products.count == min(rows, ConcurrentLoad.fetchLimit) else { throw Pending("wrong count") }
            }
        }, write: { index in
            try await store.file!.write { db in
                try db.execute(sql: ConcurrentLoad.writeSQL, arguments: [Int64(index % rows + 1)])
            }
        })
    }

    /// ``ConcurrentLoad/longReadSQL`` read with `database.read` (async), cancelled after 20 ms.
    public func cancellationTime(databaseAt path: String) throws -> Duration {
        let store = try CatalogStore(path: path)
        return try ConcurrentLoad.cancellationTime(after: ConcurrentLoad.cancellationDelay) {
            _ = try await store.file!.read { db in try db.scalar(Int.self, sql: ConcurrentLoad.longReadSQL) }
        }
    }
}
