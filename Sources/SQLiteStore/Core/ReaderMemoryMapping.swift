import CSQLite

/// A pool reader's memory mapping of the database file, turned on once its reads have taken more
/// than ``Configuration/poolReadersMemoryMapThresholdBytes`` of pages from the file in all
/// (``Configuration/poolReadersMemoryMapBytes``).
///
/// The reader opens through the VFS that keeps a mapping (so the mapping, once on, is kept from one
/// read to the next) but with `mmap_size` 0, so SQLite reads each page with `pread` into its page
/// cache and counts it as a cache miss. At the end of each read the reader takes that count, kept by
/// SQLite since the connection opened (`SQLITE_DBSTATUS_CACHE_MISS`): when the misses, times the page
/// size, exceed the threshold, the mapping turns on for the reads after it, and the reader stops
/// counting. The count is of all reads, not of one: a reader whose reads are each small but keep
/// missing its cache (a search screen over a large file, query after query) maps as one large read
/// would, and a reader that took one screen of pages (a controller's first batch) does not.
///
/// Related SQLite documentation: <https://www.sqlite.org/c3ref/c_dbstatus_options.html>
final class ReaderMemoryMapping {
    /// The bytes mapped once the mapping is on (`PRAGMA mmap_size`).
    private let mappedBytes: Int
    /// The bytes of pages the reads take from the file beyond which the mapping turns on.
    private let thresholdBytes: Int
    /// The database's page size, read at the first check (a WAL database's cannot change).
    private var pageSize: Int?
    /// Whether the mapping is on.
    private(set) var isMapped = false

    /// The policy for a reader opened with `configuration`, or nil when the reader maps nothing or
    /// maps from its open (``Configuration/mapsFromFirstRead``).
    init?(configuration: Configuration) {
        guard let bytes = configuration.memoryMapBytes, !configuration.mapsFromFirstRead else { return nil }
        mappedBytes = bytes
        thresholdBytes = configuration.poolReadersMemoryMapThresholdBytes
    }

    /// Ends a read of `db` (its transaction over): turns the mapping on if the pages the reads took
    /// from the file since it opened exceed the threshold.
    ///
    /// When the count, the page size or the pragma cannot be had, the reader stays unmapped: its reads
    /// are as correct with `pread`, and a later read tries again.
    func endRead(_ db: Database) {
        guard !isMapped, let handle = db.sqliteConnection else { return }
        guard let pageSize = pageSize ?? (try? db.scalar(Int.self, sql: "PRAGMA page_size")) else { return }
        self.pageSize = pageSize
        var misses: Int32 = 0
        var highwater: Int32 = 0
        // > SQLITE_DBSTATUS_CACHE_MISS: This parameter returns the number of pager cache misses that
        // > have occurred. The highwater mark associated with SQLITE_DBSTATUS_CACHE_MISS is always 0.
        // (Not reset: the count is of every read since the connection opened.)
        guard sqlite3_db_status(handle, SQLITE_DBSTATUS_CACHE_MISS, &misses, &highwater, 0) == SQLITE_OK else { return }
        guard Int(misses) * pageSize > thresholdBytes else { return }
        guard (try? db.execute(sql: "PRAGMA mmap_size = \(mappedBytes)")) != nil else { return }
        isMapped = true
    }
}
