import SQLiteStore

/// Which batch: a section and the batch's index within it.
struct BatchKey: Hashable {
    var section: Int
    var index: Int
}

/// A batch of rows read from the database: their ids, the sort key of the last one (to read the
/// next batch by keyset), and, unless evicted, their entities.
struct Batch<Entity: Sendable>: Sendable {
    var ids: [Int64]
    var lastSortKey: [DatabaseValue]
    var entities: [Entity]?
}

extension FetchedResultsController {
    /// The rows of a batch: the batch size, or a whole section without one.
    func batchLength(inSection section: Int) -> Int {
        request.batchSize > 0 ? request.batchSize : max(sections[section].numberOfObjects, 1)
    }

    /// The batch holding `path`, and the row's offset in it.
    func batchPosition(of path: ItemPath) -> (key: BatchKey, offset: Int) {
        let length = batchLength(inSection: path.section)
        return (BatchKey(section: path.section, index: path.row / length), path.row % length)
    }

    /// The batch, with its entities, read from the database unless loaded; the batch becomes the
    /// most recently used, and the least recently used beyond ``cachedBatchLimit`` lose their entities.
    func batch(_ key: BatchKey) throws -> Batch<Entity> {
        if let batch = loadedBatch(key) { return batch }
        return install(try reader.read(try batchRead(key)), at: key)
    }

    /// ``batch(_:)`` read on a connection's own queue (a pool's reader), cancellably.
    nonisolated(nonsending) func batch(_ key: BatchKey) async throws -> Batch<Entity> {
        if let batch = loadedBatch(key) { return batch }
        return install(try await reader.read(try batchRead(key)), at: key)
    }

    /// The batch if its entities are loaded, made the most recently used.
    private func loadedBatch(_ key: BatchKey) -> Batch<Entity>? {
        guard let batch = batches[key], batch.entities != nil else { return nil }
        touch(key)
        return batch
    }

    /// Keeps a batch just read, as the most recently used.
    private func install(_ batch: Batch<Entity>, at key: BatchKey) -> Batch<Entity> {
        batches[key] = batch
        touch(key)
        evict()
        return batch
    }

    private func touch(_ key: BatchKey) {
        if let index = recentlyUsed.lastIndex(of: key) { recentlyUsed.remove(at: index) }
        recentlyUsed.append(key)
    }

    /// Drops the entities (not the ids) of the least recently used batches beyond the limit.
    private func evict() {
        guard request.batchSize > 0 else { return }
        while recentlyUsed.count > max(cachedBatchLimit, 1) {
            let oldest = recentlyUsed.removeFirst()
            batches[oldest]?.entities = nil
        }
    }

    /// The read of a batch not loaded: its entities by id when its ids are known (tracked, or
    /// evicted), else its rows by keyset from the previous batch's last sort key (`OFFSET` for a jump).
    private func batchRead(_ key: BatchKey) throws -> @Sendable (any SQLConnection) throws -> Batch<Entity> {
        guard let query else { throw FetchError.resultChanged }
        let section = sections[key.section]
        let length = batchLength(inSection: key.section)
        let expected = min(length, section.numberOfObjects - key.index * length)

        if let live {
            // Tracking: the snapshot holds every id; read the batch's entities by id.
            let start = key.index * length
            let ids = Array(live.snapshot.sections[key.section].ids[start..<(start + expected)])
            return { db in try Self.readEntities(of: Batch(ids: ids, lastSortKey: [], entities: nil), query, db) }
        }
        if let known = batches[key] {
            // Evicted: read the entities again by id.
            return { db in try Self.readEntities(of: known, query, db) }
        }

        // Keyset from the previous batch's last row when it is known; OFFSET for a jump (or after a
        // batch read as a source's page, which keeps no sort key).
        let previous = key.index > 0 ? batches[BatchKey(section: key.section, index: key.index - 1)]?.lastSortKey : nil
        let after = previous?.isEmpty == false ? previous : nil
        let sections = self.sections
        return { db in
            // A source that reads its own pages: the batch as such a page.
            if let batch = try Self.sourceBatch(query, sections, key, length: length, countsAreCurrent: false, db) { return batch }
            return try Self.conditionBatch(
                try query.planned(db), section: section.key, expected: expected, after: after,
                offset: after == nil ? key.index * length : 0, db)
        }
    }

