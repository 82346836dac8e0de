import SQLiteStore

/// What a fetch read: the sections, the batches read with them, and the tracking state when the whole
/// result's ids were read.
struct FetchedResult<Entity: Sendable>: Sendable {
    var sections: [FetchedSection]
    var batches: [BatchKey: Batch<Entity>] = [:]
    var readyToTrack: LiveState?

    /// Whether a batch holds its entities.
    ///
    /// A loop rather than `batches.values.contains { … }`: that generic algorithm, unspecialized for a
    /// generic `Entity`, resolved its iterator's type at run time, whose requirement `BatchKey: Hashable`
    /// scanned every conformance record of the static binary (once a process).
    var hasEntities: Bool {
        for batch in batches.values where batch.entities != nil { return true }
        return false
    }
}

extension FetchedResultsController {
    // MARK: - The whole result in one pass

    /// The sections and the whole result's ids, read in `db` by one pass over the result in order
    /// (``FetchQuery/keysQuery``): a section is a run of rows with equal section keys (equal as SQLite's
    /// `GROUP BY` compares them). For a search, this reads each matching row once, where a `GROUP BY`
    /// for the counts and a query per batch would each read them.
    static func readKeys(
        _ query: FetchQuery<Entity>, _ request: FetchRequest<Entity>, _ db: any SQLConnection
    ) throws -> (sections: [FetchedSection], snapshot: ResultSnapshot) {
        var sections: [FetchedSection] = []
        var snapshot = ResultSnapshot()
        var key: DatabaseValue?
        var ids: [Int64] = []
        func endSection() {
            guard let key, !ids.isEmpty else { return }
            let info = section(key: key, count: ids.count, request)
            sections.append(info)
            snapshot.sections.append(ResultSnapshot.Section(name: info.name, ids: ids))
            ids = []
        }
        let keys = query.keysQuery
        try db.forEachRow(sql: keys.sql, arguments: keys.arguments) { row in
            let rowKey = row.databaseValue(at: 0)
            if key.map({ DatabaseValue.sqliteOrder($0, rowKey) != 0 }) ?? true {
                endSection()
                key = rowKey
            }
            ids.append(try row.decode(Int64.self, at: 1))
        }
        endSection()
        return (sections, snapshot)
    }

    /// The sections and the whole result's ids, read in `db`: for a whole table whose section counts
    /// are maintained, those counts and a query per section (each an index scan); else in one pass
    /// (``readKeys(_:_:_:)``), which evaluates a condition (a search's) once rather than per section.
    static func readSectionsAndSnapshot(
        _ query: FetchQuery<Entity>, _ request: FetchRequest<Entity>, _ db: any SQLConnection
    ) throws -> (sections: [FetchedSection], snapshot: ResultSnapshot) {
        guard query.wholeTableSection != nil, let counts = try query.knownSectionCounts(db) else { return try readKeys(query, request, db) }
        let sections = sections(counts, query, request)
        return (sections, try snapshot(query, sections, db))
    }

    /// Where a tracked result read in `db` stands: SQLite's change log position and schema version,
    /// or PostgreSQL's snapshot.
    ///
    /// - Throws: the engine's error when the change log is not installed.
    static func trackingPosition(_ db: any SQLConnection) throws -> TrackingPosition {
        switch db.dialect {
        case .sqlite:
            let db = sqlite(db)
            return .sqlite(sequence: try ChangeLog.currentSequence(db), schemaVersion: try db.scalar(Int.self, sql: "PRAGMA schema_version") ?? 0)
        case .postgreSQL:
            // Asked, not read: a failed statement would abort the read's transaction.
            let log = try db.fetchRows(sql: "SELECT (to_regclass(?) IS NOT NULL)::int", values: [.text(PostgreSQLChangeLogSchema.tableName)])
            guard log.first?.first == .integer(1) else {
                throw FetchError.invalidRequest("tracking changes needs the change log (\(PostgreSQLChangeLogSchema.tableName)), which the database does not have")
            }
            return try postgreSQLPosition(db)
        }
    }
}
