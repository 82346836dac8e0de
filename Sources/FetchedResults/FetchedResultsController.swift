#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import SQLiteStore

/// The sectioned, sorted result of a ``FetchRequest``, read by index path: Core Data's
/// `NSFetchedResultsController` on an SQLite file.
///
/// ```swift
/// let controller = FetchedResultsController(request: request, reader: pool)
/// try await controller.performFetch()   // or, in synchronous code, try controller.performFetch()
/// for (index, section) in controller.sections.enumerated() {
///     print(section.name, section.numberOfObjects)
///     let first = try controller.object(at: ItemPath(section: index, row: 0))
/// }
/// ```
///
/// # Memory model
/// `performFetch()` reads the sections and their counts: one `GROUP BY` query, or, for a whole table
/// whose sections `SectionCounts` maintains, those counts, or the counts the request's
/// ``FetchRequest/filter`` knows (``RowSource/sectionCounts(_:_:)``). With a
/// ``FetchRequest/batchSize`` it reads what the request's ``RowSource`` chooses
/// (``RowSource/firstRead(_:batchSize:)``), in the same read: the first batch through the condition;
/// the first batch as the source's page; each
/// section whole as such pages; or one pass over the matching rows in order, which counts the
/// sections and keeps every row's id (8 bytes a row), so that batches are read by id and
/// `startTracking()` reads nothing more. Rows are then read a batch at a time, when
/// ``object(at:)-6salg`` first asks for one: as the source's page, or by one query that returns the
/// batch's entities, ids and sort keys (keyset pagination from the previous batch's last sort key,
/// `OFFSET` only for a jump). The ids of every batch read stay (8 bytes a row); entities stay for the
/// last ``cachedBatchLimit`` batches used, and older ones are evicted and read again by id when
/// needed. So a result of a million rows holds a few hundred entities, however far it is scrolled.
/// Without a batch size, every entity is loaded by `performFetch()`. To write a whole result out (a
/// listing, an export), ``forEachObject(sectionsRead:_:)`` reads it in one pass and keeps no row.
///
/// Batches read after `performFetch()` see the database as it is then; should it have changed so
/// that a batch no longer fits the sections, the read fails with ``FetchError/resultChanged`` and the
/// result must be fetched again. (Live updates are the next layer's job.)
///
/// Change ``request`` (its search text, predicate or sort) and call `performFetch()` again, as a
/// search bar does.
public final class FetchedResultsController<Entity: FetchableEntity> {
    /// The store rows are read from: a `DatabasePool` (each read on a reader connection, beside
    /// the writer) or a `DatabaseQueue`, or a `PostgreSQLCluster` (each read on a replica that has
    /// the cluster's last write, else on the primary). On PostgreSQL, a declared entity's search
    /// throws, not yet built there.
    public let reader: any StoreReader
    /// The request; a change takes effect at the next `performFetch()`.
    public var request: FetchRequest<Entity> {
        didSet { readyToTrack = nil }
    }
    /// How many batches of entities stay loaded when the request has a batch size (at least 1).
    public var cachedBatchLimit = 4

    /// The sections of the last fetch, in order; empty before the first fetch and for an empty result
    /// (an unsectioned result with rows has one section named "").
    public internal(set) var sections: [FetchedSection] = []

    /// The SQL of the last fetch.
    var query: FetchQuery<Entity>?
    /// The batches read since the last fetch.
    var batches: [BatchKey: Batch<Entity>] = [:]
    /// Keys of the batches holding entities, least recently used first.
    var recentlyUsed: [BatchKey] = []
    /// While tracking changes: the whole result's ids and the change-log position they reflect.
    var live: LiveState?
    /// What the last fetch read for tracking, when it read the whole result's ids (a search, in one
    /// pass): `startTracking()` installs it instead of reading the result again. Nil once the request
    /// changes or tracking starts.
    var readyToTrack: LiveState?
    /// Told of each change set that `applyPendingChanges()` applies, in Core Data's order.
    public weak var delegate: (any FetchedResultsControllerDelegate)?