    /// The `expected` rows of the section with key `section` after the sort key `after` (keyset), or
    /// from `offset`, read through the planned `query`'s condition in `db`.
    ///
    /// - Throws: ``FetchError/resultChanged`` when fewer rows than `expected` are there.
    static func conditionBatch(
        _ query: FetchQuery<Entity>, section: DatabaseValue, expected: Int, after: [DatabaseValue]?, offset: Int, _ db: any SQLConnection
    ) throws -> Batch<Entity> {
        let rowsQuery = query.rowsQuery(section: section, after: after, limit: expected, offset: offset, withEntities: true)
        let sortKeyCount = query.rowOrder.count
        // Straight into the batch's two arrays; the sort key only of the last row, the only one kept
        // (a whole section without a batch size: no per-row key values, no array of tuples to split).
        var ids: [Int64] = []
        var entities: [Entity] = []
        var lastSortKey: [DatabaseValue] = []
        ids.reserveCapacity(expected)
        entities.reserveCapacity(expected)
        try db.forEachRow(sql: rowsQuery.sql, arguments: rowsQuery.arguments) { row in
            entities.append(try Entity(row: row))
            ids.append(try row.decode(Int64.self, at: row.count - 1))
            if ids.count == expected {
                lastSortKey = (row.count - sortKeyCount..<row.count).map { row.databaseValue(at: $0) }
            }
        }
        guard ids.count == expected, !ids.isEmpty else { throw FetchError.resultChanged }
        return Batch(ids: ids, lastSortKey: lastSortKey, entities: entities)
    }

    /// The whole result of a request without a batch size: its sections with their counts (the
    /// `GROUP BY` of ``readSections(_:_:_:)``, or the maintained counts), then every row in one query,
    /// cut into one batch per section by those counts (``FetchableEntity/readSections(of:arguments:counts:)``,
    /// specialized for the entity). Both read in `db`'s transaction, so they agree; one query over the
    /// table rather than one per section.
    static func readWholeResult(
        _ query: FetchQuery<Entity>, _ request: FetchRequest<Entity>, _ db: any SQLConnection
    ) throws -> ([FetchedSection], [BatchKey: Batch<Entity>]) {
        let sections = try readSections(query, request, db)
        let all = query.allRowsQuery
        let rows = try Entity.readSections(sql: all.sql, arguments: all.arguments, counts: sections.map(\.numberOfObjects), db)
        var batches: [BatchKey: Batch<Entity>] = [:]
        for (section, rows) in rows.enumerated() {
            batches[BatchKey(section: section, index: 0)] = Batch(ids: rows.ids, lastSortKey: [], entities: rows.entities)
        }
        return (sections, batches)
    }

    /// Reads the whole result of ``request`` in one read transaction without keeping it: its sections
    /// and their counts first (given to `sectionsRead`, as `performFetch()` reads them), then every
    /// object in order with its index path (given to `body`), one row at a time. So a result of any
    /// size is written out in the memory of one row (and of the first batch), from one snapshot;
    /// afterwards ``sections`` are those read, and objects are read again by batch when asked for.
    ///
    /// With a ``FetchRequest/batchSize``, the first batch's rows are read as the request's
    /// ``RowSource`` reads a page (a search: through its own indexes, as `performFetch()` reads its
    /// first batch), section after section, so that they come at once whatever the result's size;
    /// then the rest in one query from the last of them (keyset). Without one, or for a source that
    /// reads no page, every row in one query.
    ///
    /// ```swift
    /// try controller.forEachObject(sectionsRead: { print($0.count, "sections") }) { path, player in
    ///     print(path, player.name)
    /// }
    /// ```
    ///
    /// - Throws: ``FetchError``; `DatabaseError` when reading fails; what `sectionsRead` or `body`
    ///   throws, which ends the read.
    /// - Complexity: the sections as `performFetch()` reads them, the first batch as the source's pages,
    ///   then one pass over the rest of the result in order.
    public func forEachObject(
        sectionsRead: ([FetchedSection]) throws -> Void, _ body: (ItemPath, Entity) throws -> Void
    ) throws {
        try forEachObject(countingFirst: true, sectionsRead: sectionsRead) { path, _, entity in try body(path, entity) }
    }

    /// Reads the whole result of ``request`` as ``forEachObject(sectionsRead:_:)`` does, for a caller
    /// that needs each row's section name and index path but no section's count before the rows:
    /// when the request's source does not know its sections' counts without reading its matches,
    /// they are not counted first (a `GROUP BY` that reads every match before the first row); the
    /// rows are then read in one query in order with their section keys, each section's index
    /// found as its first row comes. Afterwards ``sections`` are those read, counted.
    ///
    /// ```swift
    /// try controller.forEachObject { path, sectionName, player in
    ///     print(sectionName, path, player.name)
    /// }
    /// ```
    ///
    /// - Throws: ``FetchError``; `DatabaseError` when reading fails; what `body` throws, which ends
    ///   the read.
    public func forEachObject(_ body: (ItemPath, _ sectionName: String, Entity) throws -> Void) throws {
        try forEachObject(countingFirst: false, sectionsRead: { _ in }, body)
    }

