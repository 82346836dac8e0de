import SQLiteStore

/// What a controller that tracks changes keeps: the whole result as ids, and where in the store's
/// change log that result stands.
struct LiveState {
    var snapshot: ResultSnapshot
    var position: TrackingPosition
    var statistics = TrackingStatistics()
}

/// Where a tracked result stands in its engine's change log.
enum TrackingPosition: Sendable {
    /// SQLite's `ChangeLog` sequence, and the schema version (a schema change is no row event).
    case sqlite(sequence: Int64, schemaVersion: Int)
    /// A PostgreSQL transaction snapshot (`PostgreSQLChangeLogSchema`): the changes after it are
    /// those of the transactions it did not see.
    case postgreSQL(snapshot: String)
}

/// How a tracking controller has kept up with the database.
public struct TrackingStatistics: Sendable, Hashable {
    /// Change sets computed by moving only the changed rows.
    public var incrementalUpdates = 0
    /// Change sets computed by refetching the whole result and diffing it (the fallback: a gap in the
    /// change log, a schema change, a request with a limit or offset, or more changed rows than
    /// ``FetchedResultsController/incrementalLimit``).
    public var refetches = 0
    /// Rows read again to place changed rows (the searches' probes included).
    public var rowsRead = 0
}

extension FetchedResultsController {
    // MARK: - Tracking changes

    /// Fetches the request and starts tracking the database's changes: reads the sections, the ids of
    /// the whole result (8 bytes a row) and the change log's position, in one read transaction.
    ///
    /// The database must have the store's change log installed for the entity's table
    /// (`ChangeLog/installTracking(forTable:_:)`). Then, whenever it changes — through any
    /// connection, in any process — `applyPendingChanges()` brings the controller up to date and
    /// returns the change set; `changeSets(from:)` does it as each commit is noticed.
    ///
    /// After a `performFetch()` that read the whole result's ids (as its ``RowSource`` chose:
    /// ``FirstRead/onePass``, ``FirstRead/wholeSections``), this installs what that fetch read, with its change-log position, and reads
    /// nothing: `applyPendingChanges()` then brings it up to date.
    ///
    /// - Throws: ``FetchError`` for a request that cannot be translated, `DatabaseError` (for instance
    ///   when the change log is missing).
    public func startTracking() throws {
        if startTrackingFetchedResult() { return }
        let request = self.request
        let (query, result) = try reader.read { db in
            let query = try FetchQuery(request, db)
            return (query, try Self.readTrackedResult(query, request, db))
        }
        didStartTracking(query, result)
    }

    /// Fetches the request and starts tracking like ``startTracking()``, on a connection's own queue,
    /// suspending the calling task meanwhile.
    ///
    /// - Throws: `CancellationError` when the calling task is cancelled before the read ends;
    ///   ``FetchError``; `DatabaseError`.
    nonisolated(nonsending) public func startTracking() async throws {
        if startTrackingFetchedResult() { return }
        let request = self.request
        let (query, result) = try await reader.read { db in
            let query = try FetchQuery(request, db)
            return (query, try Self.readTrackedResult(query, request, db))
        }
        didStartTracking(query, result)
    }

    /// The sections, the whole result's ids and the change log's position, read in one transaction.
    private static func readTrackedResult(
        _ query: FetchQuery<Entity>, _ request: FetchRequest<Entity>, _ db: any SQLConnection
    ) throws -> (sections: [FetchedSection], live: LiveState) {
        let position = try trackingPosition(db)
        let (sections, snapshot) = try readSectionsAndSnapshot(query, request, db)
        return (sections, LiveState(snapshot: snapshot, position: position))
    }

    private func didStartTracking(_ query: FetchQuery<Entity>, _ result: (sections: [FetchedSection], live: LiveState)) {
        self.query = query
        sections = result.sections
        live = result.live
        readyToTrack = nil
        batches = [:]
        recentlyUsed = []
    }

    /// Starts tracking with what the last fetch read (``readyToTrack``), if it read it; whether it did.
    private func startTrackingFetchedResult() -> Bool {
        guard let ready = readyToTrack else { return false }
        readyToTrack = nil
        live = ready
        return true
    }

    /// Whether the controller tracks changes (`startTracking()` was called since the last
    /// `performFetch()`).
    public var isTracking: Bool { live != nil }

    /// The change-log position the controller's result reflects, while tracking.
    public var changeLogPosition: Int64? {
        guard case .sqlite(let sequence, _) = live?.position else { return nil }
        return sequence
    }

    /// How the controller kept up so far, while tracking.
    public var trackingStatistics: TrackingStatistics? { live?.statistics }