    /// Creates a controller; nothing is read until `performFetch()`.
    public init(request: FetchRequest<Entity>, reader: any StoreReader) {
        self.request = request
        self.reader = reader
    }

    // MARK: - Fetching

    /// Runs the request: reads the sections and their counts, and, without a batch size, every entity.
    ///
    /// This blocks the calling thread while it reads; from async code, prefer the `async` overload.
    ///
    /// - Throws: ``FetchError`` for a request that cannot be translated, `DatabaseError` when reading
    ///   fails. The previous result stays then.
    /// - Complexity: one `GROUP BY` over the matching rows (an index scan for a sectioned table), or,
    ///   for a whole table whose sections `SectionCounts` counts, a read of one row per section; for a
    ///   search, what its ``RowSource`` chooses (``RowSource/firstRead(_:batchSize:)``).
    public func performFetch() throws {
        let request = self.request
        // Planned inside the read: a search's plan reads its terms' estimates in the same snapshot
        // (and only when the fetch needs its condition: see readResult).
        let (query, result) = try reader.read { db in
            var query = try FetchQuery(request, deferringCondition: true, db)
            let result = try Self.readResult(&query, request, db)
            return (query, result)
        }
        didFetch(query, result)
    }

    /// Runs the request like ``performFetch()``, on a connection's own queue (a pool's reader),
    /// suspending the calling task meanwhile, so that no thread of the cooperative pool waits for
    /// SQLite.
    ///
    /// ```swift
    /// controller.request.searchText = text
    /// try await controller.performFetch()   // a newer keystroke cancels this task: the query stops
    /// ```
    ///
    /// - Throws: `CancellationError` when the calling task is cancelled before the read ends (its
    ///   query is interrupted); ``FetchError``; `DatabaseError`. The previous result stays then.
    nonisolated(nonsending) public func performFetch() async throws {
        let request = self.request
        // Planned inside the read: a search's plan reads its terms' estimates in the same snapshot
        // (and only when the fetch needs its condition: see readResult).
        let (query, result) = try await reader.read { db in
            var query = try FetchQuery(request, deferringCondition: true, db)
            let result = try Self.readResult(&query, request, db)
            return (query, result)
        }
        didFetch(query, result)
    }

