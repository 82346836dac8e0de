
/// One database connection, safe to share between threads and tasks: it runs one closure at a time.
///
/// ```swift
/// let queue = try DatabaseQueue(path: "/tmp/catalog.sqlite")
/// try queue.write { db in
///     try db.execute(sql: "INSERT INTO t(name) VALUES (?)", arguments: ["a"])
/// }
/// let count = try queue.read { db in try db.scalar(Int.self, sql: "SELECT count(*) FROM t") }
/// let names = try await queue.read { db in try db.fetchAll(sql: "SELECT name FROM t") { try $0.decode(String.self, at: 0) } }
/// ```
///
/// Reads and writes take turns on the one connection. For a database file read by several tasks at
/// once, prefer a ``DatabasePool``; a queue is for in-memory databases and single-threaded programs.
/// Both are a ``DatabaseWriter``.
///
/// Every access runs on the connection's serial dispatch queue: the synchronous calls block the calling
/// thread meanwhile, the `async` ones suspend the calling task (see ``DatabaseReader``). Never call the
/// queue again from inside one of its closures (it is not reentrant).
///
/// Open each file once per process: several queues on one file work (SQLite locks the file), but
/// writers then wait for each other's locks, up to ``Configuration/busyTimeout``.
public final class DatabaseQueue: DatabaseWriter, SerializedWriter {
    private let connection: SerializedDatabase
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
        connection = SerializedDatabase(
            label: "SQLiteStore.DatabaseQueue", connection: try Database(path: path, configuration: configuration))
    }

    /// An in-memory database, private to this queue.
    public static func inMemory(configuration: Configuration = Configuration()) throws -> DatabaseQueue {
        try DatabaseQueue(path: ":memory:", configuration: configuration)
    }

    /// Runs `body` in a deferred transaction, so that it sees one consistent snapshot of the database.
    ///
    /// Writes inside `body` are possible but not advised; use `write`.
    public func read<T>(_ body: (Database) throws -> T) throws -> T {
        try connection.read(body)
    }

    /// Runs `body` in a deferred transaction on the connection's queue: see ``DatabaseReader``.
    public func read<T: Sendable>(_ body: @escaping @Sendable (Database) throws -> T) async throws -> T {
        try await connection.read(body)
    }

    // Writing: `write` and `writeWithoutTransaction` (``SerializedWriter``) run on the connection.
    var writerConnection: SerializedDatabase { connection }

    /// Closes the connection. Later calls fail with `SQLITE_MISUSE`.
    public func close() throws {
        try connection.close()
    }
}
