import Catalog
import Synchronization

/// Does the database work of the browse screen's effects, one at a time, away from the task that
/// reads keys and draws, so that typing never waits for a query; answers are ``BrowseEvent``s.
///
/// A fetch that a newer one has replaced before it starts is skipped (``noteRequested(_:)`` is told of
/// each new fetch at once, outside the actor's queue); the screen model drops any answer to an
/// older fetch that still arrives.
actor BrowseWorker {
    let catalog: CatalogStore
    private let products: ResultSource<Product>
    private let phones: ResultSource<Phone>
    private var entity: Entity = .products
    /// The newest fetch asked for.
    private let newestVersion = Atomic<Int>(0)

    init(catalog: CatalogStore) {
        self.catalog = catalog
        products = ResultSource(catalog: catalog)
        phones = ResultSource(catalog: catalog)
    }

    /// Records that fetch `version` was asked for, so that older fetches not started yet are skipped.
    nonisolated func noteRequested(_ version: Int) {
        newestVersion.max(version, ordering: .relaxed)
    }

    /// Fetches the order's request, then starts tracking changes to it: the events to send.
    func fetch(_ order: FetchOrder) -> [BrowseEvent] {
        guard order.version >= newestVersion.load(ordering: .relaxed) else { return [] }
        entity = order.request.entity
        return catching {
            switch entity {
            case .products: [.resultArrived(try products.fetch(order))]
            case .phones: [.resultArrived(try phones.fetch(order))]
            }
        }
    }

    /// Starts tracking the last fetch unless a newer one is waiting; an event when the result changed
    /// in between.
    func startTracking(_ order: FetchOrder) -> [BrowseEvent] {
        guard order.version >= newestVersion.load(ordering: .relaxed) else { return [] }
        return catching {
            let arrival = switch entity {
            case .products: try products.startTracking(window: order.window, selection: order.fallback)
            case .phones: try phones.startTracking(window: order.window, selection: order.fallback)
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
}
