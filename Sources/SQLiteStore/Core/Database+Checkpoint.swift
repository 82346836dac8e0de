import CSQLite

// MARK: - Checkpoints

/// How a checkpoint treats the connections that read and write the database meanwhile.
///
/// Related SQLite documentation: <https://www.sqlite.org/c3ref/wal_checkpoint_v2.html>
public enum CheckpointMode: Sendable {
    /// Copies what it can without waiting: frames newer than the oldest reader's snapshot stay.
    case passive
    /// Waits (up to the busy timeout) for the writer and for readers of older snapshots, copies every
    /// frame, then empties the `-wal` file to zero bytes.
    case truncate

    var code: Int32 {
        switch self {
        case .passive: SQLITE_CHECKPOINT_PASSIVE
        case .truncate: SQLITE_CHECKPOINT_TRUNCATE
        }
    }
}

/// What a checkpoint did: the frames the `-wal` file held and how many of them are now in the
/// database file.
public struct CheckpointResult: Sendable, Hashable {
    /// Frames (pages) in the `-wal` file when the checkpoint ran.
    public var walFrames: Int
    /// Frames copied into the database file, by this checkpoint or an earlier one.
    public var checkpointedFrames: Int
    /// Whether the checkpoint could not finish (a reader or writer kept it from waiting long enough).
    public var isBusy: Bool
}

extension Database {
    /// Copies the `-wal` file's pages into the database file.
    ///
    /// ```swift
    /// try pool.writeWithoutTransaction { db in try db.checkpoint(.truncate) }
    /// ```
    ///
    /// A checkpoint that readers or the writer keep from finishing is not an error: the result says
    /// `isBusy`, and the rest stays in the `-wal` for a later checkpoint.
    ///
    /// Related SQLite documentation: <https://www.sqlite.org/c3ref/wal_checkpoint_v2.html>
    ///
    /// - Parameter mode: whether to wait for other connections, and to empty the `-wal` file.
    /// - Precondition: no transaction is open on this connection.
    /// - Throws: ``DatabaseError`` for an I/O failure, or `SQLITE_MISUSE` when the connection is closed.
    @discardableResult
    public func checkpoint(_ mode: CheckpointMode) throws -> CheckpointResult {
        let handle = try connection
        precondition(!isInsideTransaction, "a checkpoint runs outside a transaction")
        // SQLite fails a checkpoint at once, without calling the busy handler, while another runs:
        // a pool's checkpoints (its writer's and its checkpointer's) take turns instead.
        checkpointGate?.lock()
        defer { checkpointGate?.unlock() }
        var walFrames: Int32 = 0
        var checkpointedFrames: Int32 = 0
        let code = sqlite3_wal_checkpoint_v2(handle, nil, mode.code, &walFrames, &checkpointedFrames)
        let isBusy = code == SQLITE_BUSY || code == SQLITE_LOCKED
        if !isBusy { try check(code) }
        return CheckpointResult(walFrames: Int(walFrames), checkpointedFrames: Int(checkpointedFrames), isBusy: isBusy)
    }
}

extension Database {
    /// The `-wal` pages from which ``DatabaseWriter/checkpointAfterBulkLoad(walPages:)`` empties the
    /// `-wal` file: 1,000, SQLite's own automatic checkpoint threshold (`wal_autocheckpoint`).
    public static let bulkLoadCheckpointPages = Int(CommitHandlers.autoCheckpointPageCount)
}

extension DatabaseWriter {
    /// Ends a bulk load (a seed, an import) with the database checkpointed: when the `-wal` file holds
    /// `walPages` pages or more, copies them all into the database file and empties the `-wal`
    /// (``CheckpointMode/truncate``, waiting for readers up to the busy timeout).
    ///
    /// ```swift
    /// try pool.write { db in /* a million inserts */ }
    /// try pool.checkpointAfterBulkLoad()
    /// ```
    ///
    /// SQLite's automatic checkpoint runs at commit and copies only what no reader still needs, and
    /// never shrinks the `-wal`; a connection that closes last checkpoints, but a process may end
    /// without closing. Without this, a big load can stay in the `-wal` (a whole million-product load
    /// beside a database file of one page), which every reader then searches through.
    ///
    /// - Parameter walPages: the least pages in the `-wal` for the checkpoint to run.
    /// - Returns: what the checkpoint did, or nil when the `-wal` held fewer pages (or the database is
    ///   not in WAL mode).
    /// - Throws: ``DatabaseError`` for an I/O failure.
    @discardableResult
    public func checkpointAfterBulkLoad(walPages: Int = Database.bulkLoadCheckpointPages) throws -> CheckpointResult? {
        try writeWithoutTransaction { db in
            // A passive checkpoint first: it waits for no one and tells how many pages the -wal holds.
            let passive = try db.checkpoint(.passive)
            guard passive.walFrames >= walPages else { return nil }
            return try db.checkpoint(.truncate)
        }
    }
}
