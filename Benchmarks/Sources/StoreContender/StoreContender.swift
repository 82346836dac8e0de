import BenchmarkSupport
import Catalog
import Dispatch
import Entities
import FetchedResults
import Foundation
import SQLiteStore
import TextSearch

/// This project's store, through its public API (`CatalogStore`).
public struct StoreContender: Contender {
    /// How W3 reaches the search.
    public enum SearchPath: Sendable {
        /// `CatalogStore.searchPage`: the first page and the total count, nothing else.
        case searchPage
        /// A `FetchedResultsController` with the search text, sectioned by type, fetched, and its
        /// first 50 rows read: what `catalog search` and a search screen run.
        case controller
    }

    public let name: String
    /// W3's path; the other workloads are the same on either.
    public let searchPath: SearchPath
    /// What W3's searches look in: `Product.searchDescription`, or it less some accelerators
    /// (``productSearch(leavingOut:)``).
    public let search: SearchDescription

    public init(searchPath: SearchPath = .searchPage, search: SearchDescription = Product.searchDescription) {
        self.searchPath = searchPath
        self.search = search
        name = searchPath == .searchPage ? "store" : "store controller"
    }

    /// Each of the store's migrations (SQL files and Swift steps) as `NNNN_name checksum`, in order:
    /// what names the schema of a dataset.
    public static var schemaIdentity: [String] { CatalogMigrations.all.map { "\($0.identifier) \($0.checksum)" } }

    /// The product search less the accelerators `names` names, for a run that prices them: declared
    /// here as an embedder declares a search (the same scope, list index and scope values), so that
    /// its searches read none of them; the dataset keeps them (they are only left unread). Throws for
    /// a name the product search does not declare.
    public static func productSearch(leavingOut names: Set<String>) throws -> SearchDescription {
        let declared = Product.searchDescription.accelerators.map(\.name)
        if let unknown = names.first(where: { !declared.contains($0) }) {
            throw UnknownAccelerator(description: "no search accelerator is named \(unknown) (\(declared.joined(separator: ", ")))")
        }
        guard !names.isEmpty else { return Product.searchDescription }
        return Product.declaration.searchDescription(
            scope: \Product.type, listIndex: "products_by_type_name", scopeValues: ProductType.allCases.map(\.rawValue),
            accelerators: Product.searchDescription.accelerators.filter { !names.contains($0.name) })
    }

    /// A name ``productSearch(leavingOut:)`` does not know.
    public struct UnknownAccelerator: Error, CustomStringConvertible {
        public var description: String
    }

    /// Opens and closes one in-memory connection of the store, before any contender uses SQLite: the
    /// store's first connection in a process turns off SQLite's memory statistics (process-wide, and
    /// only before SQLite is initialized), so that every contender of the run, GRDB and raw C too,
    /// runs with the same SQLite setting whatever the order of the workloads.
    public static func initializeSQLite() throws {
        try DatabaseQueue.inMemory().close()
    }

    /// Creates an empty catalog at `path` (a new file) with the store's schema, every migration applied
    /// (its Swift steps too), and closes it: the schema every contender's W1 inserts into.
    @Sendable public static func createSchema(at path: String) throws {
        _ = try CatalogStore(path: path)
    }

    /// The store's folding of names and search terms (the one definition; the others must agree).
    public static func fold(_ text: String) -> String { TextFolding.fold(text) }

    /// Creates a catalog of `products` at `path` (a new file) as `catalog seed` and `import` fill one: the
    /// store's bulk `seed`, in order, so the products get the ids 1, 2, 3…; every derived structure
    /// (search index, section counts, change log) is built in bulk. Then the WAL is checkpointed into
    /// the file and truncated, and the store closed, so that the file alone is the dataset.
    public static func createCatalog(at path: String, with products: [SyntheticProduct]) throws {
        let store = try CatalogStore(path: path)
        try store.seed([SeedFile(products.map(Self.product))])
        try store.file!.writeWithoutTransaction { db in
            try db.execute(sql: "PRAGMA wal_checkpoint(TRUNCATE)")
        }
    }

    static func product(_ product: SyntheticProduct) -> Product {
        Product(type: ProductType(rawValue: product.type)!, name: product.name,
                yearIntroduced: product.yearIntroduced, introPrice: product.introPrice)
    }

    // MARK: - W1

    /// The same as W1b's load: the store's `seed` into a new catalog.
    public func insert(_ products: [SyntheticProduct], intoNewDatabaseAt path: String) throws -> Measured {
        try bulkLoad(products, intoDatabaseAt: path, .bulk)
    }

    // MARK: - W1b

