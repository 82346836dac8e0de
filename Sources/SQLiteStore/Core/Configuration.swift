
/// How a connection is opened and set up. Defaults are the safe ones.
///
/// ```swift
/// var configuration = Configuration()
/// configuration.busyTimeout = .seconds(10)
/// let queue = try DatabaseQueue(path: "/tmp/app.sqlite", configuration: configuration)
/// ```
public struct Configuration: Sendable {
    /// Open read-only: writes fail with `SQLITE_READONLY`, and the file is never created or migrated.
    public var isReadonly = false

    /// Enforce foreign keys (`PRAGMA foreign_keys = ON`). Default true.
    public var foreignKeysEnabled = true

    /// How long a statement waits for another connection's lock before failing with `SQLITE_BUSY`.
    /// Default 5 seconds.
    public var busyTimeout: Duration = .seconds(5)

    /// The journal mode set on a writable file database. Default ``JournalMode/wal``; nil leaves the
    /// file in the mode it has (a new, empty file then stays in SQLite's rollback-journal mode), for a
    /// connection that only looks.
    public var journalMode: JournalMode? = .wal

    /// The `synchronous` setting. Default ``Synchronous/normal``, which in WAL mode is durable across
    /// application crashes, and across power loss loses at most the last transactions.
    public var synchronous: Synchronous = .normal

    /// Whether ``DatabaseError`` descriptions include bound values. Default false: they may hold user data.
    public var publicStatementArguments = false

    /// Called with the SQL of each statement as it starts, for logging or tests.
    public var trace: (@Sendable (String) -> Void)?

    /// Whether ``trace`` receives each statement's SQL with its bound values in place of its
    /// parameters (`sqlite3_expanded_sql`), as tests need to tell which values a plan bound. Default
    /// false: the SQL as written, since bound values may hold user data.
    ///
    /// Related SQLite documentation: <https://www.sqlite.org/c3ref/expanded_sql.html>
    public var tracesBoundValues = false

    /// Called with the SQL of each statement (as ``trace`` receives it: bound values in place when
    /// ``tracesBoundValues``) and how long it ran, when it finishes (is reset or finalized): a way to
    /// see where a request's time goes, for logging, tests and the `catalog` tool's `CATALOG_TRACE_SQL`.
    ///
    /// ```swift
    /// configuration.profile = { sql, duration in print(duration, sql) }
    /// ```
    ///
    /// The time runs from the statement's first step to its reset, so it includes what the caller did
    /// between steps with the rows. Default nil.
    ///
    /// Related SQLite documentation: <https://www.sqlite.org/c3ref/c_trace.html> (`SQLITE_TRACE_PROFILE`)
    public var profile: (@Sendable (String, Duration) -> Void)?

    /// Called with each new connection once its file is known to be a readable database, and before
    /// the connection writes anything to it (such as switching it to WAL): a place to refuse a file
    /// that belongs to another program, by throwing. Default nil.
    ///
    /// ```swift
    /// configuration.prepareDatabase = { db in try migrator.validate(db) }
    /// ```
    public var prepareDatabase: (@Sendable (Database) throws -> Void)?

    /// The number of prepared statements ``Database/cachedStatement(sql:)`` keeps. Default 64.
    public var statementCacheCapacity = 64

    /// The most pages the database file may grow to (`PRAGMA max_page_count`), or nil for SQLite's
    /// limit. A write that needs more fails with `SQLITE_FULL` and is rolled back, as on a full disk:
    /// use it as a quota, or to test how a program copes with a full disk. Default nil.
    ///
    /// The limit belongs to the connection, not the file, so every connection sets its own. It never
    /// shrinks a file: a value below the current size acts as the current size.
    ///
    /// Related SQLite documentation: <https://www.sqlite.org/pragma.html#pragma_max_page_count>
    public var maximumPageCount: Int?

    /// The most memory each connection's page cache may take (`PRAGMA cache_size`), in bytes; nil for
    /// SQLite's default (2 MB). Default ``defaultPageCacheBytes``. SQLite takes pages as a connection
    /// reads them, so a connection that reads little uses little.
    ///
    /// Related SQLite documentation: <https://www.sqlite.org/pragma.html#pragma_cache_size>
    public var pageCacheBytes: Int? = Configuration.defaultPageCacheBytes

    /// The default of ``pageCacheBytes``: 16 MiB, so that a read of a sorted list keeps the pages it
    /// visits. Reading 100,000 products in list order walks the list's index and looks up each row in
    /// the table in index order, which is random in the table: with SQLite's 2 MB, most of those
    /// lookups read their page from the file again and re-check its cells (W2 of Benchmarks/README.md).
    ///
    /// A pool's readers use it for the reads of an unchanged database, and
    /// ``pageCacheBytesAfterChange`` for a read that follows a commit (``adaptsReaderPageCache``).
    public static let defaultPageCacheBytes = 16 << 20

