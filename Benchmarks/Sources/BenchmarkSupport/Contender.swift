/// One implementation measured by the benchmark: the raw SQLite C API, GRDB, or this store.
///
/// Each method times only the work its workload names (opening files and creating schemas are left
/// out unless the workload is about them) and returns that time with a fingerprint of what it read,
/// which the runner compares across contenders: a fast wrong answer is an error, not a result.
///
/// A method that the contender cannot run yet throws ``Pending``.
public protocol Contender: Sendable {
    /// The column heading, such as `raw C`.
    var name: String { get }

    /// W1: creates the schema in a new database at `path` (untimed), then inserts `products` in one
    /// transaction, FTS index maintained (timed).
    func insert(_ products: [SyntheticProduct], intoNewDatabaseAt path: String) throws -> Measured

    /// W1b: inserts `products` in one transaction into the database at `path` (timed), creating it
    /// first when there is none (untimed): the store with its own schema and its bulk `seed` (one way,
    /// whatever `load` says), the peers with ``PlainFullTextSchema``, what their users would build,
    /// loaded as `load` says. The fingerprint is the row count.
    func bulkLoad(_ products: [SyntheticProduct], intoDatabaseAt path: String, _ load: PlainFullTextSchema.Load) throws -> Measured

    /// W2: every product of the database at `path`, sorted by (type, name), read into structs.
    /// The fingerprint is of the ids in order.
    func fetchSorted(databaseAt path: String) throws -> Measured

    /// W3: for each query, the first page of 50 matches in list order plus the total count. One
    /// `Measured` per query; each fingerprint is of the count and the page's ids.
    func search(databaseAt path: String, queries: [SearchQuery]) throws -> [Measured]

    /// W4: observes the sectioned, sorted list of the database at `path`, has another connection commit
    /// `change`, and times until the observer holds the change set that `change` makes.
    func liveUpdate(databaseAt path: String, change: LiveChange) throws -> Measured

    /// W4 from another process: observes the list of the database at `path`, has
    /// ``LiveWriterProcess/run(databaseAt:change:)`` commit `change` in a process of its own, and times
    /// from the writer's `BEGIN` (its ``LiveWriterProcess/Report/beginNanoseconds``) until the observer
    /// holds the change set, read with ``MonotonicTime``. Measured for the store only.
    func liveUpdateFromAnotherProcess(databaseAt path: String, change: LiveChange) throws -> Measured

    /// W5: opens the database at `path` and reads what a list shows first: its sections with their
    /// counts and the first 50 rows (timed, open included).
    func openFirstPage(databaseAt path: String) throws -> Measured

    /// W6: sets up a controller over the whole sorted list with a batch size of 50 and reads its sections
    /// and the first batch. Runs in a process of its own, which reports its peak memory.
    func controller(databaseAt path: String, batchSize: Int) throws -> Measured

    /// W8: through its async API, `tasks` tasks repeat `read` (the search over `queries` in turn, or
    /// ``ConcurrentLoad/fetchSQL``) for `window` while another task commits ``ConcurrentLoad/writeSQL``
    /// every ``ConcurrentLoad/writeInterval`` (``ConcurrentLoad/run(tasks:window:read:write:)``).
    func concurrentReads(
        databaseAt path: String, read: ConcurrentLoad.Read, tasks: Int, queries: [SearchQuery], window: Duration
    ) throws -> ConcurrentLoad.Outcome

    /// W8: the time from cancelling a task that runs ``ConcurrentLoad/longReadSQL`` through the async
    /// API until that task has ended (``ConcurrentLoad/cancellationTime(after:of:)``).
    func cancellationTime(databaseAt path: String) throws -> Duration
}

extension Contender {
    public func liveUpdateFromAnotherProcess(databaseAt path: String, change: LiveChange) throws -> Measured {
        throw Pending("not measured")
    }

    public func concurrentReads(
        databaseAt path: String, read: ConcurrentLoad.Read, tasks: Int, queries: [SearchQuery], window: Duration
    ) throws -> ConcurrentLoad.Outcome {
        throw NotApplicable()
    }

    public func cancellationTime(databaseAt path: String) throws -> Duration {
        throw NotApplicable()
    }
}

