import Entities
import RecordFormats

/// The records of one seed or import input, of products or of phones: an `EntitySource` whose
/// errors are said in the catalog's words (``CatalogError``).
///
/// ```swift
/// let source = try SeedSource(path: "products.csv", format: nil, entity: .products)
/// try store.seed([source], conflicts: .update)
/// ```
public struct SeedSource {
    /// The records, as `EntityFiles` reads them.
    public let records: EntitySource
    /// The entity of its records.
    public let entity: EntityKind

    /// The input's name in errors: its path, or `standard input`.
    public var name: String { records.name }

    private init(_ records: EntitySource) {
        self.records = records
        // A catalog source's records are of a catalog entity.
        entity = EntityKind.allCases.first { ObjectIdentifier($0.entityType) == ObjectIdentifier(records.entity) }!
    }

    /// The records of a seed file in memory (checked already).
    public init(_ file: SeedFile, name: String = "seed") {
        func source<Entity: CatalogEntity>(_ type: Entity.Type) -> SeedSource {
            // A file's records are of its kind's entity type (SeedFile.init).
            SeedSource(name: name, records: file.records(of: type)!)
        }
        self = source(file.entity.entityType)
    }

    /// Records in memory or made as they are read (checked already); `name` names them in errors.
    ///
    /// ```swift
    /// try store.seed([SeedSource(records: SyntheticCatalog.ProductSequence(count: 1_000, seed: 7))])
    /// ```
    public init<Records: Sequence>(name: String = "seed", records: Records) where Records.Element: CatalogEntity {
        self.init(EntitySource(name: name, records: records))
    }

    /// Gives every record to `sink`, in order.
    ///
    /// - Throws: ``CatalogError`` for a record that cannot be read or stored, saying where it is;
    ///   what `sink` throws otherwise.
    public func feed(_ sink: any EntitySink) throws {
        try CatalogError.sayingFileErrors { try records.feed(sink) }
    }
}

// MARK: - Files

extension SeedSource {
    /// The records of a file, or of standard input for `-`, read as they are stored.
    ///
    /// - Parameters:
    ///   - path: the file's path, or `-` for standard input.
    ///   - format: the file's format; nil for the one its extension names (`.json`, `.jsonl`/`.ndjson`,
    ///     `.csv`, `.tsv`/`.tab`), else JSON when the text starts with `[` and JSON lines when it
    ///     starts with `{`.
    ///   - entity: the entity the records must be; a record of another entity is an error naming it.
    ///     nil for the one the first record's fields name (phones have a `maker`).
    ///   - keepingIDs: whether the records keep their `id`; otherwise ids are dropped and records get new ones.
    /// - Throws: ``CatalogError/inaccessibleFile(path:reason:)`` when the file cannot be read,
    ///   ``CatalogError/invalidFile(path:reason:)`` for a bad header or unknown format.
    public init(path: String, format: DataFormat?, entity: EntityKind?, keepingIDs: Bool = false) throws {
        self.init(try CatalogError.sayingFileErrors {
            try EntitySource(path: path, format: format, of: entity?.entityType, among: Self.entityTypes, keepingIDs: keepingIDs)
        })
    }

    /// The records in `input`, named `name` in errors; see ``init(path:format:entity:keepingIDs:)``.
    public init(name: String, input: ByteInput, format: DataFormat?, entity: EntityKind?, keepingIDs: Bool = false) throws {
        self.init(try CatalogError.sayingFileErrors {
            try EntitySource(name: name, input: input, format: format, of: entity?.entityType, among: Self.entityTypes, keepingIDs: keepingIDs)
        })
    }

    /// The catalog's entity types, products first: a file whose fields are all products' holds products.
    private static var entityTypes: [any DeclaredEntity.Type] { EntityKind.allCases.map { $0.entityType } }
}

extension CatalogError {
    /// What `body` returns, an `EntityFileError` it throws said in the catalog's words: a taken
    /// name as ``duplicateName(entity:name:)``; a record of the other entity, or a file of no known
    /// format, with the option that reads it.
    static func sayingFileErrors<Result>(_ body: () throws -> Result) throws -> Result {
        do {
            return try body()
        } catch let error as EntityFileError {
            throw CatalogError(error)
        }
    }

    init(_ error: EntityFileError) {
        switch error.kind {
        case .inaccessible:
            self = .inaccessibleFile(path: error.path, reason: error.reason)
        case .conflict(let key, let location) where EntityKind(rawValue: key.table) != nil:
            let taken = CatalogError.duplicateName(entity: EntityKind(rawValue: key.table)!, name: key.value)
            self = .conflictingEntity(path: error.path, reason: "\(location): \(taken)")
        case .otherEntity(let table, let expected, let line, let record):
            guard let other = EntityKind(rawValue: table), let expected = EntityKind(rawValue: expected) else {
                self = .invalidFile(path: error.path, reason: error.reason)
                return
            }
            let name = record.map { " \(String(reflecting: $0))" } ?? ""
            self = .invalidFile(
                path: error.path,
                reason: "line \(line): record\(name) is a \(other.singular), not a \(expected.singular) (for \(other.rawValue), give --entity \(other.rawValue))")
        case .conflict:
            self = .conflictingEntity(path: error.path, reason: error.reason)
        case .unknownFormat:
            self = .invalidFile(path: error.path, reason: "cannot tell its format from its name or first character: give --format json, jsonl, csv or tsv")
        case .invalid:
            self = .invalidFile(path: error.path, reason: error.reason)
        }
    }
}
