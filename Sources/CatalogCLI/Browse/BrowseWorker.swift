import Catalog
import Synchronization

/// Does the database work of the browse screen's effects away from the task that reads keys and
/// draws, so that typing never waits for a query; answers are ``BrowseEvent``s.
///
/// Each fetch runs in a task of its own, which the next fetch cancels: a fetch that a newer one
/// replaces stops where it is (its running statement is interrupted; one waiting for a reader stops
/// waiting; one not started never starts) and answers nothing, and so does the tracking that
/// follows it. The screen model drops any answer to an older fetch that still arrives.
actor BrowseWorker {
    let catalog: CatalogStore
    /// A result source per entity, and the entity of the last fetch.
    private let sources: [EntityKind: any EntityResultSource]
    private var entity: EntityKind = .products
    /// The task of the newest fetch, with the tracking that follows it.
    private let newestFetch = Mutex<Task<Void, Never>?>(nil)

    init(catalog: CatalogStore) {
        self.catalog = catalog
        sources = EntityKind.resultSources(catalog)
    }

    /// Fetches the order's request, then starts tracking changes to it, in a task of its own that
    /// gives `send` the events of each step; cancels the fetch asked for before.
    ///
    /// - Returns: the task, which ends once both steps have answered or been cancelled.
    @discardableResult
    nonisolated func fetch(_ order: FetchOrder, send: @escaping @Sendable ([BrowseEvent]) -> Void) -> Task<Void, Never> {
        newestFetch.withLock { newest in
            newest?.cancel()
            let task = Task {
                send(await self.fetched(order))
                guard !Task.isCancelled else { return }
                send(await self.tracked(order))
            }
            newest = task
            return task
        }
    }

    /// The result of the order's request, or nothing once the task is cancelled.
    private func fetched(_ order: FetchOrder) async -> [BrowseEvent] {
        await catching {
            entity = order.request.entity
            return [.resultArrived(try await source.fetch(order))]
        }
    }

    /// Starts tracking the last fetch; an event when the result changed in between.
    private func tracked(_ order: FetchOrder) async -> [BrowseEvent] {
        await catching {
            let arrival = try await source.startTracking(window: order.window, selection: order.fallback)
            return arrival.map { [.changesApplied($0)] } ?? []
        }
    }

    /// Reads rows of the current result.
    func rows(stamp: Int, range: Range<Int>) -> [BrowseEvent] {
        catching {
            [.rowsLoaded(stamp: stamp, rows: try source.rows(range))]
        }
    }

    /// Applies noticed commits to the current result.
    func applyChanges(_ order: FetchOrder) -> [BrowseEvent] {
        catching {
            [try source.applyChanges(order).map(BrowseEvent.changesApplied) ?? .nothingChanged]
        }
    }

    /// Deletes a record.
    func delete(entity: EntityKind, id: Int64) -> [BrowseEvent] {
        catching { [.deleted(try catalog.deleteEntity(of: entity, id: id))] }
    }

    /// The source of the last fetch's entity.
    private var source: any EntityResultSource { sources[entity]! }

    private func catching(_ body: () throws -> [BrowseEvent]) -> [BrowseEvent] {
        do {
            return try body()
        } catch {
            return [.failed("error: " + explain(error).0)]
        }
    }

    /// The events of `body`, none when it was cancelled, or the error it threw.
    private func catching(_ body: () async throws -> [BrowseEvent]) async -> [BrowseEvent] {
        do {
            return try await body()
        } catch is CancellationError {
            return []
        } catch {
            return [.failed("error: " + explain(error).0)]
        }
    }
}
