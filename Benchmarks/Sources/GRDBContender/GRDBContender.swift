import BenchmarkSupport
import Dispatch
import Foundation
import GRDB

/// GRDB 7.10.0, the best existing Swift peer: `DatabasePool`, records with `init(row:)` (or `Decodable`),
/// `ValueObservation` and `difference(from:)`.
public struct GRDBContender: Contender {
    /// How W2 decodes rows.
    public enum Decoding: Sendable {
        /// `FetchableRecord.init(row:)`, hand-written.
        case rowInit
        /// `FetchableRecord` synthesized from `Decodable`.
        case codable
    }

    public let name: String
    let decoding: Decoding
    /// Creates the store's schema in a new file at a path (the store, migrating it).
    let createSchema: @Sendable (String) throws -> Void

    public init(createSchema: @escaping @Sendable (String) throws -> Void, decoding: Decoding = .rowInit) {
        self.createSchema = createSchema
        self.decoding = decoding
        name = decoding == .rowInit ? "GRDB" : "GRDB Codable"
    }

    /// A pool set up like the store's connections: WAL (always, for a pool), `synchronous = NORMAL`,
    /// foreign keys (GRDB's default), and a 5-second busy timeout (GRDB's default fails at once
    /// when another connection holds the lock, as a checkpoint may during W8).
    func openPool(_ path: String) throws -> DatabasePool {
        var configuration = Configuration()
        configuration.busyMode = .timeout(5)
        configuration.prepareDatabase { db in try db.execute(sql: "PRAGMA synchronous = NORMAL") }
        return try DatabasePool(path: path, configuration: configuration)
    }

    // MARK: - W1

    public func insert(_ products: [SyntheticProduct], intoNewDatabaseAt path: String) throws -> Measured {
        try createSchema(path)
        let pool = try openPool(path)
        let duration = try ContinuousClock().measure {
            try pool.write { db in
                for product in products { try GRDBNewProduct(product: product).insert(db) }
            }
        }
        var fingerprint = Fingerprint()
        fingerprint.combine(try pool.read { db in try Int64.fetchOne(db, sql: "SELECT count(*) FROM products") ?? 0 })
        try pool.close()
        return Measured(duration: duration, fingerprint: fingerprint)
    }

    // MARK: - W1b

    /// GRDB's fastest insert loop: one cached statement, arguments bound per row; in bulk, the
    /// indexes built after the rows, as raw C builds them.
    public func bulkLoad(_ products: [SyntheticProduct], intoDatabaseAt path: String, _ load: PlainFullTextSchema.Load) throws -> Measured {
        let isNew = !FileManager.default.fileExists(atPath: path)
        let pool = try openPool(path)
        if isNew {
            try pool.write { db in try db.execute(sql: load == .bulk ? PlainFullTextSchema.bareTableSQL : PlainFullTextSchema.sql) }
        }
        let duration = try ContinuousClock().measure {
            try pool.write { db in
                let indexed = try Int64.fetchOne(db, sql: PlainFullTextSchema.highestIDSQL) ?? 0
                let insert = try db.cachedStatement(sql: PlainFullTextSchema.insertSQL)
                for product in products {
                    try insert.execute(arguments: [product.type, product.name, product.yearIntroduced, product.introPrice])
                }
                if load == .bulk {
                    try db.execute(sql: isNew ? PlainFullTextSchema.bulkIndexesSQL : PlainFullTextSchema.indexRowsSQL(after: indexed))
                }
            }
        }
        var fingerprint = Fingerprint()
        fingerprint.combine(try pool.read { db in try Int64.fetchOne(db, sql: "SELECT count(*) FROM products") ?? 0 })
        try pool.close()
        return Measured(duration: duration, fingerprint: fingerprint)
    }

    // MARK: - W2

    public func fetchSorted(databaseAt path: String) throws -> Measured {
        let pool = try openPool(path)
        defer { try? pool.close() }
        let clock = ContinuousClock()
        switch decoding {
        case .rowInit:
            var products: [GRDBProduct] = []
            let duration = try clock.measure {
                products = try pool.read { db in try GRDBProduct.fetchAll(db, sql: BenchSQL.fetchSorted) }
            }
            return Measured(duration: duration, fingerprint: .ofIDs(products.lazy.map(\.id)))
        case .codable:
            var products: [GRDBCodableProduct] = []
            let duration = try clock.measure {
                products = try pool.read { db in try GRDBCodableProduct.fetchAll(db, sql: BenchSQL.fetchSorted) }
            }
            return Measured(duration: duration, fingerprint: .ofIDs(products.lazy.map(\.id)))
        }
    }

    // MARK: - W3

