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
    /// chain runs the same PASSIVE checkpoint once the WAL holds 1000 pages, as the default does.
    /// Running `PRAGMA wal_autocheckpoint` or `sqlite3_wal_autocheckpoint` afterwards removes the
    /// handlers. Nothing is called for a database in another journal mode.
    ///
    /// Related SQLite documentation: <https://www.sqlite.org/c3ref/wal_hook.html>
    ///
    /// - Throws: ``DatabaseError`` with `SQLITE_MISUSE` when the connection is closed.
    public func addCommitHandler(_ handler: @escaping @Sendable () -> Void) throws {
        let handle = try connection
        if let box = commitHandlers {
            box.takeUnretainedValue().handlers.append(handler)
            return
        }
        let box = Unmanaged.passRetained(CommitHandlers(handler))
        commitHandlers = box
        // > The callback is invoked by SQLite after the commit has taken place and the associated
        // > write-lock on the database released, so the implementation may read, write or checkpoint
        // > the database as required. (https://www.sqlite.org/c3ref/wal_hook.html)
        sqlite3_wal_hook(handle, { context, connection, schema, pageCount in
            guard let context else { return SQLITE_OK }
            let box = Unmanaged<CommitHandlers>.fromOpaque(context).takeUnretainedValue()
            if pageCount >= CommitHandlers.autoCheckpointPageCount {
                // What SQLite's default hook (sqlite3WalDefaultHook) does; a busy checkpoint is not an error.
                _ = sqlite3_wal_checkpoint_v2(connection, schema, SQLITE_CHECKPOINT_PASSIVE, nil, nil)
            }
            for handler in box.handlers { handler() }
            return SQLITE_OK
        }, box.toOpaque())
    }
}

/// The handlers of one connection's WAL hook, retained by the connection until it is deallocated.
final class CommitHandlers {
    /// SQLite's default `wal_autocheckpoint` threshold, in pages.
    static let autoCheckpointPageCount: Int32 = 1000

    var handlers: [@Sendable () -> Void]

    init(_ handler: @escaping @Sendable () -> Void) {
        handlers = [handler]
    }
}