    /// The sections of `query`, and every entity when `request` has no batch size, read in `db`.
    ///
    /// Without a batch size: the sections (their known counts, else a `GROUP BY`) and every row. With
    /// one, what the query's rows choose given the counts they know (``RowSource/firstRead(_:batchSize:)``):
    /// the sections and the first batch, read through the condition; the first batch read as the
    /// source's page instead; each section whole as one
    /// such page, with the ids for tracking (``readyToTrack``); or one pass over the result in order
    /// (``readKeys(_:_:_:)``), which counts the sections and gives every batch's ids (read by id
    /// later), with the change log's position when the log is installed (``readyToTrack``). A page the
    /// source does not give is read by that one pass instead.
    ///
    /// A condition that `query` defers is planned here only when this read needs it: not when the
    /// source gives the sections and the batches read.
    static func readResult(
        _ query: inout FetchQuery<Entity>, _ request: FetchRequest<Entity>, _ db: any SQLConnection
    ) throws -> FetchedResult<Entity> {
        if request.batchSize == 0 {
            query = try query.planned(db)
            let (sections, batches) = try readWholeResult(query, request, db)
            return FetchedResult(sections: sections, batches: batches)
        }
        let counts = try query.knownSectionCounts(db)
        switch query.rows.firstRead(counts, batchSize: request.batchSize) {
        case .sections:
            // Planned once: the sections are counted over the condition (unless their counts are
            // known), and the first batch is read through it.
            query = try query.planned(db)
            let sections = try counts.map { Self.sections($0, query, request) } ?? countSections(query, request, db)
            // The first batch too, through the condition, in this read: what a screen shows first
            // comes in one transaction, its rows from the snapshot that counted them (W5).
            guard let section = sections.first, section.numberOfObjects > 0 else { return FetchedResult(sections: sections) }
            let batch = try conditionBatch(
                query, section: section.key, expected: min(request.batchSize, section.numberOfObjects), after: nil, offset: 0, db)
            return FetchedResult(sections: sections, batches: [BatchKey(section: 0, index: 0): batch])
        case .firstBatch:
            guard let counts else { break }
            let sections = sections(counts, query, request)
            let first = BatchKey(section: 0, index: 0)
            guard let section = sections.first else { return FetchedResult(sections: sections) }
            if let batch = try sourceBatch(
                query, sections, first, length: request.batchSize, countsAreCurrent: true, ids: counts.ids?[section.key], db) {
                return FetchedResult(sections: sections, batches: [first: batch])
            }
        case .wholeSections:
            guard let counts else { break }
            if let result = try sourceWholeResult(query, sections(counts, query, request), counts.ids, request, db) { return result }
        case .onePass:
            break
        }
        query = try query.planned(db)
        // The change log's position is optional here: without the log, startTracking() reads and throws.
        let position = try? trackingPosition(db)
        let (sections, snapshot) = try readKeys(query, request, db)
        var batches: [BatchKey: Batch<Entity>] = [:]
        for (section, rows) in snapshot.sections.enumerated() {
            for (index, start) in stride(from: 0, to: rows.ids.count, by: request.batchSize).enumerated() {
                let ids = Array(rows.ids[start..<min(start + request.batchSize, rows.ids.count)])
                batches[BatchKey(section: section, index: index)] = Batch(ids: ids, lastSortKey: [], entities: nil)
            }
        }
        let live = position.map { LiveState(snapshot: snapshot, position: $0) }
        return FetchedResult(sections: sections, batches: batches, readyToTrack: live)
    }

    /// Installs a fetched result.
    func didFetch(_ query: FetchQuery<Entity>, _ result: FetchedResult<Entity>) {
        self.query = query
        sections = result.sections
        batches = result.batches
        recentlyUsed = result.hasEntities ? result.sections.indices.map { BatchKey(section: $0, index: 0) } : []
        live = nil
        readyToTrack = result.readyToTrack
    }

    /// The sections of `query` and their counts, read in `db`: the counts known without reading the
    /// rows (``FetchQuery/knownSectionCounts(_:)``), else a `GROUP BY` over them.
    static func readSections(_ query: FetchQuery<Entity>, _ request: FetchRequest<Entity>, _ db: any SQLConnection) throws -> [FetchedSection] {
        if let counts = try query.knownSectionCounts(db) { return sections(counts, query, request) }
        return try countSections(query, request, db)
    }

    /// The batch `key` of `query` read as its rows' source reads a page (``RowSource/page(_:_:)``);
    /// nil when the source reads none. `countsAreCurrent`: the sections were counted in this read (in
    /// `performFetch()`), so the page need not count its section again; `ids`: the section's ids, read
    /// by the counts in this read (``SectionMatches/ids``), so the page need not select them again.
    ///
    /// - Throws: ``FetchError/resultChanged`` when the page does not fill the batch the sections promise.
    static func sourceBatch(
        _ query: FetchQuery<Entity>, _ sections: [FetchedSection], _ key: BatchKey, length: Int, countsAreCurrent: Bool,
        ids: [Int64]? = nil, _ db: any SQLConnection
    ) throws -> Batch<Entity>? {
        let section = sections[key.section]
        let expected = min(length, section.numberOfObjects - key.index * length)
        guard let entities = try query.page(
            section: section.key, limit: expected, offset: key.index * length,
            count: countsAreCurrent ? section.numberOfObjects : nil, ids: countsAreCurrent ? ids : nil, db)
        else { return nil }
        guard entities.count == expected, !entities.isEmpty else { throw FetchError.resultChanged }
        let ids = entities.map { entity in
            guard let id = entity.rowID else { preconditionFailure("\(Entity.self).init(row:) read no row id") }
            return id
        }
        return Batch(ids: ids, lastSortKey: [], entities: entities)
    }

