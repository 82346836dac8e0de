import Dispatch
import Synchronization

/// Delivers the rows that commits change in a database file, whichever connection or process wrote them.
///
/// ```swift
/// try queue.write { db in
///     try ChangeLog.installTracking(forTable: "products", db)   // usually in a migration
/// }
/// let monitor = try ChangeMonitor(path: path)
/// try monitor.observeCommits(of: queue)    // optional: same-process commits without waiting for the file event
/// for await changes in monitor.changes() {
///     if changes.isComplete {
///         reload(rows: changes.rowIDs(inTable: "products"))
///     } else {
///         refetchEverything()
///     }
/// }
/// ```
///
/// # Mechanism
///
/// Writers record *which* rows changed: the ``ChangeLog`` triggers append `(seq, table, rowid, kind)`
/// to the `store_changes` table inside each writing transaction. The monitor learns *that* something
/// committed, without polling tables, and then reads the log after the last position it delivered:
///
/// - **Other processes** (and other connections of this one): on Linux, inotify on the database's
///   directory reports writes to the file, its `-wal` and its `-journal`. Each event is confirmed with
///   `PRAGMA data_version` on the monitor's own connection, which changes exactly when another
///   connection committed. A write that is not yet a visible commit (the last frames of a commit land
///   just before the WAL index publishes it; a big transaction spills pages before committing) is
///   checked again after 1, 2, 5, 10, 25, 50 and 100 ms. Where inotify is unavailable (macOS, or
///   ``Options/usesFileEvents`` off), the monitor checks `PRAGMA data_version` every
///   ``Options/pollInterval``: a read of the WAL index header, not of any table.
/// - **The file itself**: at least every ``identityCheckInterval`` and on each file event, the monitor
///   checks that the path still names the file it opened (device and inode). When the database is
///   deleted, replaced by another file, or can no longer be read (damaged, overwritten in place with
///   something else), it stops, its sequences end, and ``failure`` says why (``DatabaseFileError``).
/// - **Connections it is told about** (``observeCommits(of:)``): a WAL hook on that connection wakes the
///   monitor right after each commit, on every platform.
///
/// Then, in one short read transaction, it reads `PRAGMA schema_version` and the log entries after the
/// lowest position any subscriber has, and gives each subscriber the entries past its own position.
///
/// # Guarantees
///
/// - **Nothing committed is missed, nothing uncommitted is seen.** The log is written by the committing
///   transaction itself: a rollback, a crash or a `SIGKILL` mid-transaction leaves no entry; several
///   commits between two reads arrive together, in commit order, in one ``DatabaseChanges``.
/// - **Gaps are reported, not hidden.** A subscriber whose position was pruned from the log, or that
///   would receive more than ``Options/maximumPendingChanges`` events, gets a delivery with
///   ``DatabaseChanges/Gap/fellBehind``; a schema change gives ``DatabaseChanges/Gap/schemaChanged``.
///   Either means "refetch and diff"; ``Statistics/incompleteDeliveries`` counts them.
/// - **Writers are never blocked by the monitor.** It uses its own read-only connection (WAL: readers
///   and the writer do not block each other) and holds no transaction between reads, so checkpoints run.
/// - **Work per commit grows with the size of the change:** reading the log is a range scan on its
///   primary key from the last position.
///
/// # Limits
///
/// Only tables with tracking installed are reported (see ``ChangeLog`` for `WITHOUT ROWID` tables and
/// `REPLACE`). An in-memory database cannot be monitored (the monitor opens the file a second time).
/// Without inotify, latency is up to ``Options/pollInterval``.
///
/// # Concurrency
///
/// `ChangeMonitor` is `Sendable`: its state is behind a mutex, and its connection and file watch live on
/// a dedicated thread, which blocks in `poll(2)` while idle. Change sets are delivered to each
/// subscriber's `AsyncSequence`; the iterating task chooses its own actor. ``stop()`` (or releasing the
/// monitor and every sequence from it) ends the thread, closes its connection and watch descriptors,
/// and ends the sequences.
///
/// ## Topics
///
/// - ``init(path:configuration:options:)``
/// - ``changes(after:)``
/// - ``observeCommits(of:)``
/// - ``stop()``
/// - ``statistics``
/// - ``ChangeLog``
/// - ``DatabaseChanges``
public final class ChangeMonitor: Sendable {
    /// The path of the monitored database file.
    public let path: String
    let core: ChangeMonitorCore

    /// Opens a read-only connection to the database at `path` on a new thread and starts watching it.
    ///
    /// - Parameters:
    ///   - path: the database file, which must already have its change log (``ChangeLog/install(retaining:_:)``).
    ///   - configuration: how to open the connection; it is always opened read-only.
    ///   - options: how to notice commits.
    /// - Throws: ``DatabaseError`` when the file cannot be opened, or with `SQLITE_ERROR` when it has
    ///   no change log.
    public init(path: String, configuration: Configuration = Configuration(), options: Options = Options()) throws {
        self.path = path
        let core = try ChangeMonitorCore(options: options)
        self.core = core
        let started = DispatchSemaphore(value: 0)
        let outcome = Mutex<Result<Void, any Error>?>(nil)
        DetachedThread.start {
            core.run(path: path, configuration: configuration) { result in
                outcome.withLock { $0 = result }
                started.signal()
            }
        }
        started.wait()
        try outcome.withLock { $0 }?.get()
    }

    deinit {
        core.stop()
    }

    /// Starts a subscription to the changes committed after `sequence`.
    ///
    /// ```swift
    /// // Snapshot and position in one transaction, then the changes that follow it:
    /// let (rows, position) = try queue.read { db in (try fetchRows(db), try ChangeLog.currentSequence(db)) }
    /// for await changes in monitor.changes(after: position) { … }
    /// ```
    ///
    /// - Parameter sequence: the log position the caller has seen everything up to (from
    ///   ``ChangeLog/currentSequence(_:)``, read in the same transaction as its snapshot). The first
    ///   delivery then holds every event after it, or is ``DatabaseChanges/Gap/fellBehind`` when they
    ///   were pruned. Nil starts after the position the monitor has read, which may include commits made
    ///   just before this call.
    /// - Returns: a sequence that ends when the monitor stops or the iterating task is cancelled.
    public func changes(after sequence: Int64? = nil) -> DatabaseChangeSequence {
        DatabaseChangeSequence(subscription: core.register(after: sequence, owner: self))
    }

    /// Wakes the monitor right after each commit of `writer`'s connection, instead of waiting for the
    /// file event (or, without inotify, the next timer tick).
    ///
    /// The hook stays on the connection after the monitor stops, and then does nothing.
    ///
    /// - Throws: ``DatabaseError`` when the writer is closed.
    public func observeCommits(of writer: any DatabaseWriter) throws {
        try writer.writeWithoutTransaction { db in
            try db.addCommitHandler { [weak core] in core?.signal.signal() }
        }
    }

    /// Stops the thread, closes its connection and its watch, and ends every sequence. Idempotent.
    public func stop() {
        core.stop()
    }

    /// What the monitor has done so far.
    public var statistics: Statistics { core.statistics }

    /// Why the monitor stopped by itself, if it did: the file at ``path`` was deleted or replaced, or
    /// can no longer be read. Every sequence from it has then ended.
    public var failure: DatabaseFileError? { core.failure }

    /// How often, at least, the monitor checks that the file at ``path`` is still the one it opened
    /// (its device and inode): a deleted or replaced database is noticed within this time. 250 ms: a
    /// `stat` call, negligible next to the wake-ups of commits.
    public static let identityCheckInterval = Duration.milliseconds(250)
}
