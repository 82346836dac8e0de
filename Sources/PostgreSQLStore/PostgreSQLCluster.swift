import StoreCore
import Synchronization

/// A PostgreSQL primary and its read replicas, used as one store: writes on the primary, reads on a
/// replica when one can answer correctly, each connection on a serial queue of its own.
///
/// ```swift
/// let cluster = try PostgreSQLCluster(PostgreSQLConfiguration(
///     primary: "postgresql://postgres@127.0.0.1:54320/postgres",
///     replicas: ["postgresql://postgres@127.0.0.1:54321/postgres"]))
/// try await cluster.write { db in
///     try db.execute(sql: "INSERT INTO note(text) VALUES ($1)", arguments: [.text("hello")])
/// }
/// let count = try await cluster.read { db in try db.scalar(sql: "SELECT count(*) FROM note") }
/// ```
///
/// A read runs on a replica once the replica has replayed this cluster's last write (read your
/// writes) and lags the primary by at most the configuration's `replicaLagLimit`, else on the
/// primary: a replica that is down, or lags past `replicaWaitLimit` or `replicaLagLimit`, is
/// skipped with a logged line, never read stale. Every read runs in one
/// REPEATABLE READ, READ ONLY transaction (one snapshot). When the task of an
/// `async` access is cancelled, its running statement is cancelled on the server (`PQcancel`), none
/// after it is sent, and the call throws `CancellationError`; a cancelled write is rolled back.
///
/// Never call the cluster again from inside one of its closures: the connection is not reentrant,
/// and the call waits for itself.
public final class PostgreSQLCluster: Sendable {
    /// What the cluster was made with.
    public let configuration: PostgreSQLConfiguration
    /// Writes, change tracking and notifications.
    let writer: SerializedConnection
    /// Reads that must be made on the primary (no replica can answer them correctly).
    let primaryReader: SerializedConnection
    /// The replicas, in the configuration's order.
    let replicas: [Replica]
    /// Where the primary's WAL stood after this cluster's last write: reads wait for a replica to
    /// replay this far (0: no write yet).
    let lastWritePosition = Mutex<UInt64>(0)
    /// Which replica the next read tries first.
    let nextReplica = Atomic<Int>(0)

    /// Connects to the primary, with the connection that reads there (a reader opens one connection
    /// in all, W5 on PostgreSQL); the writer's connection and the replicas' are made by the first
    /// access that uses them.
    ///
    /// - Throws: ``PostgreSQLError`` with ``PostgreSQLError/cannotConnect`` when the primary cannot be
    ///   reached.
    public init(_ configuration: PostgreSQLConfiguration) throws {
        ListeningState.stopsAtExit
        self.configuration = configuration
        writer = SerializedConnection(url: configuration.primary, label: "PostgreSQLCluster.writer")
        primaryReader = SerializedConnection(url: configuration.primary, label: "PostgreSQLCluster.primaryReader")
        replicas = configuration.replicas.enumerated().map { Replica(number: $0.offset + 1, url: $0.element) }
        try primaryReader.sync { _ in }
    }

    /// Closes every connection, once the accesses before this call have run.
    public func close() {
        writer.close()
        primaryReader.close()
        for replica in replicas { replica.connection.close() }
    }

    // MARK: - Reading

    /// Runs `body` in a read-only transaction, blocking the calling thread until it has run.
    ///
    /// - Throws: what `body` throws, or ``PostgreSQLError``.
    public func read<T>(_ body: (PostgreSQLConnection) throws -> T) throws -> T {
        try routeRead { connection, before in
            try connection.sync { db in
                try before(db)
                return try db.inTransaction(readOnly: true) { try body(db) }
            }
        }
    }

    /// Runs `body` in a read-only transaction on the primary, whatever replicas there are: for a read
    /// of every row, which a replica cancels once it holds back replay past the replica's
    /// `max_standby_streaming_delay`.
    public func readOnPrimary<T>(_ body: (PostgreSQLConnection) throws -> T) throws -> T {
        try primaryReader.sync { db in try db.inTransaction(readOnly: true) { try body(db) } }
    }

    /// Runs `body` in a read-only transaction on a connection's serial queue, suspending the caller.
    ///
    /// - Throws: `CancellationError` when the calling task is cancelled before or while `body` runs
    ///   (its statement is stopped on the server); what `body` throws; ``PostgreSQLError``.
    public func read<T: Sendable>(_ body: @escaping @Sendable (PostgreSQLConnection) throws -> T) async throws -> T {
        try await routeRead { connection, before in
            try await connection.async { db in
                try before(db)
                return try db.inTransaction(readOnly: true) { try body(db) }
            }
        }
    }

    // MARK: - Writing

    /// Runs `body` in a transaction on the primary: committed when it returns, rolled back when it
    /// throws.
    public func write<T>(_ body: (PostgreSQLConnection) throws -> T) throws -> T {
        try writer.sync { db in
            let value = try db.inTransaction { try body(db) }
            try recordWritePosition(db)
            return value
        }
    }

    /// Runs `body` with the primary's connection and no transaction: for work that manages its own
    /// transactions (like the migrator) or must run outside one (`CREATE INDEX CONCURRENTLY`).
    public func writeWithoutTransaction<T>(_ body: (PostgreSQLConnection) throws -> T) throws -> T {
        try writer.sync { db in
            defer { try? recordWritePosition(db) }
            return try body(db)
        }
    }

    /// Runs `body` in a transaction on the primary's serial queue, suspending the caller.
    ///
    /// - Throws: `CancellationError` when the calling task is cancelled before the transaction
    ///   commits (it is then rolled back, and leaves nothing); what `body` throws (after rolling
    ///   back); ``PostgreSQLError``.
    public func write<T: Sendable>(_ body: @escaping @Sendable (PostgreSQLConnection) throws -> T) async throws -> T {
        try await writer.async { db in
            // A cancel stops the COMMIT, which is then not sent; once committed, the write stands.
            let value = try db.inTransaction { try body(db) }
            try db.evenIfCancelled { try self.recordWritePosition(db) }
            return value
        }
    }

    /// Runs `body` with the primary's connection and no transaction, on its serial queue.
    public func writeWithoutTransaction<T: Sendable>(_ body: @escaping @Sendable (PostgreSQLConnection) throws -> T) async throws -> T {
        try await writer.async { db in
            defer { try? self.recordWritePosition(db) }
            return try body(db)
        }
    }
}

// The cluster as StoreCore's engine-neutral store: code written once for both engines (Entities'
// schema and rows, the fetched-results controller) runs on it as on an SQLite file.
extension PostgreSQLCluster: StoreWriter {}
