import Foundation
import BenchSQLite
import BenchmarkSupport
import Dispatch

/// Hand-written prepared-statement loops over the same schema: the practical limit.
public struct RawSQLiteContender: Contender {
    public let name = "raw C"
    /// Creates the store's schema in a new file at a path (the store, migrating it).
    let createSchema: @Sendable (String) throws -> Void

    public init(createSchema: @escaping @Sendable (String) throws -> Void) {
        self.createSchema = createSchema
    }

    // MARK: - W1

    public func insert(_ products: [SyntheticProduct], intoNewDatabaseAt path: String) throws -> Measured {
        try createSchema(path)
        let db = try RawConnection(path: path)
        let insert = try db.prepare(BenchSQL.insertProduct)
        defer { sqlite3_finalize(insert) }
        let duration = try ContinuousClock().measure {
            try db.execute("BEGIN IMMEDIATE")
            try insertAll(products, with: insert, folded: true, db)
            try db.execute("COMMIT")
        }
        return Measured(duration: duration, fingerprint: try countFingerprint(db))
    }

    // MARK: - W1b

    public func bulkLoad(_ products: [SyntheticProduct], intoDatabaseAt path: String, _ load: PlainFullTextSchema.Load) throws -> Measured {
        let isNew = !FileManager.default.fileExists(atPath: path)
        let db = try RawConnection(path: path, create: isNew)
        if isNew { try db.execute(load == .bulk ? PlainFullTextSchema.bareTableSQL : PlainFullTextSchema.sql) }
        let insert = try db.prepare(PlainFullTextSchema.insertSQL)
        defer { sqlite3_finalize(insert) }
        let highest = try db.prepare(PlainFullTextSchema.highestIDSQL)
        defer { sqlite3_finalize(highest) }
        let duration = try ContinuousClock().measure {
            try db.execute("BEGIN IMMEDIATE")
            let indexed = try db.scalarInt(highest)
            try insertAll(products, with: insert, folded: false, db)
            if load == .bulk {
                try db.execute(isNew ? PlainFullTextSchema.bulkIndexesSQL : PlainFullTextSchema.indexRowsSQL(after: indexed))
            }
            try db.execute("COMMIT")
        }
        return Measured(duration: duration, fingerprint: try countFingerprint(db))
    }

    /// Inserts `products` with `insert`, whose parameters are type, name, then the folded name when
    /// `folded` (``BenchSQL/insertProduct``; not ``PlainFullTextSchema/insertSQL``), then year and
    /// price, in the caller's transaction.
    private func insertAll(_ products: [SyntheticProduct], with insert: OpaquePointer, folded: Bool, _ db: RawConnection) throws {
        let year: Int32 = folded ? 4 : 3
        for product in products {
            bindText(insert, 1, product.type)
            bindText(insert, 2, product.name)
            if folded { bindText(insert, 3, Folding.fold(product.name)) }
            sqlite3_bind_int64(insert, year, Int64(product.yearIntroduced))
            sqlite3_bind_double(insert, year + 1, product.introPrice)
            try db.run(insert)
        }
    }

    // MARK: - Datasets

    /// Reads every product of the database at `path` in id order and checks that they are `products`
    /// with the ids 1, 2, 3… and names folded by ``Folding/fold(_:)``: how a dataset the store made is
    /// checked before any workload uses it.
    ///
    /// - Throws: ``DatasetMismatch`` at the first difference.
    public func check(databaseAt path: String, holds products: [SyntheticProduct]) throws {
        let db = try RawConnection(path: path)
        let select = try db.prepare("SELECT \(BenchSQL.productColumns), name_folded FROM products ORDER BY id")
        defer { sqlite3_finalize(select) }
        try db.execute("BEGIN")
        defer { try? db.execute("COMMIT") }
        var index = 0
        while true {
            let code = sqlite3_step(select)
            guard code == SQLITE_ROW else { try db.check(code); break }
            let row = readProduct(select)
            guard index < products.count else { throw DatasetMismatch(id: row.id, expected: "no row", found: "\(row)") }
            let product = products[index]
            let expected = BenchProduct(id: Int64(index + 1), type: product.type, name: product.name,
                                        yearIntroduced: product.yearIntroduced, introPrice: product.introPrice)
            guard row == expected, columnText(select, 5) == Folding.fold(product.name) else {
                throw DatasetMismatch(id: expected.id, expected: "\(expected)", found: "\(row), folded \(columnText(select, 5))")
            }
            index += 1
        }
        guard index == products.count else {
            throw DatasetMismatch(id: Int64(index + 1), expected: "\(products[index])", found: "no row")
        }
    }

