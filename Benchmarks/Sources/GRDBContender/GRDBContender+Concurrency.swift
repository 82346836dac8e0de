import BenchmarkSupport
import GRDB

// MARK: - W8: concurrent reads beside a writer, through GRDB's async API

extension GRDBContender {
    /// GRDB's `DatabasePool` with `try await pool.read` / `write`: W3's search SQL (`SearchSQL`) and
    /// ``ConcurrentLoad/fetchSQL`` into `GRDBProduct`, cached statements.
    public func concurrentReads(
        databaseAt path: String, read: ConcurrentLoad.Read, tasks: Int, queries: [SearchQuery], window: Duration
    ) throws -> ConcurrentLoad.Outcome {
        let pool = try openPool(path)
        defer { try? pool.close() }
        let rows = try pool.read { db in try Int64.fetchOne(db, sql: "SELECT count(*) FROM products") ?? 0 }
        let searches = queries.map { query in
            let search = SearchSQL(searching: query.term)
            let arguments = StatementArguments(search.arguments.map { argument -> any DatabaseValueConvertible in
                switch argument {
                case .text(let text): text
                case .real(let real): real
                }
            })
            return (page: search.pageSQL, count: search.countSQL, arguments: arguments)
        }
        return try ConcurrentLoad.run(tasks: tasks, window: window, read: { index in
            switch read {
            case .search:
                let search = searches[index % searches.count]
                _ = try await pool.read { db in
                    (try GRDBProduct.fetchAll(db.cachedStatement(sql: search.page), arguments: search.arguments).count,
                     try Int64.fetchOne(db.cachedStatement(sql: search.count), arguments: search.arguments) ?? 0)
                }
            case .fetch:
                let count = try await pool.read { db in
                    try GRDBProduct.fetchAll(db.cachedStatement(sql: ConcurrentLoad.fetchSQL)).count
                }
                guard count == min(Int(rows), ConcurrentLoad.fetchLimit) else { throw Pending("wrong count") }
            }
        }, write: { index in
            try await pool.write { db in
                try db.execute(sql: ConcurrentLoad.writeSQL, arguments: [Int64(index) % rows + 1])
            }
        })
    }

    /// ``ConcurrentLoad/longReadSQL`` read with `pool.read` (async; GRDB interrupts it on cancellation).
    public func cancellationTime(databaseAt path: String) throws -> Duration {
        let pool = try openPool(path)
        defer { try? pool.close() }
        return try ConcurrentLoad.cancellationTime(after: ConcurrentLoad.cancellationDelay) {
            _ = try await pool.read { db in try Int.fetchOne(db, sql: ConcurrentLoad.longReadSQL) }
        }
    }
}
