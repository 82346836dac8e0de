
/// A database file read by several connections at once beside one writer (WAL): reads run
/// concurrently with each other and with the write in progress, each in its own snapshot; writes are
/// serialised.
///
/// ```swift
/// let pool = try DatabasePool(path: "/tmp/catalog.sqlite")
/// try await pool.write { db in
///     try db.execute(sql: "INSERT INTO t(name) VALUES (?)", arguments: ["a"])
/// }
/// async let count = pool.read { db in try db.scalar(Int.self, sql: "SELECT count(*) FROM t") ?? 0 }
/// async let names = pool.read { db in try db.fetchAll(sql: "SELECT name FROM t") { try $0.decode(String.self, at: 0) } }
/// print(try await count, try await names)   // two readers, at the same time
/// ```
///
/// The writer connection opens with the pool (and switches the file to WAL unless the configuration
/// is read-only). Reader connections open read-only when first needed, up to
/// ``maximumReaderCount``; a read that finds them all busy waits for one (suspending its task, or
/// blocking its thread for the synchronous call). Each read is one deferred transaction, so it sees
/// the database as of its first statement, and a commit during the read does not change what it sees.
/// A read that follows a commit runs with a smaller page cache than one of an unchanged database: see
/// ``Configuration/adaptsReaderPageCache``. Readers do not check the cells of each page they read
/// (`cell_size_check`) unless ``Configuration/poolReadersCheckCellSizes`` is set; the writer does.
/// A reader maps the database file into memory once its reads took many pages from it, and
/// keeps the mapping from one read to the next (see ``Configuration/poolReadersMemoryMapBytes`` and
/// ``Configuration/poolReadersMemoryMapThresholdBytes``), so a read that follows a commit takes the
/// pages SQLite dropped from its cache from the mapping rather than with a system call each.
///
/// Reads never wait for the writer and the writer never waits for readers: in WAL mode the only lock
/// a reader takes is on its snapshot. Nor does a commit wait for a checkpoint: when the `-wal` file
/// reaches 1,000 pages (SQLite's `wal_autocheckpoint`), the PASSIVE checkpoint that SQLite would run
/// inside that commit runs on a connection of the pool's own, opened for it, beside the writer. And
/// while a write is queued or running, readers give up their core every few microseconds (at their
/// progress checks), so that on a machine with more busy connections than cores the writer's thread
/// does not wait behind them. A read inside a write (`pool.read` called from a `write`
/// closure) does not see the write's uncommitted changes; and it waits forever if every reader is in
/// use by a caller that waits for that write: read through the `db` you have instead.
///
/// Accesses run on each connection's serial dispatch queue, cancellably when `async`: see
/// ``DatabaseReader`` and ``DatabaseWriter``. Open each file once per process (GRDB's rule 1): a
/// second pool on the same file is a second writer, which waits for this one's write lock.
///
/// Related SQLite documentation: <https://www.sqlite.org/wal.html>
public final class DatabasePool: DatabaseWriter, SerializedWriter {
    /// The readers a pool opens at most by default: enough for the concurrent reads of a typical
    /// server or app (GRDB's default is 5), few enough that idle connections cost little (each has its
    /// own page cache, which grows as it reads, up to ``Configuration/pageCacheBytes``).
    public static let defaultMaximumReaderCount = 5

    /// The path of the database file.
    public let path: String
    /// The configuration of the writer; readers use it read-only.
    public let configuration: Configuration
    /// The most reader connections open at once.
    public var maximumReaderCount: Int { readers.maximumCount }

    private let writer: SerializedDatabase
    private let readers: ReaderPool
    /// Runs the writer's automatic checkpoints off its commits; nil for a read-only pool.
    let checkpointer: WALCheckpointer?
    /// The writer's accesses in progress, which the readers make way for.
    let pendingWrites: PendingWrites