    /// ``forEachObject(sectionsRead:_:)``, each row given with its section's name; with
    /// `countingFirst` false, sections that only a `GROUP BY` would count are found as their rows
    /// come (``forEachKeyedRow(_:_:_:_:)``), and `sectionsRead` is not called.
    private func forEachObject(
        countingFirst: Bool, sectionsRead: ([FetchedSection]) throws -> Void,
        _ body: (ItemPath, String, Entity) throws -> Void
    ) throws {
        let request = self.request
        let (query, sections) = try reader.read { db -> (FetchQuery<Entity>, [FetchedSection]) in
            var query = try FetchQuery(request, deferringCondition: true, db)
            let counts = try query.knownSectionCounts(db)
            let sections: [FetchedSection]
            if let counts {
                sections = Self.sections(counts, query, request)
            } else {
                query = try query.planned(db)
                guard countingFirst else { return (query, try Self.forEachKeyedRow(query, request, db, body)) }
                sections = try Self.countSections(query, request, db)
            }
            try sectionsRead(sections)
            // The first batch as the source's pages, each a section's first rows; `after`, the full key
            // (section key, then sort key) of the last row read, or a whole section's key.
            var start = ItemPath(section: 0, row: 0)
            var after: [DatabaseValue]?
            var budget = request.batchSize
            while budget > 0, start.section < sections.count {
                let section = sections[start.section]
                let limit = min(budget, section.numberOfObjects)
                guard let page = try query.page(
                    section: section.key, limit: limit, offset: 0, count: section.numberOfObjects,
                    ids: counts?.ids?[section.key], db)
                else { break }
                guard page.count == limit else { throw FetchError.resultChanged }
                for (row, entity) in page.enumerated() { try body(ItemPath(section: start.section, row: row), section.name, entity) }
                budget -= limit
                if limit < section.numberOfObjects {
                    guard let id = page.last?.rowID,
                          case let keyQuery = query.sortKeysQuery(ids: [id]),
                          let key = try db.fetchOne(sql: keyQuery.sql, arguments: keyQuery.arguments, { row in
                              (0..<row.count).map { row.databaseValue(at: $0) }
                          })
                    else { throw FetchError.resultChanged }
                    after = query.section == nil ? Array(key.dropFirst()) : key
                    start.row = limit
                    break
                }
                after = [section.key]
                start = ItemPath(section: start.section + 1, row: 0)
            }
            guard start.section < sections.count else { return (query, sections) }
            query = try query.planned(db)
            let rest = query.rowsQuery(after: after)
            let left = [sections[start.section].numberOfObjects - start.row] + sections[(start.section + 1)...].map(\.numberOfObjects)
            try Entity.forEachRow(sql: rest.sql, arguments: rest.arguments, counts: left, db) { path, entity in
                let section = start.section + path.section
                try body(ItemPath(section: section, row: path.section == 0 ? start.row + path.row : path.row), sections[section].name, entity)
            }
            return (query, sections)
        }
        didFetch(query, FetchedResult(sections: sections))
    }

    /// Every row of `query` (planned) in order, read in one query with its section key (the last
    /// column), given to `body` with its index path and section name; returns the sections read,
    /// counted. A section's index is its place among those holding a row, as counted sections' are.
    static func forEachKeyedRow(
        _ query: FetchQuery<Entity>, _ request: FetchRequest<Entity>, _ db: any SQLConnection,
        _ body: (ItemPath, String, Entity) throws -> Void
    ) throws -> [FetchedSection] {
        let all = query.rowsQuery(after: nil, sectionKey: true)
        var keys: [(key: DatabaseValue, count: Int)] = []
        var name = ""
        try db.forEachRow(sql: all.sql, arguments: all.arguments) { row in
            let key = row.databaseValue(at: row.count - 1)
            // A new section where the key changes, compared as `GROUP BY` compares it (1 = 1.0).
            if keys.last.map({ DatabaseValue.sqliteOrder($0.key, key) != 0 }) ?? true {
                keys.append((key, 0))
                name = section(key: key, count: 0, request).name
            }
            try body(ItemPath(section: keys.count - 1, row: keys[keys.count - 1].count), name, try Entity(row: row))
            keys[keys.count - 1].count += 1
        }
        return sections(keys, request)
    }

    /// The batch with its entities read by id in `db`, in the batch's order.
    ///
    /// - Throws: ``FetchError/resultChanged`` when a row is gone (while tracking: a deletion that
    ///   ``applyPendingChanges()`` has not applied yet).
    static func readEntities(of batch: Batch<Entity>, _ query: FetchQuery<Entity>, _ db: any SQLConnection) throws -> Batch<Entity> {
        var known = batch
        let byID = query.entitiesQuery(ids: known.ids)
        let entities = try db.fetchAll(sql: byID.sql, arguments: byID.arguments) { row in try Entity(row: row) }
        let index = Dictionary(entities.compactMap { entity in entity.rowID.map { ($0, entity) } }, uniquingKeysWith: { a, _ in a })
        let ordered = known.ids.compactMap { index[$0] }
        guard ordered.count == known.ids.count else { throw FetchError.resultChanged }
        known.entities = ordered
        return known
    }
}