    /// `seed`, which inserts past its first rows in bulk: rows first, then the search index, section
    /// counts and change log built for them in the same transaction. The one way it loads, whatever
    /// `load` says (the peers' ways).
    public func bulkLoad(_ products: [SyntheticProduct], intoDatabaseAt path: String, _ load: PlainFullTextSchema.Load) throws -> Measured {
        let store = try CatalogStore(path: path)
        let records = products.map(Self.product)
        let duration = try ContinuousClock().measure {
            try store.seed([SeedFile(records)])
        }
        var fingerprint = Fingerprint()
        fingerprint.combine(Int64(try store.count(Product.self)))
        return Measured(duration: duration, fingerprint: fingerprint)
    }

    // MARK: - W2

    public func fetchSorted(databaseAt path: String) throws -> Measured {
        let store = try CatalogStore(path: path)
        var sections: [EntitySection<Product>] = []
        let duration = try ContinuousClock().measure {
            sections = try store.sections(ListRequest())
        }
        return Measured(duration: duration, fingerprint: .ofIDs(sections.lazy.flatMap(\.records).map { $0.id! }))
    }

    // MARK: - W3

    /// Through ``searchPath``: `searchPage` (first page of 50 and the total), the public API, whatever
    /// plan it picks; or a controller with the search text (`fetchedResults(_:batchSize:)`, batch size
    /// 50: `performFetch()`, sections by type with their counts and index titles), its total the sum of
    /// its sections' counts and its first 50 rows read with `object(at:)`.
    public func search(databaseAt path: String, queries: [BenchmarkSupport.SearchQuery]) throws -> [Measured] {
        let store = try CatalogStore(path: path)
        let clock = ContinuousClock()
        return try queries.map { query in
            var count = 0
            var ids: [Int64] = []
            let duration = try clock.measure {
                switch searchPath {
                case .searchPage:
                    let fetch = try Self.searchRequest(query.term, search)
                    let page = try store.file!.read { db in try fetch.searchPage(limit: 50, db) }
                    count = page.totalCount
                    ids = page.records.map { $0.id! }
                case .controller:
                    var fetch = try Self.searchRequest(query.term, search)
                    fetch.batchSize = 50
                    let controller = FetchedResultsController(request: fetch, reader: store.file!)
                    try controller.performFetch()
                    let page = try Self.firstPage(controller, count: 50)
                    count = page.sections.reduce(0) { $0 + $1.count }
                    ids = page.rows.map(\.id)
                }
            }
            return Measured(duration: duration, fingerprint: .ofSearch(count: Int64(count), ids: ids))
        }
    }

    /// The fetch request of `catalog search TERM` (`ListRequest`'s, as `searchPage` and
    /// `fetchedResults` make it) searching through `search`.
    static func searchRequest(_ term: String, _ search: SearchDescription) throws -> FetchRequest<Product> {
        var fetch = try ListRequest<Product>(searchText: term).fetchRequest()
        fetch.filter = EntitySearch<Product>(TextSearch.SearchQuery(term), searching: search)
        return fetch
    }

    // MARK: - W4: the live controller

    /// A tracking controller (batch size 50) woken by a `ChangeMonitor`; another connection of this
    /// process commits the change (the monitor is told of its commits, as an app tells it of its own
    /// connection). Timed from the writer's `BEGIN` until `applyPendingChanges()` returns the change set.
    public func liveUpdate(databaseAt path: String, change: LiveChange) throws -> Measured {
        let writer = try CatalogStore(path: path)
        return try observeLiveUpdate(databaseAt: path, change: change, observingCommitsOf: writer) {
            let begin = MonotonicTime.nanoseconds()
            let insertedID = try writer.file!.write { db in
                try db.execute(sql: BenchSQL.insertProduct, arguments: [
                    change.insert.type, change.insert.name, Folding.fold(change.insert.name),
                    change.insert.yearIntroduced, change.insert.introPrice])
                let insertedID = db.lastInsertedRowID
                try db.execute(sql: BenchSQL.rename, arguments: [change.newName, Folding.fold(change.newName), change.renameID])
                try db.execute(sql: BenchSQL.delete, arguments: [change.deleteID])
                return insertedID
            }
            return (begin, insertedID)
        }
    }

    /// The same controller, with the change committed by `LiveWriterProcess` (its own connection in a
    /// process of its own): the monitor learns of it from the file system (inotify on Linux).
    public func liveUpdateFromAnotherProcess(databaseAt path: String, change: LiveChange) throws -> Measured {
        try observeLiveUpdate(databaseAt: path, change: change, observingCommitsOf: nil) {
            let report = try LiveWriterProcess.run(databaseAt: path, change: change)
            return (report.beginNanoseconds, report.insertedID)
        }
    }