    /// The whole result as ids, while tracking.
    public var trackedSnapshot: ResultSnapshot? { live?.snapshot }

    /// The most changed rows of the entity's table that one change set moves one by one; above it, the
    /// controller refetches and diffs, which is then cheaper.
    public static var incrementalLimit: Int { 256 }

    /// Brings the controller up to date with every commit since its last update, and reports the
    /// change set (empty when no committed change touched the result).
    ///
    /// In one read transaction it reads the change log after its position; if the entity's table has
    /// changed rows, it re-reads only those (and the rows the search for their places compares them
    /// with, a few reads in all) and moves them in its snapshot (``ResultSnapshot/update(changedIDs:from:)``). When that cannot be
    /// trusted — a gap in the log, a schema change, a request with a limit or offset, too many changed
    /// rows — it refetches the whole result and diffs it (``ChangeSet/init(from:to:updatedIDs:)``),
    /// counted in ``trackingStatistics``. Then it tells the ``delegate``.
    ///
    /// - Precondition: ``isTracking``.
    /// - Throws: `DatabaseError`, ``FetchError``; the controller is unchanged then.
    /// - Complexity: one pass over the n tracked ids and a few reads of O(k) rows each for k changed
    ///   rows, when incremental (``ResultSnapshot/update(changedIDs:from:)``).
    @discardableResult
    public func applyPendingChanges() throws -> ChangeSet {
        guard let live, let query else { preconditionFailure("applyPendingChanges() needs startTracking() first") }
        let (request, sections) = (self.request, self.sections)
        return didReadChanges(try reader.read { db in try Self.readChanges(live, query, request, sections, db) })
    }

    /// Brings the controller up to date like ``applyPendingChanges()``, on a connection's own queue,
    /// suspending the calling task meanwhile: what `changeSets(from:)` calls at each commit.
    ///
    /// - Precondition: ``isTracking``.
    /// - Throws: `CancellationError` when the calling task is cancelled before the read ends;
    ///   `DatabaseError`; ``FetchError``. The controller is unchanged then.
    @discardableResult
    nonisolated(nonsending) public func applyPendingChanges() async throws -> ChangeSet {
        guard let live, let query else { preconditionFailure("applyPendingChanges() needs startTracking() first") }
        let (request, sections) = (self.request, self.sections)
        return didReadChanges(try await reader.read { db in try Self.readChanges(live, query, request, sections, db) })
    }

