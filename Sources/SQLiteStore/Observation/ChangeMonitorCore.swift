import Dispatch
import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The part of a ``ChangeMonitor`` that its thread shares with other threads: subscribers and their
/// log positions, statistics, the wake-up pipe and the stop flag.
///
/// The read connection and the file watcher are not here: they are local to the thread's `run`.
final class ChangeMonitorCore: Sendable {
    private struct Subscriber {
        weak var subscription: Subscription?
        /// The last log position delivered to it.
        var cursor: Int64
    }

    private struct State {
        var subscribers: [Int: Subscriber] = [:]
        var nextID = 0
        /// The log position the monitor has read up to, for subscribers who start "now".
        var latestSequence: Int64 = 0
        /// Set when a subscriber needs the log read although nothing committed.
        var needsRead = false
        var isStopped = false
        /// The monitor's thread, once it runs.
        var thread: pthread_t?
        var statistics = ChangeMonitor.Statistics()
        /// Why the monitor stopped by itself, if it did.
        var failure: DatabaseFileError?
    }

    let options: ChangeMonitor.Options
    let signal: WakeSignal
    private let state = Mutex(State())
    private let exited = DispatchSemaphore(value: 0)

    /// After a file event that `data_version` does not confirm yet, check again after these delays (ms):
    /// a commit's last write lands just before the WAL index makes it visible.
    private static let recheckDelays = [1, 2, 5, 10, 25, 50, 100]

    init(options: ChangeMonitor.Options) throws {
        self.options = options
        signal = try WakeSignal()
    }

    var statistics: ChangeMonitor.Statistics { state.withLock { $0.statistics } }

    /// Why the monitor stopped by itself, if it did.
    var failure: DatabaseFileError? { state.withLock { $0.failure } }

    // MARK: - Subscribers

    /// Registers a subscriber whose deliveries start after `sequence`, or after what the monitor has read.
    func register(after sequence: Int64?, owner: ChangeMonitor) -> Subscription {
        let subscription = state.withLock { state -> Subscription in
            let id = state.nextID
            state.nextID += 1
            let subscription = Subscription(id: id, owner: owner, maximumPendingChanges: options.maximumPendingChanges)
            if state.isStopped {
                subscription.finish()
            } else {
                state.subscribers[id] = Subscriber(subscription: subscription, cursor: sequence ?? state.latestSequence)
                // Read at once: the log after `sequence`, or what other subscribers were just sent.
                state.needsRead = true
            }
            return subscription
        }
        signal.signal()
        return subscription
    }

    func unregister(_ id: Int) {
        state.withLock { _ = $0.subscribers.removeValue(forKey: id) }
    }

    // MARK: - Stopping

    /// Stops the thread, waits for it to close the connection and the watch, and ends every sequence.
    func stop() {
        let wasRunning = state.withLock { state in
            defer { state.isStopped = true }
            return !state.isStopped
        }
        guard wasRunning else { return }
        signal.signal()
        // On the monitor's own thread (the last reference to the monitor released by a delivery),
        // the loop ends after this iteration: waiting would wait for itself.
        if !isMonitorThread { exited.wait() }
    }

    /// Whether the caller runs on the monitor's thread.
    private var isMonitorThread: Bool {
        state.withLock { state in state.thread.map { pthread_equal($0, pthread_self()) != 0 } ?? false }
    }

    /// Marks the monitor stopped and ends every subscriber's sequence; called as the thread exits.
    private func finishSubscribers() {
        let subscriptions = state.withLock { state in
            state.isStopped = true
            defer { state.subscribers = [:] }
            return state.subscribers.values.compactMap(\.subscription)
        }
        for subscription in subscriptions { subscription.finish() }
    }

    // MARK: - The thread

