import Dispatch
import Synchronization
import StoreCore

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension PostgreSQLCluster {
    /// A wake-up each time a transaction that changed tracked rows commits on the primary, in any
    /// process or machine: read ``PostgreSQLChangeLog/changes(after:_:)`` then.
    ///
    /// ```swift
    /// var position = try cluster.read { db in try PostgreSQLChangeLog.currentPosition(db) }
    /// for try await _ in cluster.changeNotifications() {
    ///     let (changes, next) = try await cluster.read { [position] db in try PostgreSQLChangeLog.changes(after: position, db) }
    ///     position = next
    /// }
    /// ```
    ///
    /// A connection of its own listens on the primary (replicas cannot `LISTEN`), on a thread of its
    /// own. Several commits may give one wake-up. Before each wake-up the cluster notes where the
    /// primary's WAL stands, as after a write of its own: its next reads wait for a replica to replay
    /// the commits notified (or run on the primary), so that they see them; a replica within
    /// `replicaLagLimit` could otherwise answer without them, and the change be read only at the next
    /// wake-up. The sequence ends when the consuming task is
    /// cancelled, and throws ``PostgreSQLError`` when the primary cannot be reached or the connection
    /// is lost (a restart): changes made meanwhile are still in the log, so a caller that listens
    /// again reads them from its position, never misses them. Cancelling blocks the cancelling
    /// thread until the listening connection has closed (within 250 ms, also in a connect; a wait
    /// cut off by its bound is logged), and the process's exit stops and waits for the listening
    /// threads still running: the exit's clean-up of libraries would otherwise run under a libpq
    /// call (a connect's Kerberos probe aborts then).
    public func changeNotifications() -> AsyncThrowingStream<Void, any Error> {
        let url = configuration.primary
        let log = configuration.log
        return AsyncThrowingStream(bufferingPolicy: .bufferingNewest(1)) { continuation in
            let listening = ListeningState.started()
            continuation.onTermination = { termination in
                listening.stop()
                guard case .cancelled = termination, !listening.waitUntilEnded() else { return }
                log?("the listening connection did not close within 5 seconds of its stream's cancel")
            }
            DispatchQueue(label: "PostgreSQLCluster.changeNotifications").async {
                // The loop ends before the stream finishes: a cancel waits for the end while it
                // holds the consuming task's lock, which finishing (or a wake-up) needs.
                let failure = self.listen(url, listening) { continuation.yield() }
                listening.ended()
                continuation.finish(throwing: failure)
            }
        }
    }

    /// Listens on `url` until `listening` stops, calling `wakeUp` when listening starts and after
    /// each notification, never once stopped; the error that ended it, with its connection closed.
    private func listen(_ url: String, _ listening: ListeningState, wakeUp: () -> Void) -> (any Error)? {
        do {
            guard let db = try PostgreSQLConnection(url: url, abandonedWhen: { listening.isStopped }) else { return nil }
            defer { db.close() }
            try db.listen(PostgreSQLChangeLog.channel)
            // Listening now: changes before this are read from the caller's position.
            try recordWritePosition(db)
            while !listening.isStopped {
                wakeUp()
                while try !listening.isStopped && db.notifications(waitingMilliseconds: 250).isEmpty {}
                if !listening.isStopped { try recordWritePosition(db) }
            }
            return nil
        } catch {
            return error
        }
    }
}

/// Whether a listening loop should stop (set when its stream's consumer goes away, or the process
/// exits), and whether it has closed its connection.
final class ListeningState: Sendable {
    private let stopped = Mutex<Bool>(false)
    private let end = DispatchSemaphore(value: 0)
    var isStopped: Bool { stopped.withLock { $0 } }
    func stop() { stopped.withLock { $0 = true } }

    /// The loops still running, which the process's exit stops and waits for (`atexit` handlers run
    /// before libraries' destructors); nil once it has: a loop started then is stopped at once.
    private static let running = Mutex<[ObjectIdentifier: ListeningState]?>([:])

    /// Registers the exit's stop, once, when a cluster is made: a registration made while the
    /// process exits would run after the libraries' destructors, too late.
    static let stopsAtExit: Void = { _ = atexit { ListeningState.stopAll() } }()

    /// A state, in the loops stopped at exit until ``ended()``.
    static func started() -> ListeningState {
        let state = ListeningState()
        running.withLock { running in
            if running == nil { state.stop() } else { running![ObjectIdentifier(state)] = state }
        }
        return state
    }

    private static func stopAll() {
        let states = running.withLock { running in
            defer { running = nil }
            return Array((running ?? [:]).values)
        }
        for state in states { state.stop() }
        for state in states { state.waitUntilEnded() }
    }

    func ended() {
        Self.running.withLock { _ = $0?.removeValue(forKey: ObjectIdentifier(self)) }
        end.signal()
    }

    /// Whether the loop ended, rather than the wait's bound: the loop sees `stop()` within one 250 ms
    /// wait, for notifications or in a connect; the bound is for a statement on a server that
    /// stopped answering. Any number of threads may wait.
    @discardableResult
    func waitUntilEnded() -> Bool {
        guard end.wait(timeout: .now() + .seconds(5)) == .success else { return false }
        end.signal()
        return true
    }
}
