import Foundation

/// One database connection, safe to share between threads and tasks: it runs one closure at a time.
///
/// ```swift
/// let queue = try DatabaseQueue(path: "/tmp/catalog.sqlite")
/// try queue.write { db in
///     try db.execute(sql: "INSERT INTO t(name) VALUES (?)", arguments: ["a"])
/// }
/// let count = try queue.read { db in try db.scalar(Int.self, sql: "SELECT count(*) FROM t") }
/// ```
///
/// Every access to the connection goes through one lock, so a
/// `Database` is never reached from two threads at once. Calls block the calling thread while another
/// closure runs; keep closures short, and never call the queue again from inside one (the mutex is not
/// reentrant).
///
/// Why `@unchecked Sendable`: `Mutex<Database>` (Synchronization) would be checked, but region-based isolation cannot
/// express lending its non-`Sendable` value to a caller's non-`@Sendable` closure for the duration of
/// the lock (`'inout sending' parameter cannot be task-isolated`). Requiring `@Sendable` closures
/// instead would forbid closures that capture the caller's state, which is most of them. The
/// invariant the compiler cannot see: `connection` is read only while `lock` is held, and no
/// closure lets the `Database` escape (it is not `Sendable`, so it cannot be sent elsewhere).
///
/// Open each file once per process: several queues on one file work (SQLite locks the file), but
/// writers then wait for each other's locks, up to ``Configuration/busyTimeout``.
public final class DatabaseQueue: @unchecked Sendable {
    private let lock = NSLock()
    private let connection: Database
    /// The path of the database file.
    public let path: String
    /// The configuration of the connection.
    public let configuration: Configuration

    /// Opens the database at `path`.
    ///
    /// - Throws: ``DatabaseError`` when the file cannot be opened or is not a database.
    public init(path: String, configuration: Configuration = Configuration()) throws {
        self.path = path
        self.configuration = configuration
        connection = try Database(path: path, configuration: configuration)
    }

    /// An in-memory database, private to this queue.
    public static func inMemory(configuration: Configuration = Configuration()) throws -> DatabaseQueue {
        try DatabaseQueue(path: ":memory:", configuration: configuration)
    }

    deinit {
        connection.closeIgnoringErrors()
    }

    private func withConnection<T>(_ body: (Database) throws -> T) rethrows -> T {
        lock.lock()
        defer { lock.unlock() }
        return try body(connection)
    }

    /// Runs `body` in a deferred transaction, so that it sees one consistent snapshot of the database.
    ///
    /// Writes inside `body` are possible but not advised; use ``write(_:)``.
    public func read<T>(_ body: (Database) throws -> T) throws -> T {
        try withConnection { db in
            try db.inTransaction(.deferred) { try body(db) }
        }
    }

    /// Runs `body` in an immediate transaction: committed when it returns, rolled back when it throws.
    ///
    /// The write lock is taken before `body` runs, waiting up to ``Configuration/busyTimeout`` for
    /// another connection to release it.
    public func write<T>(_ body: (Database) throws -> T) throws -> T {
        try withConnection { db in
            try db.inTransaction(.immediate) { try body(db) }
        }
    }

    /// Runs `body` with the connection and no transaction: for pragmas, VACUUM, or work that manages its
    /// own transactions (like ``Migrator``).
    public func writeWithoutTransaction<T>(_ body: (Database) throws -> T) throws -> T {
        try withConnection { db in try body(db) }
    }

    /// Closes the connection. Later calls fail with `SQLITE_MISUSE`.
    public func close() throws {
        try withConnection { try $0.close() }
    }
}
