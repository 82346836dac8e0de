import CSQLite
import CSQLiteMapping
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A raw `sqlite3 *` connection handle.
public typealias SQLiteConnection = OpaquePointer

/// A connection to an SQLite database.
///
/// A `Database` is not thread-safe: use it through a ``DatabaseQueue`` or a ``DatabasePool``, which
/// serialise access to each connection and hand it to closures (`writer.write { db in … }`). Opening sets up the connection from its
/// ``Configuration``: extended result codes, busy timeout, foreign keys, `cell_size_check` (on a pool's
/// reader only when configured), WAL and `synchronous`, and no double-quoted string literals. The first connection a process opens turns off
/// SQLite's memory statistics, which would make every allocation of every connection take one shared
/// mutex (see the "Concurrency" article).
///
/// Related SQLite documentation: <https://www.sqlite.org/c3ref/sqlite3.html>
public final class Database {
    /// The path the connection was opened with (`:memory:` for an in-memory database).
    public let path: String
    /// The configuration the connection was opened with.
    public let configuration: Configuration
    /// The underlying handle; nil once the connection is closed.
    public private(set) var sqliteConnection: SQLiteConnection?

    private var statementCache: [String: Statement] = [:]
    private var traceBox: Unmanaged<TraceBox>?
    /// The handlers of ``addCommitHandler(_:)``, released when the connection is deallocated.
    var commitHandlers: Unmanaged<CommitHandlers>?
    var savepointDepth = 0
    /// What the progress handler checks for cancellation (``cancellable(by:_:)``).
    let progressContext = ProgressHandlerContext()
    /// Held by ``checkpoint(_:)`` when set: the lock a pool's connections share so that their
    /// checkpoints take turns (see `WALCheckpointer`).
    var checkpointGate: PThreadLock?
    /// A pool reader's page cache policy, which sizes the cache at the start of each read; nil on other
    /// connections, and when the configuration has nothing to adapt.
    var adaptivePageCache: AdaptivePageCache?
    /// A pool reader's memory mapping, turned on after a read that took many pages from the file; nil
    /// on other connections, and on a reader that maps nothing or maps from its open.
    var readerMemoryMapping: ReaderMemoryMapping?

    /// Opens (and, unless read-only, creates) the database at `path` and configures the connection.
    ///
    /// `path` is a file path, taken literally: `:memory:` and the empty string are SQLite's in-memory and
    /// temporary databases, but a path such as `file:notes.sqlite?mode=memory` names a file, although
    /// Debian's SQLite reads URIs in file names (`SQLITE_USE_URI`).
    ///
    /// A writable connection of the file's owner keeps the `-wal` and `-shm` files beside it after the
    /// last connection closes (the `-wal` emptied), so that another user who may read but not write the
    /// file can read it without leaving files of their own.
    ///
    /// - Throws: ``DatabaseError``: `SQLITE_CANTOPEN` for a missing directory or unreadable file, a
    ///   FIFO, device or folder, or another user's WAL database that this user cannot write and whose
    ///   `-wal` or `-shm` file is missing (opening it would create them as this user's, and lock the
    ///   owner out of writing); `SQLITE_NOTADB` for a file that is not a database (its message names the file).
    public init(path: String, configuration: Configuration = Configuration()) throws {
        self.path = path
        self.configuration = configuration
        if !isInMemory, let kind = Self.specialFileKind(at: path) {
            // SQLite would block on a FIFO, and treat a device as an empty database with a journal beside it.
            throw DatabaseError(resultCode: .SQLITE_CANTOPEN, message: "\(path) is \(kind), not a database file")
        }
        if !isInMemory, let problem = Self.filesAnotherUserWouldLeave(at: path) {
            throw DatabaseError(resultCode: .SQLITE_CANTOPEN, message: problem)
        }
        let createsFile = !isInMemory && !configuration.isReadonly && access(path, F_OK) != 0
        _ = Self.turnedMemoryStatisticsOff
        var handle: SQLiteConnection?
        var flags = SQLITE_OPEN_NOMUTEX | SQLITE_OPEN_EXRESCODE
        flags |= configuration.isReadonly ? SQLITE_OPEN_READONLY : (SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE)
        // A mapping reader opens through the VFS that keeps its mapping (``Configuration/poolReadersMemoryMapBytes``).
        let vfs = !isInMemory && configuration.memoryMapBytes != nil ? csqlite_kept_mapping_vfs_name() : nil
        let code = sqlite3_open_v2(Self.literalFileName(path), &handle, flags, vfs)
        guard code == SQLITE_OK, let handle else {
            let message = handle.map { String(cString: sqlite3_errmsg($0)) }
            // > Whether or not an error occurs when it is opened, resources associated with the database
            // > connection handle should be released by passing it to sqlite3_close() when it is no longer
            // > required. (https://www.sqlite.org/c3ref/open.html)
            sqlite3_close(handle)
            throw DatabaseError(resultCode: ResultCode(rawValue: code), message: message.map { "\($0): \(path)" })
        }
        sqliteConnection = handle
        do {
            try setUp()
        } catch {
            closeIgnoringErrors()
            if createsFile { Self.removeEmptyDatabase(at: path) }
            throw error
        }
    }

