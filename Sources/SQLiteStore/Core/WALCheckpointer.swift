import Synchronization

/// A pool's automatic checkpoints, run on a connection of their own so that no commit waits for one.
///
/// SQLite's automatic checkpoint (`wal_autocheckpoint`) runs inside the commit that leaves the `-wal`
/// at 1,000 pages or more: that commit returns only after the checkpoint has copied the `-wal`'s pages
/// into the database file and synced it. Beside readers, that was the writer's slowest 1% of commits
/// (W8's commit latency p99). A pool's writer instead asks this checkpointer, which runs the same PASSIVE
/// checkpoint on its own connection and serial queue: in WAL mode a checkpoint copies what no reader
/// still needs while the writer goes on committing, and the writer restarts the `-wal` from its start
/// once a checkpoint has copied all of it, as before, so the `-wal` stays as bounded as with SQLite's
/// own checkpoint.
///
/// Requests made while one is queued are one checkpoint. The connection opens at the first checkpoint,
/// with the writer's configuration. A failed checkpoint is not reported (SQLite's automatic one is not
/// either): what it did not copy stays in the `-wal` for the next.
final class WALCheckpointer: Sendable {
    private let connection: SerializedDatabase
    /// Whether a checkpoint is queued and not started yet.
    private let isQueued = Atomic<Bool>(false)
    /// Taken by every checkpoint of the pool's connections (``Database/checkpoint(_:)``): SQLite fails a
    /// checkpoint at once while another connection runs one, so an explicit checkpoint on the writer
    /// (after a bulk load) waits for this one instead.
    ///
    /// A ``PThreadLock`` rather than `Mutex`: it is handed to the connections, which lock it around a C call.
    let gate = PThreadLock()

    /// A checkpointer for the database at `path`, opened with `configuration` when first needed.
    init(path: String, configuration: Configuration) {
        connection = SerializedDatabase(label: "SQLiteStore.DatabasePool.checkpointer") { [gate] in
            let db = try Database(path: path, configuration: configuration)
            db.checkpointGate = gate
            return db
        }
    }

    /// Queues a PASSIVE checkpoint unless one is queued already; returns at once. Called by the
    /// writer's commit hook.
    func request() {
        guard !isQueued.exchange(true, ordering: .acquiringAndReleasing) else { return }
        connection.enqueue { [self] db in
            // Cleared first: a commit from now on may need another checkpoint.
            self.isQueued.store(false, ordering: .releasing)
            _ = try? db.checkpoint(.passive)
        }
    }

    /// Waits for the checkpoint queued, if any, to end.
    func waitForQueuedCheckpoint() {
        _ = try? connection.sync { _ in }
    }

    /// Closes the connection once the queued checkpoint has run; later requests do nothing.
    func close() throws {
        try connection.close()
    }
}