/// A duration and a fingerprint of the result it produced.
public struct Measured: Sendable {
    public var duration: Duration
    public var fingerprint: Fingerprint

    public init(duration: Duration, fingerprint: Fingerprint) {
        self.duration = duration
        self.fingerprint = fingerprint
    }
}

/// A workload that does not apply to this contender (raw C has no async API for W8): its cell is "—".
public struct NotApplicable: Error, Sendable {
    public init() {}
}

/// A workload this contender cannot run yet, and what it waits for.
public struct Pending: Error, Sendable, CustomStringConvertible {
    public var reason: String
    public init(_ reason: String) { self.reason = reason }
    public var description: String { "pending \(reason)" }
}

/// The three writes of W4, committed together by another connection.
public struct LiveChange: Sendable, Codable {
    /// A new product (its name unique in the database).
    public var insert: SyntheticProduct
    /// The product renamed, and its new name.
    public var renameID: Int64
    public var newName: String
    /// The product deleted.
    public var deleteID: Int64

    public init(insert: SyntheticProduct, renameID: Int64, newName: String, deleteID: Int64) {
        self.insert = insert
        self.renameID = renameID
        self.newName = newName
        self.deleteID = deleteID
    }

    /// The change of a W4 run (from 1): each run changes other rows, as ids run from 1 to the dataset's
    /// size, and inserts a name of its own.
    public static func forRun(_ run: Int) -> LiveChange {
        LiveChange(
            insert: SyntheticProduct(type: CatalogGenerator.types[run % 3], name: "Live Café \(run) 新製品",
                                     yearIntroduced: 2025, introPrice: 99),
            renameID: Int64(10 + 2 * run), newName: "Renamed Über \(run)", deleteID: Int64(11 + 2 * run))
    }

    /// Whether a change set, reduced to the ids it removes and inserts, is the one this change makes:
    /// the new row inserted, the deleted one removed, the renamed one removed and inserted (a move) or
    /// updated in place. `insertedID` is the id the insert got.
    public func isMatched(removedIDs: Set<Int64>, insertedIDs: Set<Int64>, insertedID: Int64) -> Bool {
        let renamedMoved = removedIDs.contains(renameID) && insertedIDs.contains(renameID)
        let expectedRemoved: Set<Int64> = renamedMoved ? [deleteID, renameID] : [deleteID]
        let expectedInserted: Set<Int64> = renamedMoved ? [insertedID, renameID] : [insertedID]
        return removedIDs == expectedRemoved && insertedIDs == expectedInserted
    }
}

/// The SQL raw C and GRDB run, written once: the schema's list order and the W1, W2, W4-W6 queries.
public enum BenchSQL {
    /// Product columns in `BenchProduct` order.
    public static let productColumns = "id, type, name, year_introduced, intro_price"
    /// The list order: sections by type, rows by folded name, ties by id (the store's `ListRequest()`).
    public static let listOrder = "type, name_folded, id"

    public static let insertProduct =
        "INSERT INTO products(type, name, name_folded, year_introduced, intro_price) VALUES (?, ?, ?, ?, ?)"
    public static let fetchSorted = "SELECT \(productColumns) FROM products ORDER BY \(listOrder)"

    // W3: see `SearchSQL`, which builds a statement per search.

    /// W5 and W6: the sections and their counts.
    public static let sectionCounts = "SELECT type, count(*) FROM products GROUP BY type ORDER BY type"
    public static let firstPage = "SELECT \(productColumns) FROM products ORDER BY \(listOrder) LIMIT 50"
    /// W6: the ids of the whole list, in order, which a batched controller keeps (as Core Data does).
    public static let sortedIDs = "SELECT id FROM products ORDER BY \(listOrder)"
    /// W6: one batch of rows, by id.
    public static func batch(_ count: Int) -> String {
        "SELECT \(productColumns) FROM products WHERE id IN (\(Array(repeating: "?", count: count).joined(separator: ", ")))"
    }

    /// W4: the list a live controller observes. Only what places a row and what it shows.
    public static let liveList = "SELECT id, type, name FROM products ORDER BY \(listOrder)"
    public static let rename = "UPDATE products SET name = ?, name_folded = ? WHERE id = ?"
    public static let delete = "DELETE FROM products WHERE id = ?"
}
