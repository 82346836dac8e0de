import SQLiteStore
import TextSearch

/// Imports and seeds of several declared entities' files in one transaction: the records of every
/// ``EntitySource`` read one at a time as they are stored, each entity's through an
/// ``EntityImporter`` (a bulk insert into its table), with a progress callback.
///
/// ```swift
/// let report = try EntityFiles.importSources([
///     try EntitySource(path: "recipes.csv", of: Recipe.self),
///     try EntitySource(path: "ingredients.csv", of: Ingredient.self),
/// ], progress: { done in print("\(done) records") }, into: queue)
/// print(report[Ingredient.self])   // 8 inserted, 0 updated, 0 skipped
/// ```
public enum EntityFiles {
    /// The records between two calls of an import's `progress`.
    public static let progressInterval = 1_000

    /// What an import of several sources did, per entity.
    public struct Report: Sendable, Equatable, CustomStringConvertible {
        /// The counts of each entity's records, by its table.
        public var byTable: [String: ImportReport] = [:]

        /// An empty report.
        public init() {}

        /// The counts of `Entity`'s records (zeros when none were given).
        public subscript<Entity: DeclaredEntity>(_ type: Entity.Type) -> ImportReport {
            byTable[Entity.tableName, default: ImportReport()]
        }

        /// The counts of every entity's records, added up.
        public var total: ImportReport {
            byTable.values.reduce(into: ImportReport()) { total, counts in
                total.inserted += counts.inserted
                total.updated += counts.updated
                total.skipped += counts.skipped
            }
        }

        public var description: String {
            byTable.keys.sorted().map { "\($0): \(byTable[$0]!)" }.joined(separator: "; ")
        }
    }

    /// Stores the records of `sources`, read in order one at a time, in one transaction: a record
    /// that cannot be read or stored rolls back everything. The transaction ends with a checkpoint
    /// that empties a `-wal` the load filled (`DatabaseWriter.checkpointAfterBulkLoad(walPages:)`;
    /// one that fails leaves the committed records in the `-wal`, and is not the import's failure).
    ///
    /// A record whose unique key (the first attribute declared `unique: true`) a stored record holds
    /// updates it or is skipped, as `conflicts` says (an import updates, a seed skips); a record
    /// that keeps its id replaces the record with that id or is added with it, and one with another
    /// record's key is a conflict (``EntityFileError/Kind/conflict(_:location:)``).
    ///
    /// New rows are inserted in bulk (`Database.bulkInsert(into:maintaining:triggeredRows:withoutSavepoint:_:)`,
    /// one per entity, nested): past the first `BulkInsert.defaultTriggeredRows` rows of a table, its
    /// search structures, section counts and change log are built for all of them at once before
    /// the transaction commits, and live controllers of the file refetch. On another engine (a
    /// `PostgreSQLCluster`), an ``EntityCopyImporter`` per entity adds them with the engine's bulk load
    /// (`COPY`): gathered and added at the end, or, into an empty table, streamed as they are read.
    ///
    /// - Parameters:
    ///   - sources: the inputs, of any declared entities, read in order.
    ///   - conflicts: what a record whose unique key is taken does: update it (default) or skip it.
    ///   - progress: called with the records stored so far every ``progressInterval`` records.
    ///   - writer: the database written to.
    /// - Returns: what was stored, per entity.
    /// - Throws: ``EntityFileError`` for a record that cannot be read or stored, naming its source and
    ///   where in it; `DatabaseError`. Nothing is written then.
    @discardableResult
    public static func importSources(
        _ sources: [EntitySource], conflicts: ImportConflicts = .update, progress: ((Int) -> Void)? = nil,
        into writer: some StoreWriter
    ) throws -> Report {
        let report = try writer.write { db in try importSources(sources, conflicts: conflicts, progress: progress, db) }
        _ = try? (writer as? any DatabaseWriter)?.checkpointAfterBulkLoad()
        return report
    }