    /// Every row of `query` whose `sections` its source counted in this read (with their ids,
    /// `matchIDs`, when counting read them), each section read whole as the source's page (as
    /// ``sourceBatch(_:_:_:length:countsAreCurrent:ids:_:)``), cut into batches (the first of each
    /// section keeps its entities, the others their ids), with the ids for tracking; nil when the source
    /// reads no page.
    ///
    /// - Throws: ``FetchError/resultChanged`` when a section's page does not have the rows its count promises.
    static func sourceWholeResult(
        _ query: FetchQuery<Entity>, _ sections: [FetchedSection], _ matchIDs: [DatabaseValue: [Int64]]?,
        _ request: FetchRequest<Entity>, _ db: any SQLConnection
    ) throws -> FetchedResult<Entity>? {
        // The change log's position is optional here: without the log, startTracking() reads and throws.
        let position = try? trackingPosition(db)
        var snapshot: [ResultSnapshot.Section] = []
        var batches: [BatchKey: Batch<Entity>] = [:]
        for (section, info) in sections.enumerated() {
            guard let batch = try sourceBatch(
                query, sections, BatchKey(section: section, index: 0), length: info.numberOfObjects, countsAreCurrent: true,
                ids: matchIDs?[info.key], db)
            else { return nil }
            snapshot.append(ResultSnapshot.Section(name: info.name, ids: batch.ids))
            for (index, start) in stride(from: 0, to: batch.ids.count, by: request.batchSize).enumerated() {
                let end = min(start + request.batchSize, batch.ids.count)
                batches[BatchKey(section: section, index: index)] = Batch(
                    ids: Array(batch.ids[start..<end]), lastSortKey: [], entities: index == 0 ? Array(batch.entities![start..<end]) : nil)
            }
        }
        let live = position.map {
            LiveState(snapshot: ResultSnapshot(sections: snapshot), position: $0)
        }
        return FetchedResult(sections: sections, batches: batches, readyToTrack: live)
    }

    /// The sections of `query` counted by a `GROUP BY` over its rows, in `db`.
    static func countSections(
        _ query: FetchQuery<Entity>, _ request: FetchRequest<Entity>, _ db: any SQLConnection
    ) throws -> [FetchedSection] {
        let sectionsQuery = query.sectionsQuery
        let counts = try db.fetchAll(sql: sectionsQuery.sql, arguments: sectionsQuery.arguments) { row in
            (key: row.databaseValue(at: 0), count: try row.decode(Int.self, at: 1))
        }
        return sections(counts, request)
    }

    /// The sections of known counts, in the order of `query`'s sections.
    static func sections(_ counts: SectionMatches, _ query: FetchQuery<Entity>, _ request: FetchRequest<Entity>) -> [FetchedSection] {
        let descending = query.section?.isDescending ?? false
        let ordered = counts.counts.map { (key: $0.key, count: $0.value) }.sorted { a, b in
            let order = DatabaseValue.sqliteOrder(a.key, b.key)
            return descending ? order > 0 : order < 0
        }
        return sections(ordered, request)
    }

    /// The sections of keys and counts in order, the empty ones left out.
    static func sections(_ counts: [(key: DatabaseValue, count: Int)], _ request: FetchRequest<Entity>) -> [FetchedSection] {
        counts.filter { $0.count > 0 }.map { section(key: $0.key, count: $0.count, request) }
    }

    /// A section's description from its key and its count.
    static func section(key: DatabaseValue, count: Int, _ request: FetchRequest<Entity>) -> FetchedSection {
        let name = request.sectionKeyPath.map { Entity.sectionName(for: key, keyPath: $0) } ?? ""
        return FetchedSection(
            name: name, indexTitle: FetchedSection.indexTitle(forSectionName: name), numberOfObjects: count, key: key)
    }