    /// Whether this library turned SQLite's memory statistics off in this process: it does, once, before
    /// the first connection opens, unless SQLite was initialized before (by another library, or by a
    /// call to `sqlite3_initialize()`: a program that wants the statistics calls it first), which keeps
    /// them as they were. `sqlite3_config` must not run while another thread uses SQLite, so a program
    /// that also uses SQLite through another library opens its first connection with this one first.
    ///
    /// With them on (Debian's SQLite, built without `SQLITE_DEFAULT_MEMSTATUS=0` and without lookaside
    /// memory), every allocation and release of every connection in the process takes one mutex shared
    /// by all of them, to count the bytes in use: the readers of a pool take turns at it, a serial part
    /// of every concurrent read (W8's search with 2 tasks against 1). Off, `sqlite3_memory_used()`,
    /// `sqlite3_memory_highwater()`, `sqlite3_status64(SQLITE_STATUS_MEMORY_USED, …)` and the soft and
    /// hard heap limits no longer work in this process, as SQLite's documentation says.
    ///
    /// Related SQLite documentation: <https://www.sqlite.org/c3ref/c_config_covering_index_scan.html#sqliteconfigmemstatus>
    static let turnedMemoryStatisticsOff: Bool = csqlite_config_memory_statistics(0) == SQLITE_OK

