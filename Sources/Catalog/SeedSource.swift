import Entities
import RecordFormats

/// The records of one seed or import input, of one entity, read and checked one at a time as they
/// are stored: a file in any `DataFormat`, standard input, or records in memory.
///
/// Reading is kept apart from storing: `CatalogStore.seed(_:conflicts:progress:)` pulls
/// the records through a ``SeedSink``, so another way of storing them can take the same sources.
///
/// ```swift
/// let source = try SeedSource(path: "products.csv", format: nil, entity: .products)
/// try store.seed([source], conflicts: .update)
/// ```
public struct SeedSource {
    /// The input's name in errors: its path, or `standard input`.
    public let name: String
    /// The entity of its records.
    public let entity: EntityKind
    private let deliver: (any SeedSink) throws -> Void

    /// Records of `Entity` from `next`, which returns nil at the end and throws
    /// ``CatalogError/invalidFile(path:reason:)`` for a bad one; `location` says where the last record
    /// read is (`line 5`), for errors found when it is stored (a name another record holds:
    /// ``CatalogError/conflictingEntity(path:reason:)``).
    public init<Entity: CatalogEntity>(
        name: String, _ type: Entity.Type, next: @escaping () throws -> Entity?, location: @escaping () -> String
    ) {
        self.name = name
        entity = Entity.kind
        deliver = { sink in
            while let record = try next() {
                do {
                    try sink.add(record)
                } catch let error as CatalogError {
                    // Say where the record is, as for errors found while reading; a name taken by
                    // another record stays a conflict, not a fault of the file.
                    if case .duplicateName = error {
                        throw CatalogError.conflictingEntity(path: name, reason: "\(location()): \(error)")
                    }
                    throw CatalogError.invalidFile(path: name, reason: "\(location()): \(error)")
                }
            }
        }
    }

    /// The records of a seed file in memory (checked already).
    public init(_ file: SeedFile, name: String = "seed") {
        func source<Entity: CatalogEntity>(_ type: Entity.Type) -> SeedSource {
            // A file's records are of its entity's entity type (SeedFile.init).
            SeedSource(name: name, records: file.records(of: type)!)
        }
        self = source(file.entity.entityType)
    }

    /// Records in memory (checked already); `name` names them in errors.
    ///
    /// ```swift
    /// try store.seed([SeedSource(records: SyntheticCatalog.products(count: 1_000, seed: 7))])
    /// ```
    public init<Entity: CatalogEntity>(name: String = "seed", records: [Entity]) {
        var iterator = records.makeIterator()
        var index = 0
        self.init(name: name, Entity.self, next: {
            index += 1
            return iterator.next()
        }, location: { "record \(index)" })
    }

    /// Gives every record to `sink`, in order.
    ///
    /// - Throws: ``CatalogError/invalidFile(path:reason:)`` for a record that cannot be read, and
    ///   whatever `sink` throws.
    public func feed(_ sink: any SeedSink) throws {
        try deliver(sink)
    }
}

/// Where a ``SeedSource`` puts its records: the storing side of seeding and importing.
public protocol SeedSink: AnyObject {
    /// Stores one record (checked already).
    func add<Entity: CatalogEntity>(_ record: Entity) throws
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
        let name = path == "-" ? "standard input" : path
        let input: ByteInput
        do {
            input = path == "-" ? ByteInput.standardInput() : try ByteInput(path: path)
        } catch let error as FileError {
            throw CatalogError.inaccessibleFile(
                path: path, reason: error.isMissing ? "no such file" : error.isDirectory ? "it is a folder" : "it cannot be read")
        }
        try self.init(name: name, input: input, format: format ?? DataFormat(fileName: path), entity: entity, keepingIDs: keepingIDs)
    }

    /// The records in `input`, named `name` in errors; see ``init(path:format:entity:keepingIDs:)``.
    public init(name: String, input: ByteInput, format: DataFormat?, entity: EntityKind?, keepingIDs: Bool = false) throws {
        func invalid(_ reason: String) -> CatalogError { CatalogError.invalidFile(path: name, reason: reason) }
        do {
            let format = try format ?? DataFormat.sniffed(from: input) ?? {
                throw invalid("cannot tell its format from its name or first character: give --format json, jsonl, csv or tsv")
            }()
            let rows = try RowReader(input: input, format: format)
            let names = try rows.firstFieldNames() ?? []
            let chosen = entity ?? Self.entity(ofFields: names)
            self.init(name: name, rows: rows, chosen.entityType, keepingIDs: keepingIDs)
        } catch let error as RecordReadError {
            throw invalid(error.description)
        } catch let error as FileError {
            throw invalid("it cannot be read: \(error)")
        }
    }

    private init<Entity: CatalogEntity>(name: String, rows: RowReader, _ type: Entity.Type, keepingIDs: Bool) {
        let reader = RecordReader(rows: rows, layout: Entity.layout)
        self.init(name: name, Entity.self, next: {
            do {
                guard var record = try reader.next() else { return nil }
                if !keepingIDs {
                    record.id = nil
                } else if let id = record.id, let problem = Entity.keptIDProblem(id) {
                    throw CatalogError.invalidFile(path: name, reason: "line \(reader.line): \(problem)")
                }
                return record
            } catch let error as RecordReadError {
                throw CatalogError.invalidFile(path: name, reason: Self.explain(error, line: reader.line, expected: Entity.kind))
            } catch let error as FileError {
                throw CatalogError.invalidFile(path: name, reason: "it cannot be read: \(error)")
            }
        }, location: { "line \(reader.line)" })
    }

    /// The entity whose fields are all of `names`: the first other than products whose fields they
    /// all are when products' are not, else products.
    static func entity(ofFields names: [String]) -> EntityKind {
        guard !Product.hasFields(names) else { return .products }
        return EntityKind.allCases.first { $0.entityType.hasFields(names) } ?? .products
    }

    /// A reading error, said as a record of another entity when that is what it is.
    private static func explain(_ error: RecordReadError, line: Int, expected: EntityKind) -> String {
        if let values = error.recordValues, let other = EntityKind.allCases.first(where: { $0 != expected }),
           entity(ofFields: Array(values.keys)) == other {
            let record = values["name"].map { " \(String(reflecting: $0))" } ?? ""
            return "line \(line): record\(record) is a \(other.singular), not a \(expected.singular) (for \(other.rawValue), give --entity \(other.rawValue))"
        }
        return error.description
    }
}

extension CatalogEntity {
    /// Whether every one of `names` is a field of the record's files.
    fileprivate static func hasFields(_ names: [String]) -> Bool { layout.hasFields(names) }
}