    /// The store's search semantics by hand (``SearchSQL``), with GRDB's cached statements.
    public func search(databaseAt path: String, queries: [SearchQuery]) throws -> [Measured] {
        let pool = try openPool(path)
        defer { try? pool.close() }
        let clock = ContinuousClock()
        return try queries.map { query in
            var page: [GRDBProduct] = []
            var count: Int64 = 0
            let duration = try clock.measure {
                let search = SearchSQL(searching: query.term)
                let arguments = StatementArguments(search.arguments.map { argument -> any DatabaseValueConvertible in
                    switch argument {
                    case .text(let text): text
                    case .real(let real): real
                    }
                })
                try pool.read { db in
                    page = try GRDBProduct.fetchAll(db.cachedStatement(sql: search.pageSQL), arguments: arguments)
                    count = try Int64.fetchOne(db.cachedStatement(sql: search.countSQL), arguments: arguments) ?? 0
                }
            }
            return Measured(duration: duration, fingerprint: .ofSearch(count: count, ids: page.map(\.id)))
        }
    }

    // MARK: - W4

    public func liveUpdate(databaseAt path: String, change: LiveChange) throws -> Measured {
        let pool = try openPool(path)
        defer { try? pool.close() }
        let observation = ValueObservation.tracking { db in
            var rows: [LiveRow] = []
            let cursor = try Row.fetchCursor(db, sql: BenchSQL.liveList)
            while let row = try cursor.next() { rows.append(LiveRow(id: row[0], type: row[1], name: row[2])) }
            return rows
        }
        let state = LiveState()
        let cancellable = observation.start(
            in: pool, scheduling: .async(onQueue: DispatchQueue(label: "grdb-observer")),
            onError: { state.finish(.failure($0)) },
            onChange: { rows in state.receive(rows, change: change) })
        defer { cancellable.cancel() }
        state.initialValue.wait()

        let start = ContinuousClock.now
        try pool.write { db in
            try GRDBNewProduct(product: change.insert).insert(db)
            try db.execute(sql: BenchSQL.rename, arguments: [change.newName, Folding.fold(change.newName), change.renameID])
            try db.execute(sql: BenchSQL.delete, arguments: [change.deleteID])
        }
        state.delivered.wait()
        let (end, isCorrect) = try state.outcome!.get()
        guard isCorrect else { throw WrongChangeSet(contender: name) }
        return Measured(duration: end - start, fingerprint: Fingerprint())
    }

    // MARK: - W5

    public func openFirstPage(databaseAt path: String) throws -> Measured {
        var result = FirstPage()
        let duration = try ContinuousClock().measure {
            let pool = try openPool(path)
            try pool.read { db in
                let sections = try Row.fetchAll(db, sql: BenchSQL.sectionCounts)
                result.sections = sections.map { (name: $0[0], count: $0[1]) }
                result.rows = try GRDBProduct.fetchAll(db, sql: BenchSQL.firstPage).map(\.bench)
            }
            try pool.close()
        }
        return Measured(duration: duration, fingerprint: result.fingerprint)
    }

    // MARK: - W6

    /// GRDB has no batched controller: the sections, every id in order, and the first batch of rows.
    public func controller(databaseAt path: String, batchSize: Int) throws -> Measured {
        var result = FirstPage()
        let pool = try openPool(path)
        let duration = try ContinuousClock().measure {
            try pool.read { db in
                result.sections = try Row.fetchAll(db, sql: BenchSQL.sectionCounts).map { (name: $0[0], count: $0[1]) }
                let ids = try Int64.fetchAll(db, sql: BenchSQL.sortedIDs)
                let first = Array(ids.prefix(batchSize))
                let rows = try GRDBProduct.fetchAll(db, sql: BenchSQL.batch(first.count), arguments: StatementArguments(first))
                let byID = Dictionary(uniqueKeysWithValues: rows.map { ($0.id, $0.bench) })
                result.rows = first.compactMap { byID[$0] }
                withExtendedLifetime(ids) {}
            }
        }
        try pool.close()
        return Measured(duration: duration, fingerprint: result.fingerprint)
    }
}

/// The W4 observer's state: the initial list, then the change set of the commit.
private final class LiveState: @unchecked Sendable {
    // Written on the observation's serial queue, read after `delivered` is signaled.
    let initialValue = DispatchSemaphore(value: 0)
    let delivered = DispatchSemaphore(value: 0)
    private var previous: [LiveRow]?
    var outcome: Result<(ContinuousClock.Instant, Bool), any Error>?

    func receive(_ rows: [LiveRow], change: LiveChange) {
        guard let previous else {
            previous = rows
            initialValue.signal()
            return
        }
        let difference = rows.difference(from: previous).inferringMoves()
        let end = ContinuousClock.now
        // A pool's observation may notify the initial value twice (it refetches when a write may have
        // happened while it started): an empty change set is not the commit's yet.
        if difference.isEmpty { return }
        self.previous = rows
        finish(.success((end, difference.matches(change, insertedID: rows.idOfName(change.insert.name)))))
    }

    func finish(_ result: Result<(ContinuousClock.Instant, Bool), any Error>) {
        guard outcome == nil else { return }
        outcome = result
        if previous == nil { initialValue.signal() }  // failed before the first value: do not hang
        delivered.signal()
    }
}
