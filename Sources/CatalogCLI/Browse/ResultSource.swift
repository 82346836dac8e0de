import Catalog
import FetchedResults
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import SQLiteStore

/// The result the browse screen shows, read from the database: one fetched-results controller per
/// fetch (batch size ``batchSize``, so the first screen reads the section counts and a batch or two),
/// which then starts tracking the database's changes.
final class ResultSource<Entity: CatalogEntity>: EntityResultSource {
    let catalog: CatalogStore
    /// The controller of the last fetch, and the fetch's version.
    private var controller: FetchedResultsController<Entity>?
    private(set) var version = 0
    /// How long the controller's `performFetch()` took in the last synchronous fetch (the browse
    /// benchmark's breakdown).
    private(set) var lastControllerFetch = Duration.zero

    /// Rows read at a time: a screenful or two, so the first screen reads one or two batches.
    static var batchSize: Int { 50 }

    init(catalog: CatalogStore) {
        self.catalog = catalog
    }

    /// Fetches `order`'s request: section counts, the followed record's place and the rows around it.
    func fetch(_ order: FetchOrder) throws -> ResultArrival {
        lastControllerFetch = .zero
        let request = try order.request.request(Entity.self)
        let start = ContinuousClock.now
        let controller = try catalog.fetchedResults(request, batchSize: Self.batchSize)
        lastControllerFetch = ContinuousClock.now - start
        return try show(controller, order, place(order, controller, summary(of: controller)))
    }

    /// ``fetch(_:)-(FetchOrder)`` on the pool's readers, cancellably: the result's sections and the
    /// batches of the rows to show are read while the task is suspended, and a cancelled task
    /// interrupts the statement running and keeps nothing (the previous result stays).
    ///
    /// - Throws: `CancellationError`; what reading throws.
    nonisolated(nonsending) func fetch(_ order: FetchOrder) async throws -> ResultArrival {
        let controller = try await catalog.fetchedResults(try order.request.request(Entity.self), batchSize: Self.batchSize)
        let place = try place(order, controller, await summary(of: controller))
        for flat in Self.window(around: place.followed ?? 0, order.window, place.layout) {
            do {
                _ = try await controller.object(at: place.layout.path(of: flat))
            } catch FetchError.resultChanged {
                break  // as in `rows`: the change set that follows brings them
            }
        }
        try Task.checkCancellation()
        // A fetch that overtook this one while it was suspended may have answered first.
        guard order.version >= version else { throw CancellationError() }
        return try show(controller, order, place)
    }

    /// Where a fetched result, whose summary is `summary`, puts the followed record: its sections and
    /// its flat position.
    private func place(
        _ order: FetchOrder, _ controller: FetchedResultsController<Entity>, _ summary: ResultSummary
    ) throws -> (summary: ResultSummary, layout: SectionLayout, followed: Int?) {
        let layout = SectionLayout(summary.sections)
        let followed = try order.follow.flatMap { try controller.indexPath(forID: $0) }.map(layout.flat(of:))
        return (summary, layout, followed)
    }

    /// Makes `controller` the current result and reads the rows around the followed one.
    private func show(
        _ controller: FetchedResultsController<Entity>, _ order: FetchOrder,
        _ place: (summary: ResultSummary, layout: SectionLayout, followed: Int?)
    ) throws -> ResultArrival {
        self.controller = controller
        version = order.version
        let rows = try rows(around: place.followed ?? 0, window: order.window, controller, place.layout)
        return ResultArrival(version: order.version, summary: place.summary, rows: rows, followed: place.followed)
    }

    /// Starts tracking changes for the last fetch (reading the ids of its whole result); the result
    /// when it differs from the fetched one (a commit came in between), else nil.
    func startTracking(window: Int, selection: Int) throws -> ChangeArrival? {
        guard let controller, !controller.isTracking else { return nil }
        let before = try summary(of: controller)
        try controller.startTracking()
        return try refreshed(controller, since: before, window: window, selection: selection)
    }

    /// ``startTracking(window:selection:)-(Int,Int)`` on a pool's reader, cancellably: a cancelled
    /// task interrupts the read of the ids and leaves the result untracked.
    ///
    /// - Throws: `CancellationError`; what reading throws.
    nonisolated(nonsending) func startTracking(window: Int, selection: Int) async throws -> ChangeArrival? {
        guard let controller, !controller.isTracking else { return nil }
        let before = try await summary(of: controller)
        try await controller.startTracking()
        return try refreshed(controller, since: before, window: window, selection: selection)
    }

    /// The result once tracking started, when it differs from `before`.
    private func refreshed(
        _ controller: FetchedResultsController<Entity>, since before: ResultSummary, window: Int, selection: Int
    ) throws -> ChangeArrival? {
        let after = try summary(of: controller)
        guard before != after else { return nil }
        let layout = SectionLayout(after.sections)
        let rows = try rows(around: selection, window: window, controller, layout)
        return ChangeArrival(
            version: version, summary: after, rows: rows, followed: nil, description: "refreshed", time: Self.now())
    }