    /// Opens the database file at `path` (creating it unless read-only) with its writer connection.
    ///
    /// - Parameters:
    ///   - path: the database file.
    ///   - configuration: the writer's configuration; readers open with it, read-only.
    ///   - maximumReaderCount: the most reader connections, at least 1.
    /// - Throws: ``DatabaseError`` when the file cannot be opened or is not a database, and with
    ///   `SQLITE_MISUSE` for an in-memory path (`:memory:` or empty), which other connections cannot
    ///   share: use a ``DatabaseQueue`` for that.
    public init(
        path: String, configuration: Configuration = Configuration(),
        maximumReaderCount: Int = DatabasePool.defaultMaximumReaderCount
    ) throws {
        guard path != ":memory:" && !path.isEmpty else {
            throw DatabaseError(resultCode: .SQLITE_MISUSE, message: "a pool needs a database file; use a DatabaseQueue in memory")
        }
        precondition(maximumReaderCount >= 1, "a pool needs at least one reader")
        var writerConfiguration = configuration
        if !configuration.isReadonly { writerConfiguration.journalMode = .wal }
        self.path = path
        self.configuration = writerConfiguration
        let pendingWrites = PendingWrites()
        self.pendingWrites = pendingWrites
        writer = SerializedDatabase(
            label: "SQLiteStore.DatabasePool.writer", pendingWrites: pendingWrites,
            connection: try Database(path: path, configuration: writerConfiguration))
        var readerConfiguration = writerConfiguration
        readerConfiguration.isReadonly = true
        readerConfiguration.isPoolReader = true
        readers = ReaderPool(maximumCount: maximumReaderCount) { [readerConfiguration] in
            SerializedDatabase(label: "SQLiteStore.DatabasePool.reader") {
                let reader = try Database(path: path, configuration: readerConfiguration)
                reader.progressContext.pendingWrites = pendingWrites
                reader.adaptivePageCache = AdaptivePageCache(configuration: readerConfiguration)
                reader.readerMemoryMapping = ReaderMemoryMapping(configuration: readerConfiguration)
                return reader
            }
        }
        if writerConfiguration.isReadonly {
            checkpointer = nil
        } else {
            let checkpointer = WALCheckpointer(path: path, configuration: writerConfiguration)
            try writer.sync { db in
                db.checkpointGate = checkpointer.gate
                try db.deferAutomaticCheckpoints(to: { checkpointer.request() })
            }
            self.checkpointer = checkpointer
        }
    }

    /// The number of reader connections made so far.
    public var readerCount: Int { readers.count }

    // MARK: - Reading

    /// Runs `body` on a reader connection in a deferred transaction, blocking the calling thread until
    /// a reader is free and `body` has run.
    public func read<T>(_ body: (Database) throws -> T) throws -> T {
        let reader = try readers.acquireBlocking()
        defer { readers.release(reader) }
        return try reader.read(body)
    }

    /// Runs `body` on a reader connection in a deferred transaction, suspending the calling task until
    /// a reader is free and `body` has run on it: see ``DatabaseReader``.
    public func read<T: Sendable>(_ body: @escaping @Sendable (Database) throws -> T) async throws -> T {
        let reader = try await readers.acquire()
        defer { readers.release(reader) }
        return try await reader.read(body)
    }

    // MARK: - Writing

    // `write` and `writeWithoutTransaction` (``SerializedWriter``) run on the writer connection.
    var writerConnection: SerializedDatabase { writer }

    /// Closes the readers, the checkpoint connection and the writer, each once its running access ends;
    /// a writer that changed rows first copies the `-wal` into the database file (``Database/close()``).
    ///
    /// - Throws: ``DatabaseError`` with `SQLITE_BUSY` when statements of a connection are still alive,
    ///   or the error of the writer's checkpoint (`SQLITE_FULL`: the commits stay in the `-wal`).
    public func close() throws {
        try readers.close()
        try checkpointer?.close()
        try writer.close()
    }
}
