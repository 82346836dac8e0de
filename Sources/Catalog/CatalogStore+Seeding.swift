import Entities
import SQLiteStore

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
    ///   - progress: called with the records done so far every `EntityFiles.progressInterval` records.
    /// - Throws: `DatabaseError`; nothing is added then.
    @discardableResult
    public func seed(
        _ files: [SeedFile], conflicts: ImportConflicts = .skip, progress: ((Int) -> Void)? = nil
    ) throws -> SeedReport {
        try seed(files.map { SeedSource($0) }, conflicts: conflicts, progress: progress)
    }

    /// Adds the records of the sources, read one at a time as they are stored, in one transaction: a
    /// record that cannot be read or stored rolls back everything
    /// (`EntityFiles.importSources(_:conflicts:triggeredRows:progress:_:)`, which says how new rows
    /// are inserted in bulk). A seed that left `Database.bulkLoadCheckpointPages` or more in the `-wal`
    /// ends with a checkpoint that empties it (`DatabaseWriter.checkpointAfterBulkLoad(walPages:)`);
    /// when that checkpoint fails (a full disk), the committed seed stays in the `-wal`, and closing
    /// the store tries again (`Database.close()` throws its error).
    ///
    /// A record with an `id` (sources drop ids unless opened keeping them) keeps it: the record with
    /// that id is replaced, or it is added with that id; another record with its name is then a
    /// conflict, ``CatalogError/conflictingEntity(path:reason:)`` naming the source and where in it.
    ///
    /// - Parameters:
    ///   - sources: the inputs, read in order, all in the one transaction.
    ///   - conflicts: what to do with a record whose name is taken (by a record with another id): skip
    ///     it or update that record.
    ///   - progress: called with the records done so far every `EntityFiles.progressInterval` records.
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
        let stored = try CatalogError.sayingFileErrors {
            try writer.write { db in
                try EntityFiles.importSources(
                    sources.map(\.records), conflicts: conflicts, triggeredRows: triggeredRows, progress: progress, db)
            }
        }
        // The seed is committed: a checkpoint that fails (a full disk) leaves it in the -wal, which the
        // writer's close tries to copy again, and is not the seed's failure.
        _ = try? (writer as? any DatabaseWriter)?.checkpointAfterBulkLoad(walPages: checkpointPages)
        var report = SeedReport()
        for entity in EntityKind.allCases {
            let counts = stored.byTable[entity.entityType.tableName, default: ImportReport()]
            if counts.inserted > 0 { report.inserted[entity] = counts.inserted }
            report.skipped += counts.skipped
            report.updated += counts.updated
        }
        return report
    }
}
