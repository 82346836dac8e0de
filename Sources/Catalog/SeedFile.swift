#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Entities
import RecordFormats

/// The records of one entity from a seed file (a JSON array of products or of phones), or given in memory.
///
/// Objects use the records' JSON names (see ``Product`` and ``Phone``); an `id` in the file is ignored.
/// Which entity a file holds is told by its first object's fields: phones have a `maker`. Files of
/// any size, in any `DataFormat`, are read as they are stored through ``SeedSource``.
public struct SeedFile: Sendable, Equatable {
    /// The entity the file holds.
    public let entity: EntityKind
    /// The number of records in the file.
    public let count: Int
    /// The records, an array of `entity`'s entity type.
    private let records: any Sendable

    /// A file of `records`, already checked.
    ///
    /// ```swift
    /// try store.seed([SeedFile(SyntheticCatalog.products(count: 1_000, seed: 7))])
    /// ```
    public init<Entity: CatalogEntity>(_ records: [Entity]) {
        entity = Entity.kind
        count = records.count
        self.records = records
    }

    /// The file's records when they are `Entity`s; nil when the file holds another entity.
    public func records<Entity: CatalogEntity>(of type: Entity.Type) -> [Entity]? {
        records as? [Entity]
    }

    /// Whether two files hold the same entity and equal records in the same order.
    public static func == (left: SeedFile, right: SeedFile) -> Bool {
        func equal<Entity: CatalogEntity>(_ type: Entity.Type) -> Bool {
            left.records(of: type) == right.records(of: type)
        }
        return left.entity == right.entity && equal(left.entity.entityType)
    }

    /// The seeds built into the library from the package's `Seeds/` folder: the nine products of
    /// Apple's sample and a list of real phones.
    public static var builtIn: [SeedFile] {
        EmbeddedFiles.seeds.map { file in
            do { return try SeedFile(data: Data(file.text.utf8), path: file.name) } catch { fatalError("\(error)") }
        }
    }

    /// Reads a seed file from disk, in the format its extension names (JSON when it names none).
    ///
    /// - Throws: ``CatalogError/inaccessibleFile(path:reason:)`` when it cannot be read,
    ///   ``CatalogError/invalidFile(path:reason:)`` when it cannot be parsed.
    public init(contentsOf path: String) throws {
        try self.init(SeedSource(path: path, format: DataFormat(fileName: path) ?? .json, entity: nil))
    }

    /// Parses a seed file's bytes, a JSON array; `path` names it in errors.
    ///
    /// - Throws: ``CatalogError/invalidFile(path:reason:)`` naming the line, column and field at fault.
    public init(data: Data, path: String) throws {
        try self.init(SeedSource(name: path, input: ByteInput(bytes: [UInt8](data)), format: .json, entity: nil))
    }

    /// All the records of `source`, in memory.
    private init(_ source: SeedSource) throws {
        let type = source.entity.entityType
        self = try Self.collect(source, type)
    }

    /// The records of `source`, which are `Entity`s.
    private static func collect<Entity: CatalogEntity>(_ source: SeedSource, _ type: Entity.Type) throws -> SeedFile {
        let collected = CollectedEntities<Entity>()
        try source.feed(collected)
        return SeedFile(collected.records)
    }
}

/// Records of one type gathered in memory.
private final class CollectedEntities<Entity: CatalogEntity>: EntitySink {
    var records: [Entity] = []

    func add<Added: DeclaredEntity>(_ record: Added) throws {
        if let record = record as? Entity { records.append(record) }
    }
}
