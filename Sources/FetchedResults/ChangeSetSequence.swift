import SQLiteStore

extension FetchedResultsController {
    /// The change sets of this tracking controller, one as each commit to the database is noticed.
    ///
    /// ```swift
    /// try controller.startTracking()
    /// let monitor = try ChangeMonitor(path: path)
    /// for try await changeSet in controller.changeSets(from: monitor) {
    ///     tableView.apply(changeSet)     // the controller already shows the new state
    /// }
    /// ```
    ///
    /// The monitor only wakes the sequence up; each step calls `applyPendingChanges()` in the
    /// iterating task, so the controller is used from that task alone (on the actor the caller chooses)
    /// and the ``delegate`` is called there too. Commits that change nothing in the result give no
    /// element. The sequence ends when the monitor stops or the task is cancelled; it throws
    /// `DatabaseFileError` when the database file was deleted, replaced or can no longer be read.
    ///
    /// - Precondition: ``isTracking``.
    public func changeSets(from monitor: ChangeMonitor) -> ChangeSetSequence<Entity> {
        precondition(isTracking, "changeSets(from:) needs startTracking() first")
        return ChangeSetSequence(controller: self, commits: monitor.changes(after: changeLogPosition))
    }
}

/// The change sets of a tracking ``FetchedResultsController``, as commits are noticed: see
/// ``FetchedResultsController/changeSets(from:)``.
public struct ChangeSetSequence<Entity: FetchableEntity>: AsyncSequence {
    public typealias Element = ChangeSet
    public typealias Failure = any Error

    let controller: FetchedResultsController<Entity>
    let commits: DatabaseChangeSequence

    public func makeAsyncIterator() -> Iterator {
        Iterator(controller: controller, commits: commits.makeAsyncIterator())
    }

    /// Applies pending changes each time the monitor reports a commit.
    public struct Iterator: AsyncIteratorProtocol {
        let controller: FetchedResultsController<Entity>
        var commits: DatabaseChangeSequence.Iterator

        public mutating func next() async throws -> ChangeSet? {
            try await next(isolation: nil)
        }

        /// The next change set, applied on `actor`: the iterating task's isolation.
        public mutating func next(isolation actor: isolated (any Actor)?) async throws(any Error) -> ChangeSet? {
            while await commits.next(isolation: actor) != nil {
                try Task.checkCancellation()
                let changeSet = try await controller.applyPendingChanges()
                if !changeSet.isEmpty { return changeSet }
            }
            // The database file was deleted or replaced: what the controller shows is no longer it.
            if let failure = commits.failure { throw failure }
            return nil
        }
    }
}

@available(*, unavailable, message: "It drives a controller, which is used from one task at a time.")
extension ChangeSetSequence: Sendable {}
