import RecordFormats
import SQLiteStore

/// The records of one import or seed input, all of one declared entity, read and checked one at a
/// time as they are stored: a file in any `DataFormat`, standard input, or records in memory.
///
/// Reading is kept apart from storing: ``EntityFiles/importSources(_:conflicts:progress:into:)`` pulls
/// the records of several sources, of several entities, through an ``EntitySink`` in one transaction.
///
/// ```swift
/// let sources = [
///     try EntitySource(path: "recipes.csv", of: Recipe.self),
///     try EntitySource(path: "ingredients.csv", of: Ingredient.self),
/// ]
/// ```
public struct EntitySource {
    /// The input's name in errors: its path, or `standard input`.
    public let name: String
    /// The entity of its records.
    public let entity: any DeclaredEntity.Type
    /// Where the last record read is (`line 5`), for a record refused when it is stored; nil when the
    /// database's errors are thrown as they are.
    let location: (() -> String)?
    /// Where a record is: its source's name and its location there (`line 5`).
    typealias Place = (source: String, location: String)
    /// Where the last record read is, when the source names the records the table refuses.
    var place: Place? { location.map { (name, $0()) } }
    private let deliver: (any EntitySink) throws -> Void

    /// Records of `Entity` from `next`, which returns nil at the end and throws ``EntityFileError``
    /// for a bad one; `location` says where the last record read is (`line 5`, `record 5`), for errors
    /// found when it is stored: a record that keeps its id and has another stored record's unique key
    /// (``EntityFileError/Kind/conflict(_:location:)``) and, when `locatesDatabaseErrors`, a record the
    /// table refuses (a CHECK, a foreign key); other errors are thrown as they are.
    public init<Entity: DeclaredEntity>(
        name: String, _ type: Entity.Type, locatesDatabaseErrors: Bool = true,
        next: @escaping () throws -> Entity?, location: @escaping () -> String
    ) {
        self.name = name
        entity = Entity.self
        self.location = locatesDatabaseErrors ? location : nil
        deliver = { sink in
            while let record = try next() {
                do {
                    try sink.add(record)
                } catch let key as DuplicateKey {
                    let location = location()
                    throw EntityFileError(path: name, reason: "\(location): \(key)", kind: .conflict(key, location: location))
                } catch let error as DatabaseError where locatesDatabaseErrors && error.primaryResultCode == .SQLITE_CONSTRAINT {
                    throw EntityFileError(path: name, reason: "\(location()): \(error)")
                }
            }
        }
    }

    /// Records in memory or made as they are read, checked already; `name` names them in errors. The
    /// database's error for a record the table refuses is thrown as it is, as `insert` throws it.
    public init<Records: Sequence>(name: String = "records", records: Records) where Records.Element: DeclaredEntity {
        var iterator = records.makeIterator()
        var index = 0
        self.init(name: name, Records.Element.self, locatesDatabaseErrors: false, next: {
            index += 1
            return iterator.next()
        }, location: { "record \(index)" })
    }

    /// The records of a file, or of standard input for `-`, read as they are stored: each attribute
    /// parsed and checked as it is read.
    ///
    /// - Parameters:
    ///   - path: the file's path, or `-` for standard input.
    ///   - format: the file's format; nil for the one its extension names (`.json`, `.jsonl`/`.ndjson`,
    ///     `.csv`, `.tsv`/`.tab`), else JSON when the text starts with `[` and JSON lines when it
    ///     starts with `{`.
    ///   - type: the entity of its records.
    ///   - keepingIDs: whether records keep their `id` (the stored record with that id is replaced,
    ///     or the record is added with it); otherwise ids in the file are ignored.
    /// - Throws: ``EntityFileError`` when the file cannot be opened (``EntityFileError/Kind/inaccessible``)
    ///   or its format or header is bad.
    public init<Entity: DeclaredEntity>(path: String, format: DataFormat? = nil, of type: Entity.Type, keepingIDs: Bool = false) throws {
        try self.init(path: path, format: format, of: type, among: [], keepingIDs: keepingIDs)
    }

