/// Why the ``Migrator`` refused to run, or stopped. In every case the database is left as it was before
/// the migration that failed.
public enum MigrationError: Error, Sendable, CustomStringConvertible {
    /// A migration file's name is not `NNNN_description.sql`.
    case invalidFileName(String)
    /// Two migrations have the same version.
    case duplicateVersion(Int)
    /// An applied migration's SQL changed since it was applied.
    case checksumMismatch(version: Int, name: String, recorded: String, current: String)
    /// The database has migrations this code does not know: it was written by a newer version.
    case databaseIsNewer(databaseVersion: Int, knownVersion: Int)
    /// The database has tables but no record of migrations: another program made it.
    case unrecognizedDatabase(tables: [String])
    /// A migration's SQL failed; it was rolled back whole.
    case migrationFailed(version: Int, name: String, error: DatabaseError)

    public var description: String {
        switch self {
        case .invalidFileName(let name):
            "invalid migration file name \(name): expected NNNN_description.sql"
        case .duplicateVersion(let version):
            "two migrations have version \(version)"
        case .checksumMismatch(let version, let name, let recorded, let current):
            "migration \(version) (\(name)) was changed after it was applied (checksum \(recorded), now \(current)); restore the file or start a new database"
        case .databaseIsNewer(let databaseVersion, let knownVersion):
            "the database is at schema version \(databaseVersion), newer than this program knows (\(knownVersion)); use a newer version of the program"
        case .unrecognizedDatabase(let tables):
            "the database was made by another program: it has tables (\(tables.prefix(3).joined(separator: ", "))\(tables.count > 3 ? ", …" : "")) but no \(Migrator.tableName) table; it was left as it was"
        case .migrationFailed(let version, let name, let error):
            "migration \(version) (\(name)) failed and was rolled back: \(error)"
        }
    }
}