    private func countFingerprint(_ db: RawConnection) throws -> Fingerprint {
        let count = try db.prepare("SELECT count(*) FROM products")
        defer { sqlite3_finalize(count) }
        var fingerprint = Fingerprint()
        fingerprint.combine(try db.scalarInt(count))
        return fingerprint
    }

    // MARK: - W2

    public func fetchSorted(databaseAt path: String) throws -> Measured {
        let db = try RawConnection(path: path)
        let select = try db.prepare(BenchSQL.fetchSorted)
        defer { sqlite3_finalize(select) }
        var products: [BenchProduct] = []
        let duration = try ContinuousClock().measure {
            try db.execute("BEGIN")
            while true {
                let code = sqlite3_step(select)
                guard code == SQLITE_ROW else { try db.check(code); break }
                products.append(readProduct(select))
            }
            sqlite3_reset(select)
            try db.execute("COMMIT")
        }
        return Measured(duration: duration, fingerprint: .ofIDs(products.lazy.map(\.id)))
    }

    // MARK: - W3

    /// The store's search semantics by hand (``SearchSQL``): one statement per query shape, prepared once.
    public func search(databaseAt path: String, queries: [SearchQuery]) throws -> [Measured] {
        let db = try RawConnection(path: path)
        var statements: [String: OpaquePointer] = [:]
        defer { for statement in statements.values { sqlite3_finalize(statement) } }
        func statement(_ sql: String) throws -> OpaquePointer {
            if let statement = statements[sql] { return statement }
            let statement = try db.prepare(sql)
            statements[sql] = statement
            return statement
        }
        func bind(_ statement: OpaquePointer, _ arguments: [SearchSQL.Argument]) {
            for (offset, argument) in arguments.enumerated() {
                switch argument {
                case .text(let text): bindText(statement, Int32(offset + 1), text)
                case .real(let real): sqlite3_bind_double(statement, Int32(offset + 1), real)
                }
            }
        }
        let clock = ContinuousClock()
        return try queries.map { query in
            var page: [BenchProduct] = []
            var count: Int64 = 0
            let duration = try clock.measure {
                let search = SearchSQL(searching: query.term)
                let pageStatement = try statement(search.pageSQL)
                let countStatement = try statement(search.countSQL)
                try db.execute("BEGIN")
                bind(pageStatement, search.arguments)
                while true {
                    let code = sqlite3_step(pageStatement)
                    guard code == SQLITE_ROW else { try db.check(code); break }
                    page.append(readProduct(pageStatement))
                }
                sqlite3_reset(pageStatement)
                bind(countStatement, search.arguments)
                count = try db.scalarInt(countStatement)
                try db.execute("COMMIT")
            }
            return Measured(duration: duration, fingerprint: .ofSearch(count: count, ids: page.map(\.id)))
        }
    }

    // MARK: - W4

