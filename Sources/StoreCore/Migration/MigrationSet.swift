/// The migrations of one owner of a database — the catalog's, an embedder's — under a name that
/// identifies them in `schema_migrations`.
///
/// Several sets share one database file: versions, checksums and "newer than this program" are judged
/// per set, so an embedder's version 1 beside the catalog's version 1, or their 1001, is neither
/// "changed" nor "newer" for the catalog.
///
/// ```swift
/// let notes = MigrationSet(identity: "com.example.notes", migrations: [
///     Migration(version: 1, name: "create_notes", sql: "CREATE TABLE note(id INTEGER PRIMARY KEY, text TEXT NOT NULL)"),
/// ])
/// ```
///
/// The identity is recorded with every applied migration; choose one that no other owner uses (a
/// reverse-DNS name), and never rename it: a database would then hold the set's migrations under the
/// old name and apply them again under the new one.
public struct MigrationSet: Sendable {
    /// The set's name in `schema_migrations`.
    public let identity: String
    /// The migrations, in version order.
    public let migrations: [Migration]

    /// Creates a set.
    ///
    /// - Precondition: no two migrations share a version: a mistake in the code that lists them, not
    ///   a condition of the database, so it traps with the set and version rather than throw.
    public init(identity: String, migrations: [Migration]) {
        let sorted = migrations.sorted { $0.version < $1.version }
        for (previous, next) in zip(sorted, sorted.dropFirst()) {
            precondition(previous.version != next.version, "two \(identity) migrations have version \(next.version)")
        }
        self.identity = identity
        self.migrations = sorted
    }

    /// The highest version in the set, or 0 when it is empty.
    public var latestVersion: Int { migrations.last?.version ?? 0 }
}
