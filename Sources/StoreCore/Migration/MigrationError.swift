/// Why the ``Migrator`` refused to run, or stopped. In every case the database is left as it was before
/// the migration that failed.
public enum MigrationError: Error, Sendable, CustomStringConvertible {
    /// A migration file's name is not `NNNN_description.sql`.
    case invalidFileName(String)
    /// Two migration sets have the same identity.
    case duplicateSet(String)
    /// An applied migration changed since it was applied (its SQL, or a Swift migration's revision).
    case checksumMismatch(set: String, version: Int, name: String, recorded: String, current: String)
    /// The database has migrations of this set that this code does not know: a newer version wrote it.
    case databaseIsNewer(set: String, databaseVersion: Int, knownVersion: Int)
    /// The database has tables but no record of migrations: another program made it.
    case unrecognizedDatabase(tables: [String])
    /// A migration failed; it was rolled back whole.
    case migrationFailed(set: String, version: Int, name: String, error: any Error)
    /// A row of `schema_migrations` does not hold what the migrator writes there.
    case unreadableRecord([DatabaseValue])

    public var description: String {
        switch self {
        case .invalidFileName(let name):
            "invalid migration file name \(name): expected NNNN_description.sql"
        case .duplicateSet(let set):
            "two migration sets are named \(set)"
        case .checksumMismatch(let set, let version, let name, let recorded, let current):
            "\(set) migration \(version) (\(name)) was changed after it was applied (checksum \(recorded), now \(current)); restore it or start a new database"
        case .databaseIsNewer(let set, let databaseVersion, let knownVersion):
            "the database is at \(set) schema version \(databaseVersion), newer than this program knows (\(knownVersion)); use a newer version of the program"
        case .unrecognizedDatabase(let tables):
            "the database was made by another program: it has tables (\(tables.prefix(3).joined(separator: ", "))\(tables.count > 3 ? ", …" : "")) but no \(Migrator.tableName) table; it was left as it was"
        case .migrationFailed(let set, let version, let name, let error):
            "\(set) migration \(version) (\(name)) failed and was rolled back: \(error)"
        case .unreadableRecord(let row):
            "\(Migrator.tableName) holds a record the migrator did not write: \(row)"
        }
    }
}
