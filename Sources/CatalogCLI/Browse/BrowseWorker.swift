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
    private let products: ResultSource<Product>
    private let phones: ResultSource<Phone>
    private var entity: Entity = .products
    /// The task of the newest fetch, with the tracking that follows it.
    private let newestFetch = Mutex<Task<Void, Never>?>(nil)

    init(catalog: CatalogStore) {
        self.catalog = catalog
        products = ResultSource(catalog: catalog)
        phones = ResultSource(catalog: catalog)
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
            return switch entity {
            case .products: [.resultArrived(try await products.fetch(order))]
            case .phones: [.resultArrived(try await phones.fetch(order))]
            }
        }
    }

    /// Starts tracking the last fetch; an event when the result changed in between.
    private func tracked(_ order: FetchOrder) async -> [BrowseEvent] {
        await catching {
            let arrival = switch entity {
            case .products: try await products.startTracking(window: order.window, selection: order.fallback)
            case .phones: try await phones.startTracking(window: order.window, selection: order.fallback)
            }
            return arrival.map { [.changesApplied($0)] } ?? []
        }
    }

    /// Reads rows of the current result.
    func rows(stamp: Int, range: Range<Int>) -> [BrowseEvent] {
        catching {
            let rows = switch entity {
            case .products: try products.rows(range)
            case .phones: try phones.rows(range)
            }
            return [.rowsLoaded(stamp: stamp, rows: rows)]
        }
    }

    /// Applies noticed commits to the current result.
    func applyChanges(_ order: FetchOrder) -> [BrowseEvent] {
        catching {
            let arrival = switch entity {
            case .products: try products.applyChanges(order)
            case .phones: try phones.applyChanges(order)
            }
            return [arrival.map(BrowseEvent.changesApplied) ?? .nothingChanged]
        }
    }

    /// Deletes a record.
    func delete(entity: Entity, id: Int64) -> [BrowseEvent] {
        catching {
            let summary = switch entity {
            case .products: try catalog.delete(Product.self, id: id).summary
            case .phones: try catalog.delete(Phone.self, id: id).summary
            }
            return [.deleted(summary)]
        }
    }

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
