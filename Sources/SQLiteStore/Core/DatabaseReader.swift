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
public protocol DatabaseReader: AnyObject, Sendable {
    /// The path of the database file (`:memory:` for an in-memory database).
    var path: String { get }

    /// The configuration the connections are opened with.
    var configuration: Configuration { get }

    /// Runs `body` in a deferred transaction, blocking the calling thread until it has run.
    ///
    /// - Throws: what `body` throws, or ``DatabaseError``.
    func read<T>(_ body: (Database) throws -> T) throws -> T

    /// Runs `body` in a deferred transaction on the connection's serial queue, suspending the caller.
    ///
    /// ```swift
    /// let names = try await reader.read { db in
    ///     try db.fetchAll(sql: "SELECT name FROM product ORDER BY name") { try $0.decode(String.self, at: 0) }
    /// }
    /// ```
    ///
    /// - Throws: `CancellationError` when the calling task is cancelled before or while `body` runs
    ///   (its running statement is interrupted within ``Database/cancellationCheckInterval`` virtual
    ///   machine instructions); what `body` throws; ``DatabaseError``.
    func read<T: Sendable>(_ body: @escaping @Sendable (Database) throws -> T) async throws -> T

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
public protocol DatabaseWriter: DatabaseReader {
    /// Runs `body` in an immediate transaction: committed when it returns, rolled back when it throws.
    ///
    /// The write lock is taken before `body` runs, waiting up to ``Configuration/busyTimeout`` for
    /// another connection (another process) to release it.
    func write<T>(_ body: (Database) throws -> T) throws -> T

    /// Runs `body` with the writer connection and no transaction: for pragmas, VACUUM, or work that
    /// manages its own transactions (like `Migrator`).
    func writeWithoutTransaction<T>(_ body: (Database) throws -> T) throws -> T

    /// Runs `body` in an immediate transaction on the writer's serial queue, suspending the caller.
    ///
    /// - Throws: `CancellationError` when the calling task is cancelled before `body`'s transaction
    ///   commits; the transaction is then rolled back, and leaves nothing. What `body` throws (after
    ///   rolling back); ``DatabaseError``.
    func write<T: Sendable>(_ body: @escaping @Sendable (Database) throws -> T) async throws -> T

    /// Runs `body` with the writer connection and no transaction, on its serial queue.
    ///
    /// - Throws: `CancellationError` when the calling task is cancelled before `body` ends (a
    ///   transaction `body` left open is rolled back); what `body` throws; ``DatabaseError``.
    func writeWithoutTransaction<T: Sendable>(_ body: @escaping @Sendable (Database) throws -> T) async throws -> T
}