    /// ``importSources(_:conflicts:progress:into:)`` in the caller's transaction (`db`), without the
    /// checkpoint; `triggeredRows` are the rows of each table inserted with their triggers before
    /// the bulk insert suspends them. When it throws, roll back the transaction (as a
    /// `DatabaseWriter`'s `write` does).
    @discardableResult
    public static func importSources(
        _ sources: [EntitySource], conflicts: ImportConflicts = .update, triggeredRows: Int = BulkInsert.defaultTriggeredRows,
        progress: ((Int) -> Void)? = nil, _ db: some SQLConnection
    ) throws -> Report {
        var entities: [any DeclaredEntity.Type] = []
        for source in sources where !entities.contains(where: { ObjectIdentifier($0) == ObjectIdentifier(source.entity) }) {
            entities.append(source.entity)
        }
        let sink = ImportingSink(conflicts: conflicts, progress: progress)
        func feed() throws {
            for source in sources {
                sink.source = source
                try source.feed(sink)
            }
            for (_, importer) in sink.importers { try importer.insertPending() }
        }
        if let db = db as? Database {
            try bulkInserts(entities[...], triggeredRows: triggeredRows, db, sink, feed)
        } else {
            for entity in entities { sink.importers.append((entity.tableName, try entity.copyImporter(db, conflicts: conflicts))) }
            do {
                try feed()
            } catch {
                for (_, importer) in sink.importers { importer.abandon() }
                throw error
            }
        }
        return sink.report
    }

    /// Runs `body` within a bulk insert into the table of each of `entities` (nested, in order), each
    /// entity's importer added to `sink`. Without a savepoint: a failure rolls back the caller's
    /// transaction as a whole.
    private static func bulkInserts(
        _ entities: ArraySlice<any DeclaredEntity.Type>, triggeredRows: Int, _ db: Database, _ sink: ImportingSink,
        _ body: () throws -> Void
    ) throws {
        guard let entity = entities.first else { return try body() }
        func withImporter<Entity: DeclaredEntity>(of type: Entity.Type) throws {
            let structures = (Entity.self as? any SearchableEntity.Type).map { [$0.searchDescription.bulkInsertStructure] } ?? []
            try db.bulkInsert(into: Entity.tableName, maintaining: structures, triggeredRows: triggeredRows, withoutSavepoint: true) { bulk in
                sink.importers.append((Entity.tableName, EntityImporter<Entity>(db, bulk: bulk, conflicts: sink.conflicts)))
                try bulkInserts(entities.dropFirst(), triggeredRows: triggeredRows, db, sink, body)
            }
        }
        try withImporter(of: entity)
    }
}

extension DeclaredEntity {
    /// An ``EntityCopyImporter`` of the entity's records on `db`.
    fileprivate static func copyImporter<Connection: SQLConnection>(
        _ db: Connection, conflicts: ImportConflicts
    ) throws -> any EntityImporting {
        try EntityCopyImporter<Self, Connection>(db, conflicts: conflicts)
    }
}

/// Stores records through the importer of each one's entity (made before any record is read),
/// counting them and calling the progress.
private final class ImportingSink: EntitySink {
    let conflicts: ImportConflicts
    let progress: ((Int) -> Void)?
    /// The importer of each entity's records, with its table, in the order of the entities.
    var importers: [(table: String, importer: any EntityImporting)] = []
    /// The source of the records stored now.
    var source: EntitySource?
    /// The table of the last record stored, and its importer, typed once rather than cast to
    /// `any EntityImporting<Entity>` for each record (W1b on PostgreSQL).
    var lastTable: String?
    var lastImporter: AnyObject?
    var done = 0

    init(conflicts: ImportConflicts, progress: ((Int) -> Void)?) {
        self.conflicts = conflicts
        self.progress = progress
    }

    func add<Entity: DeclaredEntity>(_ record: Entity) throws {
        if lastTable != Entity.tableName {
            // The rows of other entities that this one's may refer to (a recipe of an ingredient)
            // are stored before it: an importer holds new rows back to insert them in bulk.
            for (table, importer) in importers where table != Entity.tableName { try importer.insertPending() }
            lastTable = Entity.tableName
            lastImporter = TypedImporter(importers.first { $0.table == Entity.tableName }!.importer as! any EntityImporting<Entity>)
        }
        try (lastImporter as! TypedImporter<Entity>).importer.add(record, from: source)
        done += 1
        if done % EntityFiles.progressInterval == 0 { progress?(done) }
    }

    var report: EntityFiles.Report {
        var report = EntityFiles.Report()
        for (table, importer) in importers { report.byTable[table] = importer.report }
        return report
    }
}

/// An importer of one entity's records, as ``ImportingSink`` keeps the last one.
private final class TypedImporter<Entity: DeclaredEntity> {
    let importer: any EntityImporting<Entity>

    init(_ importer: any EntityImporting<Entity>) { self.importer = importer }
}