    /// Removes the database file at `path` and the files beside it, if the database is still empty
    /// (0 bytes): what opening a new file leaves when setting it up fails (on a full disk, the switch to
    /// WAL cannot write the first page), so that a failed create leaves no file that looks like a
    /// database. A file another connection has begun to use has its first page already.
    private static func removeEmptyDatabase(at path: String) {
        var info = stat()
        guard stat(path, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG, info.st_size == 0 else { return }
        for suffix in ["-wal", "-shm", "-journal", ""] { unlink(path + suffix) }
    }

    deinit {
        closeIgnoringErrors()
        traceBox?.release()
        commitHandlers?.release()
    }

    private func setUp() throws {
        let handle = try connection
        try check(sqlite3_extended_result_codes(handle, 1))
        try check(sqlite3_busy_timeout(handle, Int32(clamping: configuration.busyTimeout.milliseconds)))
        // Double-quoted strings are identifiers only, as the SQL standard says.
        try check(csqlite_db_config_bool(handle, SQLITE_DBCONFIG_DQS_DML, 0))
        try check(csqlite_db_config_bool(handle, SQLITE_DBCONFIG_DQS_DDL, 0))
        installCancellationCheck(handle)
        if configuration.trace != nil || configuration.profile != nil {
            let box = Unmanaged.passRetained(
                TraceBox(configuration.trace, configuration.profile, expandsBoundValues: configuration.tracesBoundValues))
            traceBox = box
            var mask: Int32 = 0
            if configuration.trace != nil { mask |= SQLITE_TRACE_STMT }
            // The profile's clock starts at the statement's first step (SQLITE_TRACE_STMT): SQLite's own
            // time has the VFS clock's millisecond resolution.
            if configuration.profile != nil { mask |= SQLITE_TRACE_STMT | SQLITE_TRACE_PROFILE }
            sqlite3_trace_v2(handle, UInt32(mask), { event, context, statement, _ in
                guard let context, let statement else { return 0 }
                let box = Unmanaged<TraceBox>.fromOpaque(context).takeUnretainedValue()
                if event == UInt32(SQLITE_TRACE_PROFILE) {
                    box.statementDidFinish(OpaquePointer(statement))
                } else {
                    box.statementDidStart(OpaquePointer(statement))
                }
                return 0
            }, box.toOpaque())
        }
        // Reading the schema fails with SQLITE_NOTADB on a file that is not a database: fail at open,
        // naming the file (SQLite's message does not).
        do {
            try execute(sql: "PRAGMA schema_version")
        } catch let error as DatabaseError where error.primaryResultCode == .SQLITE_NOTADB {
            throw DatabaseError(resultCode: error.resultCode, message: "\(path) is not an SQLite database")
        }
        try execute(sql: "PRAGMA foreign_keys = \(configuration.foreignKeysEnabled ? "ON" : "OFF")")
        // Check the cells of each b-tree page as it is read, so that a damaged page a statement touches
        // fails it with SQLITE_CORRUPT rather than being used (within the noise of a full scan of a
        // million rows: see the catalog tool's Guarantees article); a pool's reader only when configured so.
        if configuration.checksCellSizes {
            try execute(sql: "PRAGMA cell_size_check = ON")
        }
        if let bytes = configuration.pageCacheBytes {
            try execute(sql: "PRAGMA cache_size = \(Self.cacheSizeValue(bytes: bytes))")
        }
        try configuration.prepareDatabase?(self)
        if !configuration.isReadonly && !isInMemory {
            // Switching a new file to WAL upgrades a read lock to a write lock, which SQLite refuses at
            // once while another connection holds the write lock (waiting could deadlock): wait here.
            if let journalMode = configuration.journalMode {
                try retryingWhileBusy { try execute(sql: "PRAGMA journal_mode = \(journalMode.rawValue)") }
            }
            try execute(sql: "PRAGMA synchronous = \(configuration.synchronous.rawValue)")
            try persistWALFiles()
        }
        if let bytes = configuration.memoryMapBytes, configuration.mapsFromFirstRead, !isInMemory {
            try execute(sql: "PRAGMA mmap_size = \(bytes)")
        }
        if let pages = configuration.maximumPageCount {
            try execute(sql: "PRAGMA max_page_count = \(max(1, pages))")
        }
    }

    /// The `PRAGMA cache_size` value of a page cache of `bytes`: negative, as a negative value counts
    /// KiB (a positive one counts pages, whose size depends on the file).
    static func cacheSizeValue(bytes: Int) -> Int { -max(1, bytes / 1024) }

    /// The first pause of ``retryingWhileBusy(_:)``, doubled after each attempt up to
    /// ``longestBusyRetryPause``: SQLite's own busy handler sleeps 1, 2, 5, 10… ms the same way.
    static let firstBusyRetryPause = Duration.milliseconds(1)
    /// The longest pause between two attempts of ``retryingWhileBusy(_:)`` (SQLite's busy handler's is 100 ms).
    static let longestBusyRetryPause = Duration.milliseconds(50)

    /// Runs `body`, again and again while it fails with `SQLITE_BUSY`, until ``Configuration/busyTimeout``
    /// has passed: for the statements that SQLite fails at once instead of calling its busy handler,
    /// because waiting for the lock could deadlock (a connection upgrading its read lock to a write lock
    /// while another holds the write lock). `body` must hold no lock between attempts.
    func retryingWhileBusy<T>(_ body: () throws -> T) throws -> T {
        let clock = ContinuousClock()
        let deadline = clock.now + configuration.busyTimeout
        var pause = Self.firstBusyRetryPause
        while true {
            do {
                return try body()
            } catch let error as DatabaseError where error.resultCode.primaryResultCode == .SQLITE_BUSY && clock.now + pause < deadline {
                Self.sleep(for: pause)
                pause = min(pause * 2, Self.longestBusyRetryPause)
            }
        }
    }

    /// Blocks the calling thread for `duration`, slept again after a signal interrupts it.
    private static func sleep(for duration: Duration) {
        let (seconds, attoseconds) = duration.components
        var request = timespec(tv_sec: Int(seconds), tv_nsec: Int(attoseconds / 1_000_000_000))
        var remaining = timespec()
        while nanosleep(&request, &remaining) != 0 && errno == EINTR { request = remaining }
    }

    /// What the file at `path` is when it exists and is not a regular file (nor a link to one), such as
    /// `"a FIFO"`; nil otherwise.
    static func specialFileKind(at path: String) -> String? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        switch info.st_mode & S_IFMT {
        case S_IFREG: return nil
        case S_IFDIR: return "a folder"
        case S_IFIFO: return "a FIFO"
        case S_IFCHR: return "a character device"
        case S_IFBLK: return "a block device"
        case S_IFSOCK: return "a socket"
        default: return "not a regular file"
        }
    }

