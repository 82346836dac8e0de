import RecordFormats
import SQLiteStore
import TextSearch

/// What an import or a seed did.
public struct ImportReport: Sendable, Equatable, CustomStringConvertible {
    /// Records added.
    public var inserted = 0
    /// Stored records whose attributes were replaced by a record with the same id or unique key.
    public var updated = 0
    /// Records left out because a stored record has their unique key (a seed).
    public var skipped = 0

    /// A report of these counts.
    public init(inserted: Int = 0, updated: Int = 0, skipped: Int = 0) {
        (self.inserted, self.updated, self.skipped) = (inserted, updated, skipped)
    }

    public var description: String { "\(inserted) inserted, \(updated) updated, \(skipped) skipped" }
}

/// What an import does with a record whose unique key a stored record holds.
public enum ImportConflicts: Sendable {
    /// Replace the stored record's attributes (an import).
    case update
    /// Keep the stored record (a seed: running it twice adds nothing).
    case skip
}

/// A file that cannot be read or stored, in one line: its name, then where and what
/// (`recipes.csv: line 3, column 2 (minutes): expected a whole number, found "ten"`).
public struct EntityFileError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The file's path, or `standard input`.
    public let path: String
    /// What is wrong, and where.
    public let reason: String
    /// Which fault it is, for a caller that says it in its own words.
    public let kind: Kind

    /// The faults of a file.
    public enum Kind: Sendable, Equatable {
        /// The file cannot be opened: it is missing, a folder, or not readable.
        case inaccessible
        /// No format was given, and neither the file's name nor its first character tells it.
        case unknownFormat
        /// Its content cannot be used: an unknown format, a bad header or record, a record the table refuses.
        case invalid
        /// A record that keeps its id has the unique key of another stored record; `location` says
        /// where the record is (`line 5`).
        case conflict(DuplicateKey, location: String)
        /// A record has the fields of another entity the source was told of (the one with table
        /// `table`), not of its own (`expected`); `record` is its `name` field, if it has one.
        case otherEntity(table: String, expected: String, line: Int, record: String?)
    }

    /// An error of the file at `path`.
    public init(path: String, reason: String, kind: Kind = .invalid) {
        self.path = path
        self.reason = reason
        self.kind = kind
    }

    public var description: String { "\(path): \(reason)" }
}

/// Importing, seeding and exporting a declared entity's records in JSON, JSON lines, CSV and TSV
/// (``EntityDeclaration/recordLayout``: `id`, then each attribute by name), streamed: one record is
/// read or written at a time, however large the file.
extension DeclaredEntity {
    /// Imports the records of a file in one transaction: a record whose unique key (the first
    /// attribute declared `unique: true`) a stored record holds updates it, or is skipped; another is
    /// added. A bad record rolls back everything. ``EntityFiles/importSources(_:conflicts:progress:into:)``
    /// imports several files, of several entities, in one transaction.
    ///
    /// ```swift
    /// let report = try Recipe.importFile("recipes.csv", into: queue)   // 2 inserted, 0 updated, 0 skipped
    /// ```
    ///
    /// - Parameters:
    ///   - path: the file, or `-` for standard input.
    ///   - format: its format; nil for the one its extension names, else JSON for text starting with
    ///     `[` and JSON lines for `{`.
    ///   - conflicts: what a record whose unique key is taken does: update (default) or skip.
    ///   - keepingIDs: whether records keep their `id`: the stored record with that id is replaced,
    ///     or the record is added with it. Otherwise ids in the file are ignored.
    ///   - progress: called with the records stored so far every ``EntityFiles/progressInterval`` records.
    ///   - writer: the database written to.
    /// - Throws: ``EntityFileError`` naming the file, line, column and field at fault; `DatabaseError`.
    ///   Nothing is written then.
    @discardableResult
    public static func importFile(
        _ path: String, format: DataFormat? = nil, conflicts: ImportConflicts = .update, keepingIDs: Bool = false,
        progress: ((Int) -> Void)? = nil, into writer: some StoreWriter
    ) throws -> ImportReport {
        let source = try EntitySource(path: path, format: format, of: Self.self, keepingIDs: keepingIDs)
        return try EntityFiles.importSources([source], conflicts: conflicts, progress: progress, into: writer)[Self.self]
    }

    /// ``importFile(_:format:conflicts:keepingIDs:progress:into:)`` that skips the records whose unique key is
    /// taken: seeding twice adds nothing the second time.
    @discardableResult
    public static func seedFile(_ path: String, format: DataFormat? = nil, into writer: some StoreWriter) throws -> ImportReport {
        try importFile(path, format: format, conflicts: .skip, into: writer)
    }

    /// Why a record cannot keep `id`, if it cannot: a searchable entity whose search index's rowids
    /// hold the id below the scope's number (`SearchDescription.rowIDsCarryScope`) takes ids from 0
    /// to `SearchDescription.largestScopedID` (SQLite's trigger would refuse another with a message
    /// naming no file or line).
    public static func keptIDProblem(_ id: Int64) -> String? {
        guard let searchable = Self.self as? any SearchableEntity.Type, searchable.searchDescription.rowIDsCarryScope,
              !(0...SearchDescription.largestScopedID).contains(id) else { return nil }
        return "id \(id) is out of range: \(tableName) have ids from 0 to \(SearchDescription.largestScopedID)"
    }

    /// Writes every record, by id, to `output` in `format`, reading one row at a time in one read
    /// transaction (a consistent snapshot, never held in memory together).
    ///
    /// - Parameters:
    ///   - output: where the records are written.
    ///   - format: the format they are written in.
    ///   - reader: the database read.
    ///   - progress: called with the number of records written after each one.
    /// - Returns: the number of records written.
    /// - Throws: `DatabaseError`; `FileError` when the output cannot be written.
    @discardableResult
    public static func export(
        to output: ByteOutput, format: DataFormat, from reader: some StoreReader, progress: ((Int) -> Void)? = nil
    ) throws -> Int {
        let writer = RecordWriter(format: format, layout: declaration.recordLayout, output: output)
        try forEachStored(in: reader) { record in
            try writer.write(record)
            progress?(writer.recordCount)
        }
        try writer.finish()
        return writer.recordCount
    }

    /// Calls `body` with every stored record, by id, reading one row at a time in one read
    /// transaction: a consistent snapshot however many records there are, never held in memory together.
    public static func forEachStored(in reader: some StoreReader, _ body: (Self) throws -> Void) throws {
        try reader.read { db in
            try db.forEachRow(sql: "SELECT \(selection) FROM \(tableName) ORDER BY id") { row in
                try body(try Self(row: row))
            }
        }
    }

    /// Writes every record to the file at `path` (replaced only once it is whole), in `format` or the
    /// one its extension names (JSON for none).
    ///
    /// - Returns: the number of records written.
    /// - Throws: ``EntityFileError`` when the file cannot be written; `DatabaseError`.
    @discardableResult
    public static func exportFile(_ path: String, format: DataFormat? = nil, from reader: some StoreReader) throws -> Int {
        do {
            let output = try ByteOutput(replacing: path)
            let count = try export(to: output, format: format ?? DataFormat(fileName: path) ?? .json, from: reader)
            try output.commit()
            return count
        } catch let error as FileError {
            throw EntityFileError(path: path, reason: "it cannot be written: \(error)")
        }
    }
}
