import Dispatch
import Synchronization

/// One server connection and the serial dispatch queue that is the only place it is used.
///
/// The connection is made by the first access, and made again by the next access after it was lost
/// (a restarted server, a replica back up). Asynchronous accesses run on the queue while the calling
/// task is suspended; cancelling the task sends `PQcancel` for its running statement, so the server
/// stops it, marks the connection's canceller so that the access sends no statement after it (a
/// cancel between two statements stops none), and the access throws `CancellationError`.
///
/// Why `@unchecked Sendable`: `connection` is a non-`Sendable` `PostgreSQLConnection`, read and
/// written only by blocks running on `queue`, which is serial; the other threads reach only
/// `running`, behind its mutex.
final class SerializedConnection: @unchecked Sendable {
    /// The server's URL.
    let url: String
    private let queue: DispatchQueue
    /// The connection, once made; only touched on `queue`.
    private var connection: PostgreSQLConnection?
    /// The access whose statements run now, and what cancels them.
    private let running = Mutex<(access: Access, canceller: StatementCanceller)?>(nil)

    init(url: String, label: String) {
        self.url = url
        queue = DispatchQueue(label: label)
    }

    /// One access, cancelled when its task is.
    private final class Access: Sendable {
        let isCancelled = Atomic<Bool>(false)
    }

    /// The connection, made if needed. On `queue` only.
    ///
    /// The server checks every second that the client of a running statement is still there, and
    /// ends the statement, rolling back and releasing its locks, when it is not: otherwise a killed
    /// process's statement (a bulk import into a table with rows) runs on for minutes, holding its
    /// locks against other writers, until the server next reads from its socket.
    private func open() throws -> PostgreSQLConnection {
        if let connection, connection.isUsable { return connection }
        connection?.close()
        connection = nil
        let made = try PostgreSQLConnection(url: url)
        do {
            try made.execute(sql: "SET client_connection_check_interval = '1s'")
        } catch {
            made.close()
            throw error
        }
        connection = made
        return made
    }

    /// Runs `body` with the connection, blocking the calling thread until it has run.
    func sync<T>(_ body: (PostgreSQLConnection) throws -> T) throws -> T {
        try queue.sync { try body(try open()) }
    }

    /// Runs `body` with the connection on the queue, suspending the calling task until it has run.
    ///
    /// - Throws: `CancellationError` when the task is cancelled before `body` starts, or while it runs
    ///   (the server stops its running statement, and none is sent after it); what `body` throws.
    func async<T: Sendable>(_ body: @escaping @Sendable (PostgreSQLConnection) throws -> T) async throws -> T {
        let access = Access()
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                queue.async {
                    continuation.resume(with: Result { try self.run(access, body) })
                }
            }
        } onCancel: {
            access.isCancelled.store(true, ordering: .sequentiallyConsistent)
            running.withLock { current in
                // Only this access's statements: never one of the access after it.
                guard let current, current.access === access else { return }
                current.canceller.isCancelled.store(true, ordering: .sequentiallyConsistent)
                current.canceller.cancel()
            }
        }
    }

    /// `body` with the connection, as `access`, on the queue.
    private func run<T>(_ access: Access, _ body: (PostgreSQLConnection) throws -> T) throws -> T {
        if access.isCancelled.load(ordering: .sequentiallyConsistent) { throw CancellationError() }
        let db = try open()
        // A cancel from here on marks the canceller; one before, seen here, marks it now.
        running.withLock {
            db.canceller.isCancelled.store(access.isCancelled.load(ordering: .sequentiallyConsistent), ordering: .sequentiallyConsistent)
            $0 = (access, db.canceller)
        }
        defer {
            running.withLock {
                $0 = nil
                db.canceller.isCancelled.store(false, ordering: .sequentiallyConsistent)
            }
        }
        do {
            return try body(db)
        } catch let error as PostgreSQLError
            where error.sqlState == PostgreSQLError.queryCanceled && access.isCancelled.load(ordering: .sequentiallyConsistent)
        {
            throw CancellationError()
        }
    }

    /// Closes the connection, once the accesses before this call have run.
    func close() {
        queue.sync {
            connection?.close()
            connection = nil
        }
    }
}