    /// The rows at flat positions `range` of the last fetch.
    func rows(_ range: Range<Int>) throws -> [Int: BrowseRow] {
        guard let controller else { return [:] }
        let layout = SectionLayout(controller.sections.map(Self.summary))
        return try rows(range.clamped(to: 0..<layout.count), controller, layout)
    }

    /// Applies the commits since the last change set, following `order.follow`.
    func applyChanges(_ order: FetchOrder) throws -> ChangeArrival? {
        guard let controller, order.version == version else { return nil }
        var description = "refreshed"
        if controller.isTracking {
            let changeSet = try controller.applyPendingChanges()
            if changeSet.isEmpty { return nil }
            description = Self.describe(changeSet)
        } else {
            try controller.startTracking()
        }
        let summary = try summary(of: controller)
        let layout = SectionLayout(summary.sections)
        let followed = try order.follow.flatMap { try controller.indexPath(forID: $0) }.map(layout.flat(of:))
        let center = followed ?? min(order.fallback, max(0, layout.count - 1))
        let rows = try rows(around: center, window: order.window, controller, layout)
        return ChangeArrival(
            version: order.version, summary: summary, rows: rows, followed: followed, description: description,
            time: Self.now())
    }

    // MARK: - Reading

    /// The result's sections, and, when it has none, whether the table has records (an empty store
    /// and a search that matched nothing are different screens).
    private func summary(of controller: FetchedResultsController<Entity>) throws -> ResultSummary {
        let sections = controller.sections.map(Self.summary)
        return ResultSummary(sections: sections, storeHasEntities: try !sections.isEmpty || !catalog.isEmpty(Entity.self))
    }

    /// ``summary(of:)-(FetchedResultsController<Entity>)`` on a pool's reader, cancellably.
    nonisolated(nonsending) private func summary(of controller: FetchedResultsController<Entity>) async throws -> ResultSummary {
        let sections = controller.sections.map(Self.summary)
        let hasEntities = sections.isEmpty ? try await !catalog.isEmpty(Entity.self) : true
        return ResultSummary(sections: sections, storeHasEntities: hasEntities)
    }

    private static func summary(_ section: FetchedSection) -> SectionSummary {
        SectionSummary(name: section.name, indexTitle: section.indexTitle, count: section.numberOfObjects)
    }

    private func rows(
        around center: Int, window: Int, _ controller: FetchedResultsController<Entity>, _ layout: SectionLayout
    ) throws -> [Int: BrowseRow] {
        try rows(Self.window(around: center, window, layout), controller, layout)
    }

    /// The flat positions within `window` rows of `center`, in the result.
    private static func window(around center: Int, _ window: Int, _ layout: SectionLayout) -> Range<Int> {
        ((center - window)..<(center + window + 1)).clamped(to: 0..<layout.count)
    }

    private func rows(
        _ range: Range<Int>, _ controller: FetchedResultsController<Entity>, _ layout: SectionLayout
    ) throws -> [Int: BrowseRow] {
        var rows: [Int: BrowseRow] = [:]
        for flat in range.clamped(to: 0..<layout.count) {
            do {
                rows[flat] = try controller.object(at: layout.path(of: flat)).browseRow
            } catch FetchError.resultChanged {
                // A commit not applied yet removed rows: the change set that follows brings them.
                break
            }
        }
        return rows
    }

    /// `1 inserted, 2 deleted` for a change set.
    static func describe(_ changeSet: ChangeSet) -> String {
        var counts: [String: Int] = [:]
        for change in changeSet.changes {
            switch change {
            case .insert: counts["inserted", default: 0] += 1
            case .delete: counts["deleted", default: 0] += 1
            case .move: counts["moved", default: 0] += 1
            case .update: counts["updated", default: 0] += 1
            }
        }
        let parts = ["inserted", "deleted", "moved", "updated"].compactMap { kind in counts[kind].map { "\($0) \(kind)" } }
        return parts.isEmpty ? "sections changed" : parts.joined(separator: ", ")
    }

    /// The time of day, as the status line shows when a change arrived.
    static func now() -> String {
        timeOfDay(time(nil))
    }

    /// `14:05:09`: the local time of day of `time` (seconds since 1970), 24-hour, each part two digits.
    static func timeOfDay(_ time: time_t) -> String {
        var time = time
        var parts = tm()
        guard localtime_r(&time, &parts) != nil else { return "--:--:--" }
        return [parts.tm_hour, parts.tm_min, parts.tm_sec].map { ($0 < 10 ? "0" : "") + String($0) }.joined(separator: ":")
    }
}

@available(*, unavailable, message: "It holds a controller, which is used from one task at a time.")
extension ResultSource: Sendable {}
