import Entities
import SQLiteStore
import TextSearch

/// What a seed or import added.
///
/// Its JSON form has, for each entity, `<entity>Inserted` (`productsInserted`, `phonesInserted`), then
/// `skipped` and `updated`.
public struct SeedReport: Sendable, Equatable, Codable {
    /// Records added, per entity (none for an entity without a count).
    public var inserted: [EntityKind: Int] = [:]
    /// Records skipped because a record with the same name was already there.
    public var skipped = 0
    /// Existing records (same name) whose fields were replaced, when importing with `ImportConflicts.update`.
    public var updated = 0

    /// An empty report.
    public init() {}

    /// Products added.
    public var productsInserted: Int { inserted[.products, default: 0] }
    /// Phones added.
    public var phonesInserted: Int { inserted[.phones, default: 0] }
    /// Records added, of every entity.
    public var insertedCount: Int { inserted.values.reduce(0, +) }

    private struct Key: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }

        static func inserted(_ entity: EntityKind) -> Key { Key(stringValue: entity.rawValue + "Inserted") }
        static let skipped = Key(stringValue: "skipped")
        static let updated = Key(stringValue: "updated")
    }

    /// Reads a report from its JSON form.
    ///
    /// - Throws: `DecodingError` for a missing or mistyped count.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: Key.self)
        for entity in EntityKind.allCases { inserted[entity] = try container.decode(Int.self, forKey: .inserted(entity)) }
        skipped = try container.decode(Int.self, forKey: .skipped)
        updated = try container.decode(Int.self, forKey: .updated)
    }

    /// Writes the report's JSON form.
    ///
    /// - Throws: what the encoder throws.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: Key.self)
        for entity in EntityKind.allCases { try container.encode(inserted[entity, default: 0], forKey: .inserted(entity)) }
        try container.encode(skipped, forKey: .skipped)
        try container.encode(updated, forKey: .updated)
    }
}

extension CatalogStore {
    /// Adds the records of the files in one transaction, skipping records whose name is already taken,
    /// so that seeding twice adds nothing the second time.
    ///
    /// ```swift
    /// let report = try store.seed(SeedFile.builtIn)  // 9 products, 42 phones
    /// ```
    ///
    /// - Parameters:
    ///   - files: the seed files, saved in order.
    ///   - conflicts: what to do with a record whose name is taken: skip it (default) or update it.
    ///   - progress: called with the records done so far every ``progressInterval`` records.
    /// - Throws: `DatabaseError`; nothing is added then.
    @discardableResult
    public func seed(
        _ files: [SeedFile], conflicts: ImportConflicts = .skip, progress: ((Int) -> Void)? = nil
    ) throws -> SeedReport {
        try seed(files.map { SeedSource($0) }, conflicts: conflicts, progress: progress)
    }

    /// The records between two calls of a seed's progress.
    public static let progressInterval = 1_000

    /// Adds the records of the sources, read one at a time as they are stored, in one transaction: a
    /// record that cannot be read or stored rolls back everything.
    ///
    /// New rows are inserted in bulk (`Database.bulkInsert(into:maintaining:triggeredRows:withoutSavepoint:_:)`): past
    /// the first `BulkInsert.defaultTriggeredRows` of a table, rows are inserted without their search
    /// index, section counts and change-log entries, which are then built for all of them at once,
    /// before the transaction commits. Live controllers of the file refetch after such a seed. A seed
    /// that left `Database.bulkLoadCheckpointPages` or more in the `-wal` ends with a checkpoint that
    /// empties it (`DatabaseWriter.checkpointAfterBulkLoad(walPages:)`); when that checkpoint fails (a
    /// full disk), the committed seed stays in the `-wal`, and closing the store tries again
    /// (`Database.close()` throws its error).
    ///
    /// A record with an `id` (sources drop ids unless opened keeping them) keeps it: the record with
    /// that id is replaced, or it is added with that id; another record with its name is then a
    /// conflict, ``CatalogError/conflictingEntity(path:reason:)`` naming the source and where in it.
    ///
    /// - Parameters:
    ///   - sources: the inputs, read in order, all in the one transaction.
    ///   - conflicts: what to do with a record whose name is taken (by a record with another id): skip
    ///     it or update that record.
    ///   - progress: called with the records done so far every ``progressInterval`` records.
    /// - Throws: ``CatalogError`` for a bad record, saying where it is; `DatabaseError`. Nothing is
    ///   added then.
    @discardableResult
    public func seed(
        _ sources: [SeedSource], conflicts: ImportConflicts = .skip, progress: ((Int) -> Void)? = nil
    ) throws -> SeedReport {
        try seed(sources, conflicts: conflicts, triggeredRows: BulkInsert.defaultTriggeredRows, progress: progress)
    }