    /// Starts tracking the list of `path`, runs `write` on another thread (it returns the time of its
    /// `BEGIN` and the inserted id), and on this thread applies the changes each time the monitor
    /// wakes, until the change set arrives.
    private func observeLiveUpdate(
        databaseAt path: String, change: LiveChange, observingCommitsOf writer: CatalogStore?,
        write: @escaping @Sendable () throws -> (begin: Int64, insertedID: Int64)
    ) throws -> Measured {
        let store = try CatalogStore(path: path)
        let controller = try store.fetchedResults(ListRequest<Product>(), batchSize: 50)
        try controller.startTracking()
        let monitor = try ChangeMonitor(path: path)
        defer { monitor.stop() }
        if let writer { try monitor.observeCommits(of: writer.file!) }

        // The monitor's wake-ups, as semaphore signals: the controller stays on this thread.
        let woken = DispatchSemaphore(value: 0)
        let position = controller.changeLogPosition
        let wakeUps = Task {
            for await _ in monitor.changes(after: position) { woken.signal() }
        }
        defer { wakeUps.cancel() }

        let written = WriteOutcome()
        DispatchQueue.global().async {
            written.result = Result { try write() }
            written.done.signal()
        }
        var changeSet = ChangeSet()
        while changeSet.isEmpty {
            guard woken.wait(timeout: .now() + 10) == .success else { throw LiveUpdateTimeout() }
            changeSet = try controller.applyPendingChanges()
        }
        let end = MonotonicTime.nanoseconds()
        written.done.wait()
        let (begin, insertedID) = try written.result!.get()

        var removed = Set<Int64>()
        var inserted = Set<Int64>()
        for step in changeSet.changes {
            switch step {
            case .insert(let id, _): inserted.insert(id)
            case .delete(let id, _): removed.insert(id)
            case .move(let id, _, _): removed.insert(id); inserted.insert(id)
            case .update: break
            }
        }
        guard change.isMatched(removedIDs: removed, insertedIDs: inserted, insertedID: insertedID) else {
            throw WrongChangeSet(contender: name)
        }
        return Measured(duration: .nanoseconds(end - begin), fingerprint: Fingerprint())
    }

    // MARK: - W5, W6: the fetched-results controller

    public func openFirstPage(databaseAt path: String) throws -> Measured {
        var result = FirstPage()
        let duration = try ContinuousClock().measure {
            let store = try CatalogStore(path: path)
            let controller = try store.fetchedResults(ListRequest<Product>(), batchSize: 50)
            result = try Self.firstPage(controller, count: 50)
        }
        return Measured(duration: duration, fingerprint: result.fingerprint)
    }

    public func controller(databaseAt path: String, batchSize: Int) throws -> Measured {
        var result = FirstPage()
        var controller: FetchedResultsController<Product>?
        let duration = try ContinuousClock().measure {
            let store = try CatalogStore(path: path)
            controller = try store.fetchedResults(ListRequest<Product>(), batchSize: batchSize)
            result = try Self.firstPage(controller!, count: batchSize)
        }
        withExtendedLifetime(controller) {}
        return Measured(duration: duration, fingerprint: result.fingerprint)
    }

    /// The sections with their counts, and the first `count` rows in list order (from the first section,
    /// and the next ones should it hold fewer), read with `object(at:)`.
    static func firstPage(_ controller: FetchedResultsController<Product>, count: Int) throws -> FirstPage {
        var page = FirstPage()
        page.sections = controller.sections.map { (name: $0.name, count: $0.numberOfObjects) }
        for (section, info) in controller.sections.enumerated() {
            for row in 0..<min(info.numberOfObjects, count - page.rows.count) {
                let product = try controller.object(at: ItemPath(section: section, row: row))
                page.rows.append(BenchProduct(id: product.id!, type: product.type.rawValue, name: product.name,
                                              yearIntroduced: product.yearIntroduced, introPrice: product.introPrice))
            }
            if page.rows.count == count { break }
        }
        return page
    }
}

/// The writer thread's outcome, read after `done` is signaled.
///
/// `@unchecked Sendable`: written once by the writer thread before it signals `done`, read by the
/// observing thread only after waiting on `done`; the semaphore orders the two.
private final class WriteOutcome: @unchecked Sendable {
    let done = DispatchSemaphore(value: 0)
    var result: Result<(begin: Int64, insertedID: Int64), any Error>?
}

/// The monitor did not wake the controller within 10 seconds.
struct LiveUpdateTimeout: Error, CustomStringConvertible {
    var description: String { "W4: no change set within 10 s" }
}
