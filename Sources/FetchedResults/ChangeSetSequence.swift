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
    public func changeSets(from monitor: ChangeMonitor) -> ChangeSetSequence<Entity, DatabaseChangeSequence> {
        precondition(isTracking, "changeSets(from:) needs startTracking() first")
        return ChangeSetSequence(controller: self, commits: monitor.changes(after: changeLogPosition)) { $0.failure }
    }

    /// The change sets of this tracking controller, one as each of `commits` wakes it up: for another
    /// engine's notice of commits, such as a PostgreSQL cluster's `changeNotifications()`.
    ///
    /// ```swift
    /// try await controller.startTracking()
    /// for try await changeSet in controller.changeSets(from: cluster.changeNotifications()) {
    ///     tableView.apply(changeSet)
    /// }
    /// ```
    ///
    /// As `changeSets(from:)` of a `ChangeMonitor`: each element of `commits` (several commits may give
    /// one) makes the iterating task call `applyPendingChanges()`, which reads the change log from the
    /// controller's position, so a commit made before the first wake-up is not missed; commits that
    /// change nothing in the result give no element. The sequence ends when `commits` ends or the task
    /// is cancelled, and throws what `commits` throws (a lost connection to the primary).
    ///
    /// - Precondition: ``isTracking``.
    public func changeSets<Commits: AsyncSequence>(from commits: Commits) -> ChangeSetSequence<Entity, Commits> {
        precondition(isTracking, "changeSets(from:) needs startTracking() first")
        return ChangeSetSequence(controller: self, commits: commits) { _ in nil }
    }
}

/// The change sets of a tracking ``FetchedResultsController``, as `Commits` wakes it up: see
/// `FetchedResultsController.changeSets(from:)`.
public struct ChangeSetSequence<Entity: FetchableEntity, Commits: AsyncSequence>: AsyncSequence {
    public typealias Element = ChangeSet
    public typealias Failure = any Error

    let controller: FetchedResultsController<Entity>
    let commits: Commits
    /// Why the commits ended, when their end is a failure they do not throw (SQLite's monitor's).
    let failure: (Commits.AsyncIterator) -> (any Error)?

    public func makeAsyncIterator() -> Iterator {
        Iterator(controller: controller, commits: commits.makeAsyncIterator(), failure: failure)
    }

    /// Applies pending changes each time a commit is noticed.
    public struct Iterator: AsyncIteratorProtocol {
        let controller: FetchedResultsController<Entity>
        var commits: Commits.AsyncIterator
        let failure: (Commits.AsyncIterator) -> (any Error)?

        public mutating func next() async throws -> ChangeSet? {
            try await next(isolation: nil)
        }

        /// The next change set, applied on `actor`: the iterating task's isolation.
        public mutating func next(isolation actor: isolated (any Actor)?) async throws(any Error) -> ChangeSet? {
            while try await commits.next(isolation: actor) != nil {
                try Task.checkCancellation()
                let changeSet = try await controller.applyPendingChanges()
                if !changeSet.isEmpty { return changeSet }
            }
            // SQLite's database file was deleted or replaced: what the controller shows is no longer it.
            if let failure = failure(commits) { throw failure }
            return nil
        }
    }
}

@available(*, unavailable, message: "It drives a controller, which is used from one task at a time.")
extension ChangeSetSequence: Sendable {}