    /// What the commits after `live`'s position changed, read in one transaction: the new tracking
    /// state, and the change set with the new sections and query, or nil when the result is unchanged.
    private static func readChanges(
        _ live: LiveState, _ query: FetchQuery<Entity>, _ request: FetchRequest<Entity>, _ oldSections: [FetchedSection],
        _ db: any SQLConnection
    ) throws -> (live: LiveState, change: (ChangeSet, [FetchedSection], FetchQuery<Entity>)?) {
        var live = live
        let old = live.snapshot
        let changes: (next: TrackingPosition?, ids: Set<Int64>, isComplete: Bool, schemaChanged: Bool)
        var placementsRead: [ArraySlice<DatabaseValue>]?
        if case .postgreSQL(let snapshot) = live.position, query.isPlanned, query.isIncrementallyMaintainable {
            // The changed rows' placements in the same statement as the log's entries, unless so many
            // changed that the result is fetched again.
            let read = query.changesWithPlacementsQuery(after: snapshot, placingAtMost: Self.incrementalLimit)
            let rows = try db.fetchRows(sql: read.sql, values: read.arguments.values)
            let entries = rows.prefix { $0[0] == .integer(0) }.map { Array($0.dropFirst()) }
            changes = try postgreSQLChanges(entries)
            if entries.count <= Self.incrementalLimit {
                placementsRead = rows.dropFirst(entries.count).map { $0.dropFirst(1 + PostgreSQLChangeLogSchema.changesColumnCount) }
            }
        } else {
            changes = try Self.changes(after: live.position, db)
        }
        guard let next = changes.next else { return (live, nil) }
        live.position = next
        let changedIDs = changes.ids
        let mustRefetch = changes.schemaChanged || !changes.isComplete
            || !query.isIncrementallyMaintainable || changedIDs.count > Self.incrementalLimit
        if mustRefetch {
            let newQuery = try FetchQuery(request, db)
            let (newSections, snapshot) = try readSectionsAndSnapshot(newQuery, request, db)
            // Without a complete log every row that stays may have changed: report them all.
            let updated = changes.isComplete ? changedIDs : Set(old.sections.flatMap(\.ids))
            live.snapshot = snapshot
            live.statistics.refetches += 1
            return (live, (ChangeSet(from: old, to: snapshot, updatedIDs: updated), newSections, newQuery))
        }
        if changedIDs.isEmpty { return (live, nil) }
        // (Tracking what a fetch read leaves its deferred condition to plan here, at the first change.)
        let query = try query.planned(db)
        let source = SQLRowPlacing(query: query, db: db, placementsRead: placementsRead) { key in section(key: key, count: 0, request).name }
        let changeSet = try live.snapshot.update(changedIDs: changedIDs, from: source)
        live.statistics.incrementalUpdates += 1
        live.statistics.rowsRead += changedIDs.count + source.probes
        let byName = Dictionary(oldSections.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        let newSections = live.snapshot.sections.map { section -> FetchedSection in
            var info = byName[section.name] ?? Self.section(key: source.sectionKeys[section.name]!, count: 0, request)
            info.numberOfObjects = section.ids.count
            return info
        }
        return (live, (changeSet, newSections, query))
    }

    /// The rows of the entity's table changed after `position` in the engine's change log, read in
    /// `db`: nil `next` when nothing changed since; whether the log still holds every change since
    /// (SQLite's prunes); whether the schema changed (SQLite's schema version).
    private static func changes(
        after position: TrackingPosition, _ db: any SQLConnection
    ) throws -> (next: TrackingPosition?, ids: Set<Int64>, isComplete: Bool, schemaChanged: Bool) {
        switch position {
        case .sqlite(let sequence, let schemaVersion):
            let db = sqlite(db)
            let version = try db.scalar(Int.self, sql: "PRAGMA schema_version") ?? 0
            let changes = try ChangeLog.changes(after: sequence, db)
            if changes.isEmpty && version == schemaVersion { return (nil, [], true, false) }
            return (.sqlite(sequence: changes.toSequence, schemaVersion: version), changes.rowIDs(inTable: Entity.tableName),
                    changes.isComplete, version != schemaVersion)
        case .postgreSQL(let snapshot):
            let rows = try db.fetchRows(sql: PostgreSQLChangeLogSchema.changesSQL, values: [.text(snapshot)])
            return try postgreSQLChanges(rows)
        }
    }

    /// ``changes(after:_:)`` from the rows of ``PostgreSQLChangeLogSchema/changesSQL``.
    private static func postgreSQLChanges(
        _ rows: [[DatabaseValue]]
    ) throws -> (next: TrackingPosition?, ids: Set<Int64>, isComplete: Bool, schemaChanged: Bool) {
        let isComplete = rows.first?.first == .integer(0)  // else pruned past the position
        if isComplete && rows.allSatisfy({ $0[1] == .null }) { return (nil, [], true, false) }
        let next = TrackingPosition.postgreSQL(snapshot: try PostgreSQLChangeLogSchema.position(rows.first?[5]))
        var ids: Set<Int64> = []
        for row in rows {
            if case .text(Entity.tableName) = row[2], case .integer(let id) = row[3] { ids.insert(id) }
        }
        return (next, ids, isComplete, false)
    }

    /// Where the PostgreSQL change log stands now, in `db`'s snapshot.
    static func postgreSQLPosition(_ db: any SQLConnection) throws -> TrackingPosition {
        .postgreSQL(snapshot: try PostgreSQLChangeLogSchema.position(
            try db.fetchRows(sql: PostgreSQLChangeLogSchema.currentPositionSQL, values: []).first?.first))
    }

    /// Installs what ``readChanges(_:_:_:_:_:)`` read and tells the delegate.
    private func didReadChanges(_ result: (live: LiveState, change: (ChangeSet, [FetchedSection], FetchQuery<Entity>)?)) -> ChangeSet {
        live = result.live
        guard let (changeSet, newSections, newQuery) = result.change else { return ChangeSet() }
        query = newQuery
        sections = newSections
        batches = [:]
        recentlyUsed = []
        if !changeSet.isEmpty { notifyDelegate(of: changeSet) }
        return changeSet
    }

    private func notifyDelegate(of changeSet: ChangeSet) {
        guard let delegate else { return }
        delegate.controllerWillChangeContent()
        for section in changeSet.deletedSections { delegate.controllerDidChangeSection(section, isInsertion: false) }
        for section in changeSet.insertedSections { delegate.controllerDidChangeSection(section, isInsertion: true) }
        for change in changeSet.changes { delegate.controllerDidChangeObject(change) }
        delegate.controllerDidChangeContent(changeSet)
    }
}