    /// Whether a ``DatabasePool``'s reader sizes its page cache at the start of each read: with
    /// ``pageCacheBytesAfterChange`` when the database changed since the reader's previous read (another
    /// connection committed), with ``pageCacheBytes`` when it did not (and for a reader's first read).
    /// Default true. It changes nothing when ``pageCacheBytes`` is nil or no larger than
    /// ``pageCacheBytesAfterChange``, nor on a ``DatabaseQueue`` or a pool's writer.
    ///
    /// Why: SQLite empties a WAL reader's page cache at the start of each read that follows a commit,
    /// so beside a steady writer every read fills an empty cache. A large empty cache is slow to fill: it
    /// takes a new buffer for each page read, which the C library had given back to the system after the
    /// previous reset, in memory cold in the processor's caches, where a small one soon recycles the
    /// same few warm ones. A read of an unchanged database keeps the pages of the previous reads, which
    /// is what the large cache is for. SQLite tells which case a read is in by `PRAGMA data_version`,
    /// which changes exactly when it emptied the cache; the reader runs it after `BEGIN`, a cached
    /// statement (one step per read), and changes `cache_size` only when the size changes.
    ///
    /// The cost: a read that follows a commit and visits the same pages again within itself re-reads
    /// those the small cache dropped, as a read of a long list in order does (see
    /// ``defaultPageCacheBytes`` and W2). Turn the policy off (false) when the reads that follow
    /// commits are of that kind, such as a whole sorted list read again after each change.
    ///
    /// Related SQLite documentation: <https://www.sqlite.org/pragma.html#pragma_data_version>
    public var adaptsReaderPageCache = true

    /// The page cache of a pool reader's read that follows a commit (``adaptsReaderPageCache``):
    /// 2,000 KiB, SQLite's default (`cache_size` -2000, `SQLITE_DEFAULT_CACHE_SIZE`), which GRDB's
    /// readers keep: beside a steady writer, a read that fills a small empty cache costs less than one
    /// that fills a large one (W8's fetch; Benchmarks/README.md, "W8: where the time goes").
    public static let pageCacheBytesAfterChange = 2_000 * 1024

    /// Whether a ``DatabasePool``'s reader connections check the cells of each b-tree page they read
    /// (`PRAGMA cell_size_check = ON`), as every other connection does (a ``DatabaseQueue``, a pool's
    /// writer and its checkpoint connection). Default false.
    ///
    /// The check is SQLite's early detection of damage: a statement that reads a page whose cells do
    /// not fit in it fails with `SQLITE_CORRUPT` instead of using them, which matters most where the
    /// damage could spread, a write. A pool's readers are opened read-only, so they cannot spread it,
    /// and without the check SQLite still refuses most damage as it meets it (a page of the wrong kind,
    /// a record that runs past its page): what a reader may do instead is return values read from a
    /// damaged cell. The check costs every page a reader reads, and beside a writer a reader reads its
    /// pages again after each commit (W8's fetch; Benchmarks/README.md, "W8: where the time goes");
    /// GRDB's connections leave it off. And the check does not catch damage that stays inside a page
    /// (a cell pointer moved within it): see the Guarantees article of the `catalog` tool. Turn it on
    /// where a read that meets a page whose cells do not fit in it must fail rather than answer, as
    /// the `catalog` tool does.
    ///
    /// Related SQLite documentation: <https://www.sqlite.org/pragma.html#pragma_cell_size_check>
    public var poolReadersCheckCellSizes = false

    /// The most bytes of the database file that a ``DatabasePool``'s reader maps into memory
    /// (`PRAGMA mmap_size`), or nil for none: the reader then reads every page with a system call.
    /// Default ``defaultPoolReadersMemoryMapBytes``. A reader maps the file only once its reads have
    /// taken more than ``poolReadersMemoryMapThresholdBytes`` of pages from it in all, from the read
    /// after that on. A ``DatabaseQueue``, a pool's writer and its checkpoint connection map nothing.
    ///
    /// Why: SQLite empties a WAL reader's page cache at the start of each read that follows a commit, so
    /// beside a steady writer every read gets its pages from the file again; without a mapping each is a
    /// `pread` and a copy (W8's fetch; Benchmarks/README.md, "W8: where the time goes"). With one,
    /// SQLite hands out the mapped pages themselves. SQLite alone would unmap the whole file at each
    /// of those reads and map it again, a page fault for every page touched; a pool's readers open the
    /// file through a VFS that keeps the mapping while the file keeps its size (unmapped and mapped again
    /// when it grew or shrank), so the pages stay mapped from one read to the next.
    ///
    /// The costs: pages read through the mapping count in the process's resident memory (as the page
    /// cache's copies would, but up to the mapped size rather than ``pageCacheBytes``; the system can
    /// drop them, as they are the file's own), and more than the pages read: Linux maps the whole
    /// block of the file's cache that holds a page touched, as much as 2 MB at once where the file
    /// system caches large blocks, so a first screen of rows scattered over a large file can make many
    /// megabytes resident (W6). Hence the threshold: a reader that took few pages from the file (one
    /// screen) does not map. And an I/O error while reading a mapped
    /// page, or a file cut short by another program without SQLite's locks while a read is under way,
    /// stops the process with `SIGBUS` rather than failing the statement. Pages still in the `-wal`
    /// file, and any beyond the mapped size, are read as before.
    ///
    /// Related SQLite documentation: <https://www.sqlite.org/mmap.html>
    public var poolReadersMemoryMapBytes: Int? = Configuration.defaultPoolReadersMemoryMapBytes

