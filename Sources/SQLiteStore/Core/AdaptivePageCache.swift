import CSQLite

/// The page cache of a pool's reader, sized at the start of each read by whether the database changed
/// since the reader's previous read (``Configuration/adaptsReaderPageCache``).
///
/// SQLite empties a WAL reader's page cache when its read transaction starts on a database that
/// another connection changed since its last one, and `PRAGMA data_version` changes exactly then (the
/// pager counts its resets). So a read that finds the version changed starts with an empty cache
/// anyway, and runs with ``Configuration/pageCacheBytesAfterChange``; a read that finds it unchanged
/// still has the pages of the previous ones, and runs with the configured
/// ``Configuration/pageCacheBytes``. The first read of a connection counts as unchanged.
///
/// Related SQLite documentation: <https://www.sqlite.org/pragma.html#pragma_data_version>
final class AdaptivePageCache {
    /// The cache of a read of an unchanged database: the configuration's.
    private let unchangedBytes: Int
    /// The cache of a read that follows a change.
    private let changedBytes: Int
    /// The cache the connection has now.
    private var currentBytes: Int
    /// `PRAGMA data_version` at the start of the previous read; nil before the first.
    private var lastDataVersion: Int64?

    /// The policy for a reader opened with `configuration`, or nil when it has nothing to adapt: the
    /// policy is off, or the configured cache is no larger than ``Configuration/pageCacheBytesAfterChange``.
    init?(configuration: Configuration) {
        guard configuration.adaptsReaderPageCache, let bytes = configuration.pageCacheBytes,
              bytes > Configuration.pageCacheBytesAfterChange else { return nil }
        unchangedBytes = bytes
        changedBytes = Configuration.pageCacheBytesAfterChange
        currentBytes = bytes
    }

    /// Starts `db`'s read transaction (opened with `BEGIN DEFERRED`, with nothing read yet) and sizes
    /// its page cache for the read.
    ///
    /// When the version cannot be read, the cache stays as it is, and the read's own first statement
    /// meets the same failure (a damaged or replaced file, an interruption) with its own SQL.
    func beginRead(_ db: Database) {
        // A cached statement: its program reads the version when it runs (`OP_ReadCookie`), so one
        // compilation serves every read.
        guard let version = try? db.scalar(Int64.self, sql: "PRAGMA data_version") else { return }
        let changed = lastDataVersion.map { $0 != version } ?? false
        lastDataVersion = version
        let bytes = changed ? changedBytes : unchangedBytes
        guard bytes != currentBytes else { return }
        // Compiled each time: SQLite applies `PRAGMA cache_size = N` while it compiles the statement,
        // so a cached one would change nothing when it runs again.
        guard (try? db.execute(sql: "PRAGMA cache_size = \(Database.cacheSizeValue(bytes: bytes))")) != nil else { return }
        currentBytes = bytes
    }
}