    /// Whether the database lives in memory (`:memory:`) or in a temporary file deleted on close (`""`).
    public var isInMemory: Bool { path == ":memory:" || path.isEmpty }

    /// `path` as a file name SQLite cannot read as a URI.
    ///
    /// > If URI filename interpretation is enabled, and the filename argument begins with "file:", then
    /// > the filename is interpreted as a URI. (https://www.sqlite.org/c3ref/open.html)
    ///
    /// Debian builds SQLite with URI names on, so a relative path that starts with `file:` gets `./`.
    static func literalFileName(_ path: String) -> String {
        path.hasPrefix("file:") ? "./" + path : path
    }

    /// The open handle.
    ///
    /// - Throws: ``DatabaseError`` with `SQLITE_MISUSE` once the connection is closed.
    var connection: SQLiteConnection {
        get throws {
            guard let sqliteConnection else {
                throw DatabaseError(resultCode: .SQLITE_MISUSE, message: "the connection is closed")
            }
            return sqliteConnection
        }
    }

    // MARK: - Closing

    /// Finalizes cached statements and closes the connection; a connection that changed rows first
    /// copies the `-wal` into the database file and empties it (a ``CheckpointMode/truncate``
    /// checkpoint that waits for no one: pages a reader of an older snapshot still needs stay), so
    /// that the file alone holds every commit once the program closes its connections, even while
    /// other processes have it open (SQLite's own close checkpoints only when none has).
    ///
    /// - Throws: ``DatabaseError`` with `SQLITE_BUSY` when statements made with ``makeStatement(sql:)`` are
    ///   still alive, or the error of that checkpoint (`SQLITE_FULL` on a full disk: the commits stay in
    ///   the `-wal`); the connection then stays open.
    public func close() throws {
        guard let handle = sqliteConnection else { return }
        try checkpointBeforeClosing()
        statementCache.removeAll()
        let code = sqlite3_close(handle)
        guard code == SQLITE_OK else {
            throw DatabaseError(resultCode: ResultCode(rawValue: code), message: lastErrorMessage)
        }
        sqliteConnection = nil
    }

    /// Closes the connection, deferring the close until the last statement is finalized if need be;
    /// the checkpoint of ``close()`` is tried, and its failure ignored.
    public func closeIgnoringErrors() {
        guard let handle = sqliteConnection else { return }
        try? checkpointBeforeClosing()
        statementCache.removeAll()
        sqlite3_close_v2(handle)
        sqliteConnection = nil
    }

    /// When this connection changed rows of a file in WAL mode, copies the `-wal` file's pages into the
    /// database file and empties the `-wal` (``CheckpointMode/truncate``), without waiting for anyone:
    /// so that, once a program that wrote closes its connections, the database file alone holds every
    /// commit, as a copy of it or a restore that deletes the `-wal` expects. SQLite's own close does
    /// this only when no other connection, of any process, has the file open (a `watch`, another
    /// program's reader). The pages a reader of an older snapshot still needs stay in the `-wal` (the
    /// next writer's close copies them), and so does the whole `-wal` while another checkpoint runs.
    ///
    /// - Throws: ``DatabaseError`` for an I/O failure (`SQLITE_FULL` when the database file cannot grow).
    private func checkpointBeforeClosing() throws {
        guard let handle = sqliteConnection, !isInMemory, !configuration.isReadonly,
              sqlite3_total_changes64(handle) > 0, sqlite3_get_autocommit(handle) != 0 else { return }
        // No busy handler: a reader or another writer makes the checkpoint copy what it can and return.
        sqlite3_busy_timeout(handle, 0)
        defer { sqlite3_busy_timeout(handle, Int32(clamping: configuration.busyTimeout.milliseconds)) }
        try checkpoint(.truncate)
    }

    // MARK: - Statements

    /// Compiles one SQL statement.
    ///
    /// - Throws: ``DatabaseError`` when the SQL does not compile, or holds more than one statement.
    public func makeStatement(sql: String) throws -> Statement {
        let handle = try connection
        var statement: SQLiteStatement?
        var tailIsEmpty = true
        let code = sql.withCString { text in
            var tail: UnsafePointer<CChar>?
            let code = Self.prepare(handle, text, &statement, &tail)
            if let tail { tailIsEmpty = String(cString: tail).allSatisfy { $0.isWhitespace || $0 == ";" } }
            return code
        }
        guard code == SQLITE_OK else {
            throw DatabaseError(resultCode: ResultCode(rawValue: code), message: lastErrorMessage, sql: sql)
        }
        guard let statement else {
            throw DatabaseError(resultCode: .SQLITE_MISUSE, message: "no SQL statement", sql: sql)
        }
        guard tailIsEmpty else {
            sqlite3_finalize(statement)
            throw DatabaseError(resultCode: .SQLITE_MISUSE, message: "more than one statement; use execute(sql:)", sql: sql)
        }
        return Statement(database: self, sql: sql, handle: statement)
    }