    // MARK: - Reading the result

    /// The number of objects in all sections.
    public var numberOfObjects: Int { sections.reduce(0) { $0 + $1.numberOfObjects } }

    /// The distinct index titles of the sections, in section order (`D`, `P` for `Desktop`, `Device`,
    /// `Portable`).
    public var sectionIndexTitles: [String] {
        var seen = Set<String>()
        return sections.map(\.indexTitle).filter { seen.insert($0).inserted }
    }

    /// The section a section index title stands for: the first section with that title, or nil when
    /// no section has it (a title from an older result, or one the caller made up).
    ///
    /// ```swift
    /// controller.sectionIndexTitles                        // ["D", "P"]
    /// controller.section(forSectionIndexTitle: "P")        // 2
    /// controller.section(forSectionIndexTitle: "Z")        // nil
    /// ```
    public func section(forSectionIndexTitle title: String) -> Int? {
        sections.firstIndex { $0.indexTitle == title }
    }

    /// Whether `path` names an object of the result.
    public func contains(_ path: ItemPath) -> Bool {
        sections.indices.contains(path.section) && (0..<sections[path.section].numberOfObjects).contains(path.row)
    }

    /// The object at `path`, reading its batch if it is not loaded.
    ///
    /// - Precondition: ``contains(_:)`` is true for `path` (a bad path is a programming error; check
    ///   user input with ``contains(_:)`` first).
    /// - Throws: `DatabaseError`, or ``FetchError/resultChanged`` when the database no longer has the
    ///   rows of the snapshot.
    /// - Complexity: O(1) for a loaded batch; otherwise one query of ``FetchRequest/batchSize`` rows.
    public func object(at path: ItemPath) throws -> Entity {
        precondition(contains(path), "index path \(path) is outside the result")
        let (key, offset) = batchPosition(of: path)
        return try batch(key).entities![offset]
    }

    /// The object at `path`, reading its batch on a connection's own queue (a pool's reader) if it is
    /// not loaded, suspending the calling task meanwhile.
    ///
    /// ```swift
    /// let first = try await controller.object(at: ItemPath(section: 0, row: 0))
    /// ```
    ///
    /// - Precondition: ``contains(_:)`` is true for `path`.
    /// - Throws: `CancellationError` when the calling task is cancelled before the batch is read (its
    ///   query is interrupted; nothing is kept); `DatabaseError`; ``FetchError/resultChanged``.
    /// - Complexity: O(1) for a loaded batch; otherwise one query of ``FetchRequest/batchSize`` rows.
    nonisolated(nonsending) public func object(at path: ItemPath) async throws -> Entity {
        precondition(contains(path), "index path \(path) is outside the result")
        let (key, offset) = batchPosition(of: path)
        return try await batch(key).entities![offset]
    }

    /// The id of the object at `path`.
    ///
    /// - Precondition: ``contains(_:)`` is true for `path`.
    public func id(at path: ItemPath) throws -> Int64 {
        precondition(contains(path), "index path \(path) is outside the result")
        if let live { return live.snapshot.sections[path.section].ids[path.row] }
        let (key, offset) = batchPosition(of: path)
        if let ids = batches[key]?.ids { return ids[offset] }
        return try batch(key).ids[offset]
    }

    /// The index path of `object` in the result, or nil when it is not in it.
    ///
    /// - Throws: `DatabaseError`.
    /// - Complexity: two indexed queries; the second counts the rows before the object in its section.
    public func indexPath(for object: Entity) throws -> ItemPath? {
        guard let id = object.rowID else { return nil }
        return try indexPath(forID: id)
    }

