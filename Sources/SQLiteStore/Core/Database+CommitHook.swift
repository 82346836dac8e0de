import CSQLite

// MARK: - Commit notifications

extension Database {
    /// Calls `handler` after each transaction this connection commits to a database in WAL mode.
    ///
    /// ```swift
    /// try queue.writeWithoutTransaction { db in
    ///     db.addCommitHandler { signal.wake() }   // runs on the writer's thread: keep it short
    /// }
    /// ```
    ///
    /// The handler runs on the thread that committed, after the commit is durable and visible to other
    /// connections and its write lock is released, before the committing call returns. Rollbacks and
    /// read-only transactions do not call it. Handlers stay for the life of the connection: capture
    /// what they signal weakly.
    ///
    /// This uses `sqlite3_wal_hook`, which replaces SQLite's automatic checkpoint hook: the handler
    /// chain keeps its PASSIVE checkpoint once the WAL holds 1000 pages (run inside the commit, as
    /// SQLite's default does, or on a ``DatabasePool``'s writer handed to the pool's checkpoint
    /// connection). Running `PRAGMA wal_autocheckpoint` or `sqlite3_wal_autocheckpoint` afterwards
    /// removes the handlers. Nothing is called for a database in another journal mode.
    ///
    /// Related SQLite documentation: <https://www.sqlite.org/c3ref/wal_hook.html>
    ///
    /// - Throws: ``DatabaseError`` with `SQLITE_MISUSE` when the connection is closed.
    public func addCommitHandler(_ handler: @escaping @Sendable () -> Void) throws {
        try installedCommitHandlers().handlers.append(handler)
    }

    /// Hands the automatic checkpoint to `requestCheckpoint`: called on the committing thread, in place
    /// of the PASSIVE checkpoint SQLite would run inside the commit, when a commit leaves the WAL at
    /// `CommitHandlers.autoCheckpointPageCount` pages or more. It must return at once (a pool's
    /// checkpointer queues the checkpoint on a connection of its own).
    ///
    /// - Throws: ``DatabaseError`` with `SQLITE_MISUSE` when the connection is closed.
    func deferAutomaticCheckpoints(to requestCheckpoint: @escaping @Sendable () -> Void) throws {
        try installedCommitHandlers().requestCheckpoint = requestCheckpoint
    }

    /// The connection's WAL hook and its handlers, installed by the first call.
    private func installedCommitHandlers() throws -> CommitHandlers {
        let handle = try connection
        if let box = commitHandlers { return box.takeUnretainedValue() }
        let box = Unmanaged.passRetained(CommitHandlers())
        commitHandlers = box
        // > The callback is invoked by SQLite after the commit has taken place and the associated
        // > write-lock on the database released, so the implementation may read, write or checkpoint
        // > the database as required. (https://www.sqlite.org/c3ref/wal_hook.html)
        sqlite3_wal_hook(handle, { context, connection, schema, pageCount in
            guard let context else { return SQLITE_OK }
            let box = Unmanaged<CommitHandlers>.fromOpaque(context).takeUnretainedValue()
            if pageCount >= CommitHandlers.autoCheckpointPageCount {
                if let requestCheckpoint = box.requestCheckpoint {
                    requestCheckpoint()
                } else {
                    // What SQLite's default hook (sqlite3WalDefaultHook) does; a busy checkpoint is not an error.
                    _ = sqlite3_wal_checkpoint_v2(connection, schema, SQLITE_CHECKPOINT_PASSIVE, nil, nil)
                }
            }
            for handler in box.handlers { handler() }
            return SQLITE_OK
        }, box.toOpaque())
        return box.takeUnretainedValue()
    }
}

/// The handlers of one connection's WAL hook, retained by the connection until it is deallocated.
final class CommitHandlers {
    /// SQLite's default `wal_autocheckpoint` threshold, in pages.
    static let autoCheckpointPageCount: Int32 = 1000

    var handlers: [@Sendable () -> Void] = []
    /// Who runs the automatic checkpoint instead of the committing connection; nil: the connection,
    /// inside the commit.
    var requestCheckpoint: (@Sendable () -> Void)?
}