    /// A prepared statement for `sql` from this connection's cache, compiled on first use.
    ///
    /// The statement is reset, with its bindings cleared, each time it is bound.
    public func cachedStatement(sql: String) throws -> Statement {
        if let statement = statementCache[sql] { return statement }
        let statement = try makeStatement(sql: sql)
        if statementCache.count >= configuration.statementCacheCapacity {
            statementCache.removeAll(keepingCapacity: true)
        }
        statementCache[sql] = statement
        return statement
    }

    /// The number of statements in the cache.
    public var cachedStatementCount: Int { statementCache.count }

    /// Runs SQL: one statement with arguments, or several separated by semicolons without arguments.
    ///
    /// ```swift
    /// try db.execute(sql: "UPDATE t SET name = ? WHERE id = ?", arguments: ["x", 1])
    /// ```
    ///
    /// - Throws: ``DatabaseError`` naming the statement that failed.
    public func execute(sql: String, arguments: StatementArguments = []) throws {
        if !arguments.isEmpty {
            try cachedStatement(sql: sql).execute(arguments: arguments)
            return
        }
        let handle = try connection
        try sql.withCString { start in
            var next: UnsafePointer<CChar>? = start
            while let current = next, current.pointee != 0 {
                var statement: SQLiteStatement?
                var tail: UnsafePointer<CChar>?
                let code = Self.prepare(handle, current, &statement, &tail)
                guard code == SQLITE_OK else {
                    // The tail is not set on failure: name the text up to the next semicolon.
                    let rest = String(cString: current)
                    let statement = rest.firstIndex(of: ";").map { String(rest[...$0]) } ?? rest
                    throw DatabaseError(
                        resultCode: ResultCode(rawValue: code), message: lastErrorMessage,
                        sql: statement.trimming(.spacesAndNewlines))
                }
                next = tail
                guard let statement else { continue }  // whitespace or a comment
                defer { sqlite3_finalize(statement) }
                try checkNotCancelled(Self.text(from: current, to: tail))
                while true {
                    let code = sqlite3_step(statement)
                    if code == SQLITE_DONE { break }
                    if code == SQLITE_ROW { continue }
                    throw DatabaseError(
                        resultCode: ResultCode(rawValue: code), message: lastErrorMessage,
                        sql: Self.text(from: current, to: tail))
                }
            }
        }
    }

    /// Compiles the first statement of `text`, compiling it once more when SQLite says the schema
    /// changed (`SQLITE_SCHEMA`).
    ///
    /// When another connection changed the schema (a bulk insert drops and creates triggers) and this
    /// one is inside a transaction, SQLite 3.40.1 can fail the first compilation with `SQLITE_SCHEMA`
    /// ("no such table") while it reloads the schema, when a trigger of the table has a `WITH` clause
    /// in its body (the search index's); the second compilation reads the reloaded schema.
    private static func prepare(
        _ handle: SQLiteConnection, _ text: UnsafePointer<CChar>, _ statement: inout SQLiteStatement?,
        _ tail: inout UnsafePointer<CChar>?
    ) -> Int32 {
        let code = sqlite3_prepare_v3(handle, text, -1, 0, &statement, &tail)
        guard code == SQLITE_SCHEMA else { return code }
        return sqlite3_prepare_v3(handle, text, -1, 0, &statement, &tail)
    }

    private static func text(from start: UnsafePointer<CChar>, to end: UnsafePointer<CChar>?) -> String {
        guard let end, end > start else { return String(cString: start) }
        let bytes = UnsafeBufferPointer(start: UnsafeRawPointer(start).assumingMemoryBound(to: UInt8.self),
                                        count: end - start)
        return String(decoding: bytes, as: UTF8.self).trimming(.spacesAndNewlines)
    }

    // MARK: - Fetching