    /// The index path of the row with this id, or nil when it is not in the result.
    ///
    /// The row's place is read from SQL: its section key, then the number of rows ordered before it
    /// in its section. While tracking, it is found in the tracked ids instead.
    public func indexPath(forID id: Int64) throws -> ItemPath? {
        if let live = live ?? readyToTrack { return live.snapshot.path(of: id) }
        guard let query else { return nil }
        let sections = self.sections
        let (planned, path) = try reader.read { db -> (FetchQuery<Entity>, ItemPath?) in
            let query = try query.planned(db)
            let placeQuery = query.placeQuery(id: id)
            guard let place = try db.fetchOne(sql: placeQuery.sql, arguments: placeQuery.arguments, { row in
                (section: row.databaseValue(at: 0), key: (1..<row.count).map { row.databaseValue(at: $0) })
            }) else { return (query, nil) }
            guard let section = sections.firstIndex(where: { $0.key == place.section }) else { return (query, nil) }
            let count = query.countBeforeQuery(section: place.section, key: place.key)
            let row = try db.scalar(Int.self, sql: count.sql, arguments: count.arguments) ?? 0
            return (query, row < sections[section].numberOfObjects ? ItemPath(section: section, row: row) : nil)
        }
        self.query = planned
        return path
    }

    /// Every object of the result, in order.
    ///
    /// This reads the whole result into memory (a batch at a time), which a batch size is meant to
    /// avoid: prefer ``object(at:)-6salg`` for large results.
    public var fetchedObjects: [Entity] {
        get throws {
            var objects: [Entity] = []
            objects.reserveCapacity(numberOfObjects)
            for section in sections.indices { objects += try self.objects(inSection: section) }
            return objects
        }
    }

    /// The objects of a section, in order, reading the batches not loaded. Without a batch size they
    /// are the section's one batch, returned without a copy.
    ///
    /// - Precondition: `section` is an index of ``sections``.
    public func objects(inSection section: Int) throws -> [Entity] {
        precondition(sections.indices.contains(section), "section \(section) is outside the result")
        var objects: [Entity] = []
        var row = 0
        while row < sections[section].numberOfObjects {
            let entities = try batch(batchPosition(of: ItemPath(section: section, row: row)).key).entities!
            if objects.isEmpty { objects = entities } else { objects += entities }
            row += entities.count
        }
        return objects
    }

    /// The row ids of the whole result, read again from the database in one query per section: the
    /// refetch-and-diff reference for live updates.
    ///
    /// - Throws: ``FetchError/resultChanged`` when the rows no longer fit the sections.
    public func snapshot() throws -> ResultSnapshot {
        guard let query else { return ResultSnapshot() }
        let sections = self.sections
        let (planned, snapshot) = try reader.read { db in
            let query = try query.planned(db)
            return (query, try Self.snapshot(query, sections, db))
        }
        self.query = planned
        return snapshot
    }

    /// The row ids of the given sections of `query`, read in `db`.
    static func snapshot(_ query: FetchQuery<Entity>, _ sections: [FetchedSection], _ db: any SQLConnection) throws -> ResultSnapshot {
        ResultSnapshot(sections: try sections.map { info in
            let rows = query.rowsQuery(section: info.key, after: nil, limit: -1, offset: 0, withEntities: false)
            let ids = try db.fetchAll(sql: rows.sql, arguments: rows.arguments) { try $0.decode(Int64.self, at: $0.count - 1) }
            guard ids.count == info.numberOfObjects else { throw FetchError.resultChanged }
            return ResultSnapshot.Section(name: info.name, ids: ids)
        })
    }

    /// `db` as SQLite's connection, for what reads SQLite's own structures (its change log), asked
    /// only where `db`'s dialect (or a position read in it) says it is SQLite's.
    static func sqlite(_ db: any SQLConnection) -> Database {
        guard let db = db as? Database else { preconditionFailure("an SQLite change log position read on another engine") }
        return db
    }

    /// The number of entities held in memory now.
    public var loadedObjectCount: Int { batches.values.reduce(0) { $0 + ($1.entities?.count ?? 0) } }
}

@available(*, unavailable, message: "A controller is used from one task at a time: it caches batches without a lock.")
extension FetchedResultsController: Sendable {}