    /// The records of a file of `entity`, or, when it is nil, of the first of `types` whose fields
    /// are all of the file's first record's (the header of CSV or TSV), else of the first of them.
    /// A record with the fields of another of `types` is said to be of that one
    /// (``EntityFileError/Kind/otherEntity(table:expected:line:record:)``).
    ///
    /// ```swift
    /// try EntitySource(path: "more.csv", of: nil, among: [Recipe.self, Ingredient.self])   // ingredients have a recipeID
    /// ```
    ///
    /// - Throws: as ``init(path:format:of:keepingIDs:)``.
    public init(
        path: String, format: DataFormat? = nil, of entity: (any DeclaredEntity.Type)?, among types: [any DeclaredEntity.Type],
        keepingIDs: Bool = false
    ) throws {
        let name = path == "-" ? "standard input" : path
        let input: ByteInput
        do {
            input = path == "-" ? ByteInput.standardInput() : try ByteInput(path: path)
        } catch let error as FileError {
            throw EntityFileError(
                path: name, reason: error.isMissing ? "no such file" : error.isDirectory ? "it is a folder" : "it cannot be read",
                kind: .inaccessible)
        }
        try self.init(
            name: name, input: input, format: format ?? DataFormat(fileName: path), of: entity, among: types, keepingIDs: keepingIDs)
    }

    /// The records in `input`, named `name` in errors, of `entity` or one of `types` (see
    /// ``init(path:format:of:among:keepingIDs:)``); `format` nil for the one its first character tells.
    ///
    /// - Throws: ``EntityFileError`` for an unknown format or a bad header.
    public init(
        name: String, input: ByteInput, format: DataFormat?, of entity: (any DeclaredEntity.Type)?,
        among types: [any DeclaredEntity.Type], keepingIDs: Bool = false
    ) throws {
        precondition(entity != nil || !types.isEmpty, "a source's records are of some entity")
        func invalid(_ reason: String) -> EntityFileError { EntityFileError(path: name, reason: reason) }
        do {
            let format = try format ?? DataFormat.sniffed(from: input) ?? {
                throw EntityFileError(
                    path: name, reason: "cannot tell its format from its name or first character: give json, jsonl, csv or tsv",
                    kind: .unknownFormat)
            }()
            let rows = try RowReader(input: input, format: format)
            // Read now, chosen by or not: a file whose first record is bad fails before anything is written.
            let names = try rows.firstFieldNames() ?? []
            let chosen = entity ?? types.first { $0.hasFields(names) } ?? types[0]
            self = chosen.source(name: name, rows: rows, others: types, keepingIDs: keepingIDs)
        } catch let error as RecordReadError {
            throw invalid(error.description)
        } catch let error as FileError {
            throw invalid("it cannot be read: \(error)")
        }
    }

    /// Gives every record to `sink`, in order.
    ///
    /// - Throws: ``EntityFileError`` for a record that cannot be read or stored, saying where it is;
    ///   what `sink` throws otherwise.
    public func feed(_ sink: any EntitySink) throws {
        try deliver(sink)
    }
}

/// Where an ``EntitySource`` puts its records: the storing side of importing and seeding.
public protocol EntitySink: AnyObject {
    /// Stores one record (checked already).
    func add<Entity: DeclaredEntity>(_ record: Entity) throws
}

extension DeclaredEntity {
    /// Whether every one of `names` is a field of the entity's files.
    static func hasFields(_ names: [String]) -> Bool { declaration.recordLayout.hasFields(names) }

    /// A source of the entity's records from `rows`; a record with fields of another of `others` is
    /// said to be of that one.
    fileprivate static func source(name: String, rows: RowReader, others: [any DeclaredEntity.Type], keepingIDs: Bool) -> EntitySource {
        let reader = RecordReader(rows: rows, layout: declaration.recordLayout)
        func failure(_ reason: String, _ kind: EntityFileError.Kind = .invalid) -> EntityFileError {
            EntityFileError(path: name, reason: reason, kind: kind)
        }
        return EntitySource(name: name, Self.self, next: {
            do {
                guard var record = try reader.next() else { return nil }
                if !keepingIDs {
                    record.id = nil
                } else if let id = record.id, let problem = keptIDProblem(id) {
                    throw failure("line \(reader.line): \(problem)")
                }
                return record
            } catch let error as RecordReadError {
                if let values = error.recordValues, !hasFields(Array(values.keys)),
                   let other = others.first(where: { ObjectIdentifier($0) != ObjectIdentifier(Self.self) && $0.hasFields(Array(values.keys)) }) {
                    let record = values["name"].map { " \(String(reflecting: $0))" } ?? ""
                    throw failure(
                        "line \(reader.line): record\(record) has the fields of \(other), not of \(Self.self)",
                        .otherEntity(table: other.tableName, expected: tableName, line: reader.line, record: values["name"]))
                }
                throw failure(error.description)
            } catch let error as FileError {
                throw failure("it cannot be read: \(error)")
            }
        }, location: { "line \(reader.line)" })
    }
}
