import Catalog
import FetchedResults
import Foundation
import SQLiteStore

/// The result the browse screen shows, read from the database: one fetched-results controller per
/// fetch (batch size ``batchSize``, so the first screen reads the section counts and a batch or two),
/// which then starts tracking the database's changes.
final class ResultSource<Record: BrowsableRecord> {
    let catalog: CatalogStore
    /// The controller of the last fetch, and the fetch's version.
    private var controller: FetchedResultsController<Record>?
    private(set) var version = 0

    /// Rows read at a time: a screenful or two, so the first screen reads one or two batches.
    static var batchSize: Int { 50 }

    init(catalog: CatalogStore) {
        self.catalog = catalog
    }

    /// Fetches `order`'s request: section counts, the followed record's place and the rows around it.
    func fetch(_ order: FetchOrder) throws -> ResultArrival {
        let controller = try catalog.fetchedResults(Record.self, order.request, batchSize: Self.batchSize)
        self.controller = controller
        version = order.version
        let summary = try summary(of: controller)
        let layout = SectionLayout(summary.sections)
        let followed = try order.follow.flatMap { try controller.indexPath(forID: $0) }.map(layout.flat(of:))
        let rows = try rows(around: followed ?? 0, window: order.window, controller, layout)
        return ResultArrival(version: order.version, summary: summary, rows: rows, followed: followed)
    }

    /// Starts tracking changes for the last fetch (reading the ids of its whole result); the result
    /// when it differs from the fetched one (a commit came in between), else nil.
    func startTracking(window: Int, selection: Int) throws -> ChangeArrival? {
        guard let controller, !controller.isTracking else { return nil }
        let before = try summary(of: controller)
        try controller.startTracking()
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

    private func summary(of controller: FetchedResultsController<Record>) throws -> ResultSummary {
        let sections = controller.sections.map(Self.summary)
        let hasRecords = sections.isEmpty ? try catalog.count(Record.self) > 0 : true
        return ResultSummary(sections: sections, storeHasRecords: hasRecords)
    }

    private static func summary(_ section: FetchedSection) -> SectionSummary {
        SectionSummary(name: section.name, indexTitle: section.indexTitle, count: section.numberOfObjects)
    }

    private func rows(
        around center: Int, window: Int, _ controller: FetchedResultsController<Record>, _ layout: SectionLayout
    ) throws -> [Int: BrowseRow] {
        try rows((center - window)..<(center + window + 1), controller, layout)
    }

    private func rows(
        _ range: Range<Int>, _ controller: FetchedResultsController<Record>, _ layout: SectionLayout
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
        let formatter = DateFormatter()
        formatter.dateFormat = "HH:mm:ss"
        return formatter.string(from: Date())
    }
}

@available(*, unavailable, message: "It holds a controller, which is used from one task at a time.")
extension ResultSource: Sendable {}
