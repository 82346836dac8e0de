import Synchronization

/// The changes a ``ChangeMonitor`` delivers to one subscriber, as an `AsyncSequence`.
///
/// ```swift
/// let monitor = try ChangeMonitor(path: path)
/// for await changes in monitor.changes() {
///     print(changes.changes)
/// }
/// ```
///
/// The subscription starts when ``ChangeMonitor/changes(after:)`` returns, not when iteration starts,
/// so a caller can subscribe, then fetch a snapshot, then iterate without missing a commit. While the
/// consumer is busy, deliveries merge into one (see ``DatabaseChanges/append(_:)``): a slow consumer
/// gets fewer, larger change sets, never a backlog. Past ``ChangeMonitor/Options/maximumPendingChanges``
/// pending events, the merged delivery is marked ``DatabaseChanges/Gap/fellBehind`` and drops its events.
///
/// Iterate it once. The sequence ends when the iterating task is cancelled, when the monitor stops, or
/// when the database file was deleted, replaced or can no longer be read (``Iterator/failure`` says so). It keeps its monitor alive while it exists.
public struct DatabaseChangeSequence: AsyncSequence, Sendable {
    /// The changes delivered at once.
    public typealias Element = DatabaseChanges

    let subscription: Subscription

    /// Returns the iterator; iterate only once.
    public func makeAsyncIterator() -> Iterator {
        Iterator(subscription: subscription)
    }

    /// Waits for the next delivery.
    public struct Iterator: AsyncIteratorProtocol {
        let subscription: Subscription

        /// The next change set, or nil once the sequence ended.
        public mutating func next() async -> DatabaseChanges? {
            await subscription.next()
        }

        /// Why the sequence ended by itself, once it has: the monitor's ``ChangeMonitor/failure``.
        public var failure: DatabaseFileError? { subscription.owner.core.failure }
    }
}

/// One subscriber's mailbox: the monitor's thread puts change sets in, the consumer's task takes them.
final class Subscription: Sendable {
    private struct State {
        var pending: DatabaseChanges?
        var waiter: CheckedContinuation<DatabaseChanges?, Never>?
        var isFinished = false
    }

    let id: Int
    private let maximumPendingChanges: Int
    private let state = Mutex(State())
    /// Keeps the monitor running while the subscription exists; `unregister` on deinit.
    let owner: ChangeMonitor

    init(id: Int, owner: ChangeMonitor, maximumPendingChanges: Int) {
        self.id = id
        self.owner = owner
        self.maximumPendingChanges = maximumPendingChanges
    }

    deinit {
        owner.core.unregister(id)
    }

    /// Delivers `changes`, or merges them into the pending delivery.
    func deliver(_ changes: DatabaseChanges) {
        let waiter = state.withLock { state -> CheckedContinuation<DatabaseChanges?, Never>? in
            guard !state.isFinished else { return nil }
            if let waiter = state.waiter {
                state.waiter = nil
                return waiter
            }
            var merged = state.pending ?? DatabaseChanges(fromSequence: changes.fromSequence, toSequence: changes.fromSequence, changes: [])
            merged.append(changes)
            if merged.changes.count > maximumPendingChanges {
                merged.changes = []
                merged.gap = merged.gap ?? .fellBehind
            }
            state.pending = merged
            return nil
        }
        waiter?.resume(returning: changes)
    }

    /// Ends the sequence: the consumer gets what is pending, then nil.
    func finish() {
        let waiter = state.withLock { state in
            state.isFinished = true
            defer { state.waiter = nil }
            return state.waiter
        }
        waiter?.resume(returning: nil)
    }

    /// The pending delivery, or the next one, or nil once finished or cancelled.
    func next() async -> DatabaseChanges? {
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<DatabaseChanges?, Never>) in
                let immediate = state.withLock { state -> DatabaseChanges?? in
                    if let pending = state.pending {
                        state.pending = nil
                        return .some(pending)
                    }
                    if state.isFinished || Task.isCancelled { return .some(nil) }
                    state.waiter = continuation
                    return .none
                }
                if let immediate { continuation.resume(returning: immediate) }
            }
        } onCancel: {
            finish()
            owner.core.unregister(id)
        }
    }
}