    /// The monitor's thread: opens the read connection, reports readiness, then waits for commits
    /// until stopped.
    func run(path: String, configuration: Configuration, ready: @Sendable (Result<Void, any Error>) -> Void) {
        state.withLock { $0.thread = pthread_self() }
        defer {
            finishSubscribers()
            exited.signal()
        }
        let db: Database
        var reader: LogReader
        do {
            var configuration = configuration
            configuration.isReadonly = true
            db = try Database(path: path, configuration: configuration)
            guard try ChangeLog.isInstalled(db) else {
                throw DatabaseError(
                    resultCode: .SQLITE_ERROR,
                    message: "no change log in \(path): install it with ChangeLog.install(retaining:_:) and ChangeLog.installTracking(forTable:_:)")
            }
            reader = try LogReader(db)
            let start = reader.sequence
            state.withLock { $0.latestSequence = start }
        } catch {
            ready(.failure(error))
            return
        }
        defer { db.closeIgnoringErrors() }
        // The file the connection opened; checked again below, since a connection keeps reading it
        // even after another file takes its path.
        let identity = FileIdentity(path: path)
        let pageSize = (try? db.scalar(Int.self, sql: "PRAGMA page_size")) ?? 0
        let watcher = options.usesFileEvents ? FileChangeWatcher(databasePath: path) : nil
        state.withLock { $0.statistics.usesFileEvents = watcher != nil }
        var headerWatch = HeaderWatch(pageSize: pageSize)
        _ = headerWatch.change(db, path: path)
        ready(.success(()))

        var recheckStep: Int?
        while true {
            let identityCheck = Int(ChangeMonitor.identityCheckInterval.milliseconds)
            let timeout = recheckStep.map { Self.recheckDelays[$0] }
                ?? (watcher == nil ? min(Int(options.pollInterval.milliseconds), identityCheck) : identityCheck)
            var descriptors = [pollfd(fd: signal.readDescriptor, events: Int16(POLLIN), revents: 0)]
            if let watcher { descriptors.append(pollfd(fd: watcher.fileDescriptor, events: Int16(POLLIN), revents: 0)) }
            if poll(&descriptors, nfds_t(descriptors.count), Int32(timeout)) < 0 && errno != EINTR { break }
            signal.drain()
            let fileEvent = watcher?.drainEvents() ?? false
            let (stopped, forced) = state.withLock { state in
                state.statistics.wakeUps += 1
                defer { state.needsRead = false }
                return (state.isStopped, state.needsRead)
            }
            if stopped { break }
            let moved = identity.map { $0.change(at: path, pageSize: pageSize) } ?? .removed(path: path)
            if let change = moved ?? headerWatch.change(db, path: path) {
                state.withLock { $0.failure = change }
                break
            }
            let confirmed: Bool
            var failed = false
            do {
                confirmed = try check(&reader, forced: forced, db)
            } catch let error as DatabaseError
                where [.SQLITE_CORRUPT, .SQLITE_NOTADB].contains(error.resultCode.primaryResultCode) {
                state.withLock { $0.failure = .unreadable(path: path, reason: error.message) }
                break
            } catch {
                // A transient failure (SQLITE_BUSY during WAL recovery, I/O): try again shortly.
                confirmed = false
                failed = true
            }
            if confirmed {
                recheckStep = nil
            } else if fileEvent || failed {
                recheckStep = 0
            } else if let step = recheckStep {
                recheckStep = step + 1 < Self.recheckDelays.count ? step + 1 : nil
            }
        }
    }

    /// Reads the log when `data_version` moved (or when `forced`) and delivers to each subscriber.
    ///
    /// - Returns: whether a commit was seen.
    private func check(_ reader: inout LogReader, forced: Bool, _ db: Database) throws -> Bool {
        let dataVersion = try reader.newDataVersion(db)
        guard dataVersion != nil || forced else { return false }
        let cursors = state.withLock { state in
            state.statistics.logReads += 1
            return state.subscribers.mapValues(\.cursor)
        }
        let read = try reader.read(
            after: cursors.values.min() ?? reader.sequence, limit: options.maximumPendingChanges, acknowledging: dataVersion, db)
        var deliveries: [(Subscription, DatabaseChanges)] = []
        // Strong references taken under the lock are released after it: a subscription's deinit
        // unregisters, which takes the lock.
        var retained: [Subscription] = []
        state.withLock { state in
            state.latestSequence = max(state.latestSequence, read.toSequence)
            for (id, cursor) in cursors {
                guard var subscriber = state.subscribers[id], let subscription = subscriber.subscription else { continue }
                retained.append(subscription)
                let slice = read.dropping(through: cursor)
                subscriber.cursor = max(cursor, slice.toSequence)
                state.subscribers[id] = subscriber
                guard !slice.isEmpty else { continue }
                deliveries.append((subscription, slice))
                state.statistics.deliveries += 1
                if !slice.isComplete { state.statistics.incompleteDeliveries += 1 }
            }
        }
        for (subscription, changes) in deliveries { subscription.deliver(changes) }
        withExtendedLifetime(retained) {}
        return true
    }
}
