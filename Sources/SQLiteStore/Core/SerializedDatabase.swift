import Dispatch

/// One connection and the serial dispatch queue that is the only place it is used.
///
/// Synchronous accesses run on the calling thread inside `DispatchQueue.sync`; asynchronous ones are
/// enqueued with `async` while the calling task is suspended on a continuation, so they occupy a
/// dispatch thread, never a thread of the cooperative pool. Either way one closure runs at a time, in
/// order of arrival.
///
/// The connection may be opened lazily, by the first access, on the queue (a pool's readers).
///
/// Why `@unchecked Sendable`: `connection` is a non-`Sendable` `Database` shared by every thread that
/// enqueues work; the invariant the compiler cannot see is that it is read and written only by blocks
/// running on `queue`, which is serial, and that no closure lets it escape (it is not `Sendable`).
final class SerializedDatabase: @unchecked Sendable {
    private let queue: DispatchQueue
    private let open: @Sendable () throws -> Database
    /// The connection, once opened; nil again after ``close()``. Only touched on `queue`.
    private var connection: Database?
    private var isClosed = false
    /// Where a pool's writer counts its accesses, from queuing to return, for the readers to make way
    /// (``PendingWrites``); nil on other connections.
    private let pendingWrites: PendingWrites?

    /// A connection opened by the first access (on the queue), with `open`.
    init(label: String, pendingWrites: PendingWrites? = nil, open: @escaping @Sendable () throws -> Database) {
        queue = DispatchQueue(label: label)
        self.pendingWrites = pendingWrites
        self.open = open
    }

    /// An open connection.
    convenience init(label: String, pendingWrites: PendingWrites? = nil, connection: Database) {
        self.init(label: label, pendingWrites: pendingWrites, open: { preconditionFailure("the connection is open") })
        self.connection = connection
    }

    deinit {
        connection?.closeIgnoringErrors()
    }

    /// The connection, opened if needed. On `queue` only.
    private func database() throws -> Database {
        if let connection { return connection }
        guard !isClosed else { throw DatabaseError(resultCode: .SQLITE_MISUSE, message: "the connection is closed") }
        let opened = try open()
        connection = opened
        return opened
    }

    /// Runs `body` with the connection, blocking the calling thread until it has run.
    func sync<T>(_ body: (Database) throws -> T) throws -> T {
        guard let pendingWrites else { return try queue.sync { try body(try database()) } }
        return try pendingWrites.tracking { try queue.sync { try body(try database()) } }
    }

    /// Runs `body` with the connection on the queue, suspending the calling task until it has run.
    ///
    /// Cancelling the task cancels the flag `body` gets: statements run under
    /// ``Database/cancellable(by:_:)`` with it are interrupted, and one not started yet never starts.
    func async<T: Sendable>(_ body: @escaping @Sendable (Database, CancellationFlag) throws -> T) async throws -> T {
        guard let pendingWrites else { return try await enqueue(body) }
        return try await pendingWrites.tracking { try await enqueue(body) }
    }

    /// ``async(_:)``, without counting it as a pending write.
    private func enqueue<T: Sendable>(_ body: @escaping @Sendable (Database, CancellationFlag) throws -> T) async throws -> T {
        let flag = CancellationFlag()
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                queue.async {
                    continuation.resume(with: Result { try body(try self.database(), flag) })
                }
            }
        } onCancel: {
            flag.cancel()
        }
    }

    /// Runs `body` with the connection on the queue later, without waiting for it; nothing runs when
    /// the connection cannot be opened or is closed by then.
    func enqueue(_ body: @escaping @Sendable (Database) -> Void) {
        queue.async {
            guard let db = try? self.database() else { return }
            body(db)
        }
    }

    /// Closes the connection, once the closures before this call have run.
    ///
    /// - Throws: ``DatabaseError`` with `SQLITE_BUSY` when statements are still alive.
    func close() throws {
        try queue.sync {
            try connection?.close()
            connection = nil
            isClosed = true
        }
    }

    // MARK: - Transactions

    /// `body` in a deferred transaction: one snapshot.
    func read<T>(_ body: (Database) throws -> T) throws -> T {
        try sync { db in try Self.inReadTransaction(db, body) }
    }

    /// `body` in a deferred transaction, cancellable.
    func read<T: Sendable>(_ body: @escaping @Sendable (Database) throws -> T) async throws -> T {
        try await async { db, flag in
            try db.cancellable(by: flag) {
                let value = try Self.inReadTransaction(db, body)
                try flag.checkCancellation()
                return value
            }
        }
    }

    /// `body` in a deferred transaction on `db`, whose page cache a pool's reader first sizes for the
    /// read (``AdaptivePageCache``), and after which it maps the file if the read took many pages from
    /// it (``ReaderMemoryMapping``).
    private static func inReadTransaction<T>(_ db: Database, _ body: (Database) throws -> T) throws -> T {
        defer { db.readerMemoryMapping?.endRead(db) }
        return try db.inTransaction(.deferred) {
            db.adaptivePageCache?.beginRead(db)
            return try body(db)
        }
    }

    /// `body` in an immediate transaction.
    func write<T>(_ body: (Database) throws -> T) throws -> T {
        try sync { db in try db.inTransaction(.immediate) { try body(db) } }
    }

    /// `body` in an immediate transaction, rolled back unless it ends before the task is cancelled.
    func write<T: Sendable>(_ body: @escaping @Sendable (Database) throws -> T) async throws -> T {
        try await async { db, flag in
            try db.cancellable(by: flag) {
                try db.inTransaction(.immediate) {
                    let value = try body(db)
                    try flag.checkCancellation()
                    return value
                }
            }
        }
    }

    /// `body` without a transaction, cancellable.
    func writeWithoutTransaction<T: Sendable>(_ body: @escaping @Sendable (Database) throws -> T) async throws -> T {
        try await async { db, flag in
            try db.cancellable(by: flag) {
                let value = try body(db)
                try flag.checkCancellation()
                return value
            }
        }
    }
}
