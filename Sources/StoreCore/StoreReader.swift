/// What reads a store on either engine: SQLiteStore's `DatabaseQueue` and `DatabasePool` (their
/// ``Connection`` is SQLite's `Database`), PostgreSQLStore's `PostgreSQLCluster` (a replica's or the
/// primary's `PostgreSQLConnection`). Code written once for both engines takes `some StoreReader` and
/// runs its SQL on the ``SQLConnection`` a closure receives.
///
/// ```swift
/// func noteCount(_ store: some StoreReader) throws -> Int64 {
///     try store.read { db in
///         guard case .integer(let count) = try db.fetchRows(sql: "SELECT count(*) FROM note", values: []).first?.first
///         else { return 0 }
///         return count
///     }
/// }
/// ```
///
/// Every read runs in one transaction, so it sees one snapshot. The synchronous `read` blocks the
/// calling thread until the connection is free and the closure has run. The `async` `read` runs the
/// closure on the connection's own serial queue and suspends the calling task meanwhile; when that
/// task is cancelled, the running statement is stopped and the call throws `CancellationError`.
///
/// Never call a store again from inside one of its closures: the connection is not reentrant, and
/// the call waits for itself.
public protocol StoreReader: AnyObject, Sendable {
    /// The connection a closure receives: one engine's, so that code generic over the store is
    /// specialised for it (no per-row dynamic dispatch on SQLite's hot paths).
    associatedtype Connection: SQLConnection

    /// Runs `body` in a reading transaction, blocking the calling thread until it has run.
    ///
    /// - Throws: what `body` throws, or the engine's error.
    func read<T>(_ body: (Connection) throws -> T) throws -> T

    /// Runs `body` in a reading transaction on the connection's serial queue, suspending the caller.
    ///
    /// - Throws: `CancellationError` when the calling task is cancelled before or while `body` runs
    ///   (its running statement is stopped); what `body` throws; the engine's error.
    func read<T: Sendable>(_ body: @escaping @Sendable (Connection) throws -> T) async throws -> T
}

/// What reads and writes a store on either engine: one connection writes, one transaction at a time
/// (SQLite's writer connection; PostgreSQL's primary).
///
/// ```swift
/// try await store.write { db in
///     try db.execute(sql: "INSERT INTO note(text) VALUES (?)", values: [.text("hello")])
/// }
/// ```
public protocol StoreWriter: StoreReader {
    /// Runs `body` in a writing transaction: committed when it returns, rolled back when it throws.
    func write<T>(_ body: (Connection) throws -> T) throws -> T

    /// Runs `body` with the writing connection and no transaction: for work that manages its own
    /// transactions (like the ``Migrator``) or must run outside one.
    func writeWithoutTransaction<T>(_ body: (Connection) throws -> T) throws -> T

    /// Runs `body` in a writing transaction on the writer's serial queue, suspending the caller.
    ///
    /// - Throws: `CancellationError` when the calling task is cancelled before the transaction
    ///   commits (it is then rolled back, and leaves nothing); what `body` throws (after rolling
    ///   back); the engine's error.
    func write<T: Sendable>(_ body: @escaping @Sendable (Connection) throws -> T) async throws -> T

    /// Runs `body` with the writing connection and no transaction, on its serial queue.
    func writeWithoutTransaction<T: Sendable>(_ body: @escaping @Sendable (Connection) throws -> T) async throws -> T
}