    /// ``seed(_:conflicts:progress:)-([SeedSource],_,_)`` with the rows inserted with the triggers before
    /// the bulk insert suspends them (tests use 0, to insert every row in bulk), and the `-wal` pages
    /// from which the seed ends with a checkpoint that empties the `-wal`
    /// (`DatabaseWriter.checkpointAfterBulkLoad(walPages:)`; tests lower it).
    @discardableResult
    func seed(
        _ sources: [SeedSource], conflicts: ImportConflicts, triggeredRows: Int,
        checkpointPages: Int = Database.bulkLoadCheckpointPages, progress: ((Int) -> Void)?
    ) throws -> SeedReport {
        let report = try database.write { db in
            try Self.bulkInserts(EntityKind.allCases[...], triggeredRows: triggeredRows, db) { bulks in
                let sink = BulkSeedSink(db: db, conflicts: conflicts, progress: progress, bulks: bulks)
                for source in sources { try source.feed(sink) }
                return sink.report
            }
        }
        // The seed is committed: a checkpoint that fails (a full disk) leaves it in the -wal, which the
        // writer's close tries to copy again, and is not the seed's failure.
        _ = try? database.checkpointAfterBulkLoad(walPages: checkpointPages)
        return report
    }

    /// Runs `body` within a bulk insert into the table of each of `entities` (nested, in order),
    /// given them by entity.
    private static func bulkInserts(
        _ entities: ArraySlice<EntityKind>, into bulks: [EntityKind: BulkInsert] = [:], triggeredRows: Int, _ db: Database,
        _ body: ([EntityKind: BulkInsert]) throws -> SeedReport
    ) throws -> SeedReport {
        guard let entity = entities.first else { return try body(bulks) }
        let description = entity.searchDescription
        // Without savepoints: the seed's transaction is rolled back as a whole when a record fails.
        return try db.bulkInsert(
            into: description.table, maintaining: [description.bulkInsertStructure], triggeredRows: triggeredRows,
            withoutSavepoint: true
        ) { bulk in
            var bulks = bulks
            bulks[entity] = bulk
            return try bulkInserts(entities.dropFirst(), into: bulks, triggeredRows: triggeredRows, db, body)
        }
    }
}

/// Stores records through an `EntityImporter` per entity (the bulk insert into its table), counting
/// them in one report and saying a taken name in the catalog's words.
private final class BulkSeedSink: SeedSink {
    let progress: ((Int) -> Void)?
    /// The importer of each entity's records: an `EntityImporter` of its entity type.
    let importers: [EntityKind: AnyObject]
    var done = 0

    init(db: Database, conflicts: ImportConflicts, progress: ((Int) -> Void)?, bulks: [EntityKind: BulkInsert]) {
        self.progress = progress
        func importer<Entity: CatalogEntity>(_ type: Entity.Type) -> AnyObject {
            EntityImporter<Entity>(db, bulk: bulks[Entity.kind]!, conflicts: conflicts)
        }
        var importers: [EntityKind: AnyObject] = [:]
        for entity in EntityKind.allCases { importers[entity] = importer(entity.entityType) }
        self.importers = importers
    }

    func add<Entity: CatalogEntity>(_ record: Entity) throws {
        do {
            try importer(Entity.self).add(record)
        } catch is DuplicateKey {
            throw CatalogError.duplicateName(entity: Entity.kind, name: record.name)
        }
        done += 1
        if done % CatalogStore.progressInterval == 0 { progress?(done) }
    }

    private func importer<Entity: CatalogEntity>(_ type: Entity.Type) -> EntityImporter<Entity> {
        // Made for each entity's entity type in `init`.
        importers[Entity.kind] as! EntityImporter<Entity>
    }

    /// What the importers stored: records added per entity, skipped and updated of all.
    var report: SeedReport {
        var report = SeedReport()
        func add<Entity: CatalogEntity>(_ type: Entity.Type) {
            let counts = importer(type).report
            if counts.inserted > 0 { report.inserted[Entity.kind] = counts.inserted }
            report.skipped += counts.skipped
            report.updated += counts.updated
        }
        for entity in EntityKind.allCases { add(entity.entityType) }
        return report
    }
}