    /// Runs a query and decodes every row.
    ///
    /// ```swift
    /// let names = try db.fetchAll(sql: "SELECT name FROM t ORDER BY name") { try $0.decode(String.self, at: 0) }
    /// ```
    @inlinable  // specialized for `T` at the call site: no generic code per row
    public func fetchAll<T>(sql: String, arguments: StatementArguments = [], _ decode: (Row) throws -> T) throws -> [T] {
        try cachedStatement(sql: sql).fetchAll(arguments: arguments, decode)
    }

    /// Runs a query and decodes its first row, if any.
    public func fetchOne<T>(sql: String, arguments: StatementArguments = [], _ decode: (Row) throws -> T) throws -> T? {
        try cachedStatement(sql: sql).fetchOne(arguments: arguments, decode)
    }

    /// The first column of the first row, or nil when there is no row or it is NULL.
    ///
    /// ```swift
    /// let count = try db.scalar(Int.self, sql: "SELECT count(*) FROM t") ?? 0
    /// ```
    public func scalar<T: DatabaseValueConvertible>(_ type: T.Type, sql: String, arguments: StatementArguments = []) throws -> T? {
        try fetchOne(sql: sql, arguments: arguments) { row in
            try row.decode(T?.self, at: 0)
        } ?? nil
    }

    // MARK: - Connection state

    /// The rowid of the last row inserted through this connection.
    public var lastInsertedRowID: Int64 {
        sqliteConnection.map { sqlite3_last_insert_rowid($0) } ?? 0
    }

    /// The number of rows the last INSERT, UPDATE or DELETE changed.
    public var changesCount: Int {
        sqliteConnection.map { Int(sqlite3_changes($0)) } ?? 0
    }

    /// Whether a transaction is open on this connection.
    public var isInsideTransaction: Bool {
        sqliteConnection.map { sqlite3_get_autocommit($0) == 0 } ?? false
    }

    /// SQLite's message for the last failure on this connection.
    var lastErrorMessage: String? {
        sqliteConnection.map { String(cString: sqlite3_errmsg($0)) }
    }

    func check(_ code: Int32, sql: String? = nil) throws {
        guard code == SQLITE_OK else {
            throw DatabaseError(resultCode: ResultCode(rawValue: code), message: lastErrorMessage, sql: sql)
        }
    }
}

@available(*, unavailable, message: "A connection is used by one thread at a time: go through a DatabaseQueue or DatabasePool.")
extension Database: Sendable {}

/// Holds the trace and profile closures for SQLite's C callback, and when each running statement
/// started (the connection is used by one thread at a time, so this needs no lock).
private final class TraceBox {
    let trace: (@Sendable (String) -> Void)?
    let profile: (@Sendable (String, Duration) -> Void)?
    /// ``Configuration/tracesBoundValues``.
    let expandsBoundValues: Bool
    /// The statements running, with when they started, for ``profile``.
    private var started: [OpaquePointer: ContinuousClock.Instant] = [:]

    init(
        _ trace: (@Sendable (String) -> Void)?, _ profile: (@Sendable (String, Duration) -> Void)?, expandsBoundValues: Bool
    ) {
        self.trace = trace
        self.profile = profile
        self.expandsBoundValues = expandsBoundValues
    }

    /// `SQLITE_TRACE_STMT`: at a statement's first step, and again at the start of each trigger it runs.
    func statementDidStart(_ statement: OpaquePointer) {
        if profile != nil, started[statement] == nil { started[statement] = .now }
        if let trace { trace(sql(of: statement)) }
    }

    /// `SQLITE_TRACE_PROFILE`: when a statement that ran is reset or finalized.
    func statementDidFinish(_ statement: OpaquePointer) {
        guard let profile, let start = started.removeValue(forKey: statement) else { return }
        profile(sql(of: statement), ContinuousClock.now - start)
    }

    /// The statement's SQL as the closures receive it.
    func sql(of statement: OpaquePointer) -> String {
        if expandsBoundValues, let expanded = sqlite3_expanded_sql(statement) {
            // > The string returned by sqlite3_expanded_sql(P) ... must be freed by the application
            // > by passing it to sqlite3_free().
            defer { sqlite3_free(expanded) }
            return String(cString: expanded)
        }
        return sqlite3_sql(statement).map { String(cString: $0) } ?? ""
    }
}

extension Duration {
    /// The duration in whole milliseconds.
    var milliseconds: Int64 {
        let (seconds, attoseconds) = components
        return seconds * 1000 + attoseconds / 1_000_000_000_000_000
    }
}