    /// A hand-written observer: a reader connection on its own thread which, told of a commit, refetches the
    /// list and diffs it with the previous one (`difference(from:)`).
    public func liveUpdate(databaseAt path: String, change: LiveChange) throws -> Measured {
        let observer = try RawObserver(path: path)
        let writer = try RawConnection(path: path)
        let committed = DispatchSemaphore(value: 0)
        let delivered = DispatchSemaphore(value: 0)
        let observerThread = Thread {
            committed.wait()
            observer.refetchAndDiff(change)
            delivered.signal()
        }
        observerThread.start()

        let start = ContinuousClock.now
        _ = try Self.commit(change, on: writer)
        committed.signal()  // what a commit hook would do
        delivered.wait()
        let (end, isCorrect) = try observer.outcome!.get()
        guard isCorrect else { throw WrongChangeSet(contender: name) }
        return Measured(duration: end - start, fingerprint: Fingerprint())
    }

    /// Commits W4's insert, rename and delete in one transaction; returns the inserted id.
    static func commit(_ change: LiveChange, on writer: RawConnection) throws -> Int64 {
        let insert = try writer.prepare(BenchSQL.insertProduct)
        let rename = try writer.prepare(BenchSQL.rename)
        let delete = try writer.prepare(BenchSQL.delete)
        defer { for statement in [insert, rename, delete] { sqlite3_finalize(statement) } }
        try writer.execute("BEGIN IMMEDIATE")
        do {
            bindText(insert, 1, change.insert.type)
            bindText(insert, 2, change.insert.name)
            bindText(insert, 3, Folding.fold(change.insert.name))
            sqlite3_bind_int64(insert, 4, Int64(change.insert.yearIntroduced))
            sqlite3_bind_double(insert, 5, change.insert.introPrice)
            try writer.run(insert)
            let insertedID = sqlite3_last_insert_rowid(writer.handle)
            bindText(rename, 1, change.newName)
            bindText(rename, 2, Folding.fold(change.newName))
            sqlite3_bind_int64(rename, 3, change.renameID)
            try writer.run(rename)
            sqlite3_bind_int64(delete, 1, change.deleteID)
            try writer.run(delete)
            try writer.execute("COMMIT")
            return insertedID
        } catch {
            try? writer.execute("ROLLBACK")
            throw error
        }
    }

    /// The W4 writer process's work (`--child W4-writer`): opens its own connection to `path`, commits
    /// `change`, and reports the times of `BEGIN` and of the commit.
    public static func writeInThisProcess(_ change: LiveChange, databaseAt path: String) throws -> LiveWriterProcess.Report {
        let writer = try RawConnection(path: path)
        let begin = MonotonicTime.nanoseconds()
        let insertedID = try commit(change, on: writer)
        return LiveWriterProcess.Report(
            beginNanoseconds: begin, commitNanoseconds: MonotonicTime.nanoseconds(), insertedID: insertedID)
    }

    /// Whether `path` holds what `change` committed by the writer process (`report`) leaves: the new row,
    /// the rename, and no deleted row. How the runner checks the writer process.
    public static func holdsChange(_ change: LiveChange, _ report: LiveWriterProcess.Report, databaseAt path: String) throws -> Bool {
        let db = try RawConnection(path: path)
        let check = try db.prepare("""
            SELECT (SELECT count(*) FROM products WHERE id = ?1 AND name = ?2)
                 + (SELECT count(*) FROM products WHERE id = ?3 AND name = ?4 AND name_folded = ?5)
                 + (SELECT count(*) = 0 FROM products WHERE id = ?6)
            """)
        defer { sqlite3_finalize(check) }
        sqlite3_bind_int64(check, 1, report.insertedID)
        bindText(check, 2, change.insert.name)
        sqlite3_bind_int64(check, 3, change.renameID)
        bindText(check, 4, change.newName)
        bindText(check, 5, Folding.fold(change.newName))
        sqlite3_bind_int64(check, 6, change.deleteID)
        return try db.scalarInt(check) == 3
    }

    // MARK: - W5

