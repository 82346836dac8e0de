import StoreCore

/// What reads a database: a ``DatabaseQueue`` (one connection) or a ``DatabasePool`` (a writer and
/// concurrent readers). Code above the store takes `any DatabaseReader` and works with either.
///
/// ```swift
/// func productCount(_ reader: any DatabaseReader) async throws -> Int {
///     try await reader.read { db in try db.scalar(Int.self, sql: "SELECT count(*) FROM product") ?? 0 }
/// }
/// ```
///
/// Every read runs in one deferred transaction, so it sees one consistent snapshot of the database.
/// The synchronous `read(_:)` blocks the calling thread until the connection is free and the
/// closure has run: for command-line tools and other synchronous code. The `async` `read`
/// runs the closure on the connection's own serial dispatch queue and suspends the calling task
/// meanwhile, so it never blocks a thread of Swift's cooperative pool; when that task is cancelled,
/// the running statement is interrupted and the call throws `CancellationError`.
///
/// Never call a reader again from inside one of its closures: the connection is not reentrant, and
/// the call waits for itself.
public protocol DatabaseReader: StoreReader where Connection == Database {
    /// The path of the database file (`:memory:` for an in-memory database).
    var path: String { get }

    /// The configuration the connections are opened with.
    var configuration: Configuration { get }

    // `read(_:)`, sync and `async`, are StoreCore's `StoreReader` requirements, with SQLite's
    // `Database`: each runs its closure in a deferred transaction; a cancelled task's statement is
    // interrupted within ``Database/cancellationCheckInterval`` virtual machine instructions.

    /// Closes the connections, a writer that changed rows copying the `-wal` into the database file
    /// first (``Database/close()``). Later accesses fail with `SQLITE_MISUSE`.
    func close() throws
}

/// What reads and writes a database: a ``DatabaseQueue`` or a ``DatabasePool``. Writes are serialised:
/// one connection writes, one transaction at a time.
///
/// ```swift
/// try await writer.write { db in
///     try db.execute(sql: "INSERT INTO product(name) VALUES (?)", arguments: ["iPhone"])
/// }
/// ```
///
/// `write(_:)` and `writeWithoutTransaction(_:)`, sync and `async`, are StoreCore's `StoreWriter`
/// requirements: a write runs in an IMMEDIATE transaction, taking the write lock before its closure
/// runs and waiting up to ``Configuration/busyTimeout`` for another connection to release it.
public protocol DatabaseWriter: DatabaseReader, StoreWriter {}
