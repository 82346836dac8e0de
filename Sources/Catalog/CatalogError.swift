/// What the user asked for that the catalog cannot do, said in their words.
public enum CatalogError: Error, Sendable, Equatable, CustomStringConvertible {
    /// A field's value is not acceptable (an empty name, an unknown type, a negative price…).
    case invalidValue(field: String, value: String, reason: String)
    /// No record of the entity has this id.
    case notFound(entity: EntityKind, id: Int64)
    /// Another record already has this name.
    case duplicateName(entity: EntityKind, name: String)
    /// A seed or import file's content cannot be used: not UTF-8, malformed JSON, a bad record.
    case invalidFile(path: String, reason: String)
    /// A record of a seed or import file takes a name that another record holds (importing with the
    /// file's ids): `reason` says where the record is and which name.
    case conflictingEntity(path: String, reason: String)
    /// A file cannot be read or written at all: it is missing, a directory, or not permitted.
    case inaccessibleFile(path: String, reason: String)
    /// An index path is not in the result it was resolved against.
    case indexPathOutOfRange(String, sectionCount: Int)
    /// The database was made by a development version before the baseline schema, at this catalog
    /// schema version: a file at version 12 (`adoptable`) is adopted when opened for writing, an
    /// earlier one is refused.
    case preBaselineDatabase(version: Int, adoptable: Bool)
    /// What only an SQLite file has (`operation`: its backup, say) was asked of a catalog on
    /// a server; `instead` says what to use there.
    case notOnFile(operation: String, instead: String)

    public var description: String {
        switch self {
        case .invalidValue(let field, let value, let reason):
            "invalid \(field) \(String(reflecting: String(value.prefix(80)))): \(reason)"
        case .notFound(let entity, let id):
            "no \(entity.singular) with id \(id)"
        case .duplicateName(let entity, let name):
            "a \(entity.singular) named \(String(reflecting: name)) already exists"
        case .invalidFile(let path, let reason), .conflictingEntity(let path, let reason), .inaccessibleFile(let path, let reason):
            "cannot use \(path): \(reason)"
        case .indexPathOutOfRange(let path, let sectionCount):
            sectionCount == 0
                ? "no row at \(path): the result is empty"
                : "no row at \(path): the result has \(sectionCount) section\(sectionCount == 1 ? "" : "s") (see `list`)"
        case .preBaselineDatabase(let version, let adoptable):
            adoptable
                ? "the database has the catalog schema of a development version (12, before the baseline); open it for writing once (`catalog migrate`) to adopt it; it was left as it was"
                : "the database has the catalog schema of a development version (\(version), before the baseline), which this program cannot open; start a new database; it was left as it was"
        case .notOnFile(let operation, let instead):
            "\(operation) works on a database file, and this database is on a PostgreSQL server: \(instead)"
        }
    }
}