    public func openFirstPage(databaseAt path: String) throws -> Measured {
        var result = FirstPage()
        let duration = try ContinuousClock().measure {
            let db = try RawConnection(path: path)
            let sections = try db.prepare(BenchSQL.sectionCounts)
            let page = try db.prepare(BenchSQL.firstPage)
            defer { sqlite3_finalize(sections); sqlite3_finalize(page) }
            try db.execute("BEGIN")
            while sqlite3_step(sections) == SQLITE_ROW {
                result.sections.append((columnText(sections, 0), Int(sqlite3_column_int64(sections, 1))))
            }
            while sqlite3_step(page) == SQLITE_ROW { result.rows.append(readProduct(page)) }
            try db.execute("COMMIT")
        }
        return Measured(duration: duration, fingerprint: result.fingerprint)
    }

    // MARK: - W6

    /// What a batched controller keeps, written by hand: the sections with their counts, every id in
    /// order, and the rows of the first batch.
    public func controller(databaseAt path: String, batchSize: Int) throws -> Measured {
        var result = FirstPage()
        let duration = try ContinuousClock().measure {
            let db = try RawConnection(path: path)
            let sections = try db.prepare(BenchSQL.sectionCounts)
            let ids = try db.prepare(BenchSQL.sortedIDs)
            let batch = try db.prepare(BenchSQL.batch(batchSize))
            defer { for statement in [sections, ids, batch] { sqlite3_finalize(statement) } }
            try db.execute("BEGIN")
            while sqlite3_step(sections) == SQLITE_ROW {
                result.sections.append((columnText(sections, 0), Int(sqlite3_column_int64(sections, 1))))
            }
            var allIDs: [Int64] = []
            allIDs.reserveCapacity(result.sections.reduce(0) { $0 + $1.count })
            while sqlite3_step(ids) == SQLITE_ROW { allIDs.append(sqlite3_column_int64(ids, 0)) }
            let first = allIDs.prefix(batchSize)
            for (offset, id) in first.enumerated() { sqlite3_bind_int64(batch, Int32(offset + 1), id) }
            var byID: [Int64: BenchProduct] = [:]
            while sqlite3_step(batch) == SQLITE_ROW {
                let product = readProduct(batch)
                byID[product.id] = product
            }
            result.rows = first.compactMap { byID[$0] }
            try db.execute("COMMIT")
            withExtendedLifetime(allIDs) {}
        }
        return Measured(duration: duration, fingerprint: result.fingerprint)
    }
}

/// W4's hand-written observer: a reader connection and the list it last read. Told of a commit, it
/// refetches the list and diffs it with the previous one.
///
/// `@unchecked Sendable`: the runner's thread creates it and reads `outcome` only after the observer
/// thread signals that it is done; the two never touch it at the same time (the semaphores order them).
private final class RawObserver: @unchecked Sendable {
    let reader: RawConnection
    let list: OpaquePointer
    private(set) var before: [LiveRow]
    var outcome: Result<(ContinuousClock.Instant, Bool), any Error>?

    init(path: String) throws {
        reader = try RawConnection(path: path)
        list = try reader.prepare(BenchSQL.liveList)
        before = []
        before = try fetch()
    }

    deinit { sqlite3_finalize(list) }

    func fetch() throws -> [LiveRow] {
        var rows: [LiveRow] = []
        try reader.execute("BEGIN")
        while true {
            let code = sqlite3_step(list)
            guard code == SQLITE_ROW else { try reader.check(code); break }
            rows.append(LiveRow(id: sqlite3_column_int64(list, 0), type: columnText(list, 1), name: columnText(list, 2)))
        }
        sqlite3_reset(list)
        try reader.execute("COMMIT")
        return rows
    }

    func refetchAndDiff(_ change: LiveChange) {
        outcome = Result {
            let after = try fetch()
            let difference = after.difference(from: before).inferringMoves()
            let end = ContinuousClock.now
            return (end, difference.matches(change, insertedID: after.idOfName(change.insert.name)))
        }
    }
}

/// A dataset the store made does not hold the generated catalog.
public struct DatasetMismatch: Error, CustomStringConvertible {
    public var id: Int64
    public var expected: String
    public var found: String
    public var description: String { "dataset: product \(id) should be \(expected), is \(found)" }
}