    /// The default of ``poolReadersMemoryMapBytes``: 1 GiB, so that whole catalogs of a few million
    /// products are mapped (the 1,000,000-product benchmark database is under 300 MB), within SQLite's own
    /// limit (`SQLITE_MAX_MMAP_SIZE`, 2 GB on Linux), which caps any larger value.
    public static let defaultPoolReadersMemoryMapBytes = 1 << 30

    /// How many bytes of pages the reads of a ``DatabasePool``'s reader take from the database file in
    /// all (SQLite's page cache misses since the connection opened, times the page size) before the
    /// reader maps the file (``poolReadersMemoryMapBytes``) for the reads after; 0 or less maps it from
    /// the first read.
    /// Default ``defaultPoolReadersMemoryMapThresholdBytes``. A reader that has mapped the file keeps
    /// the mapping until it closes.
    ///
    /// Why: the mapping pays off for a reader that takes many pages from the file again and again
    /// (beside a writer, after each commit; or query after query over a file larger than its cache),
    /// and costs resident memory well beyond the pages read (see ``poolReadersMemoryMapBytes``). A
    /// reader that took little, such as a controller that read its first batches, keeps reading with
    /// `pread` into its page cache. The count is of all reads, not of each: a search screen's reads
    /// are each small (a few hundred KiB) but miss the cache query after query, and they gain from the
    /// mapping as much as one large read does (W3's controller medians in Benchmarks/README.md).
    public var poolReadersMemoryMapThresholdBytes = Configuration.defaultPoolReadersMemoryMapThresholdBytes

    /// The default of ``poolReadersMemoryMapThresholdBytes``: ``pageCacheBytesAfterChange`` (2,000
    /// KiB, SQLite's default page cache), the pages a reader's cache holds in a read that follows a
    /// commit: a reader that has taken more from the file than that cache holds is one whose
    /// working set the cache does not hold, which the mapping spares system calls and copies. A
    /// controller's first screen (W6) takes far less than that from the file, W8's fetch beside a
    /// writer far more every read, and a searching reader (W3, W8) passes it after a few searches.
    public static let defaultPoolReadersMemoryMapThresholdBytes = pageCacheBytesAfterChange

    /// Whether the connection is a ``DatabasePool``'s reader: set by the pool on its readers'
    /// configuration (see ``poolReadersCheckCellSizes``).
    var isPoolReader = false

    /// The bytes a connection opened with this configuration maps (``poolReadersMemoryMapBytes``), or
    /// nil: from its open when ``mapsFromFirstRead``, else once a read took more than
    /// ``poolReadersMemoryMapThresholdBytes`` from the file (``ReaderMemoryMapping``).
    var memoryMapBytes: Int? { isPoolReader ? poolReadersMemoryMapBytes.flatMap { $0 > 0 ? $0 : nil } : nil }

    /// Whether a mapping connection (``memoryMapBytes``) maps the file from its open, before any read.
    var mapsFromFirstRead: Bool { poolReadersMemoryMapThresholdBytes <= 0 }

    /// Whether a connection opened with this configuration sets `PRAGMA cell_size_check = ON`.
    var checksCellSizes: Bool { !isPoolReader || poolReadersCheckCellSizes }

    /// A default configuration.
    public init() {}

    /// A journal mode. Related SQLite documentation: <https://www.sqlite.org/pragma.html#pragma_journal_mode>
    public enum JournalMode: String, Sendable {
        /// Write-ahead log: readers do not block the writer and the writer does not block readers.
        case wal = "WAL"
        /// SQLite's default rollback journal.
        case delete = "DELETE"
    }

    /// The `synchronous` pragma. Related SQLite documentation: <https://www.sqlite.org/pragma.html#pragma_synchronous>
    public enum Synchronous: String, Sendable {
        case off = "OFF"
        case normal = "NORMAL"
        case full = "FULL"
    }
}
