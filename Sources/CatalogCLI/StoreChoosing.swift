import Catalog
import SQLiteStore

/// Options that say which catalog a command works on — `--database`, `--entity` and `--json` — and
/// how it opens it: ``StoreOptions`` for most commands, and ``ListOptions``, which declares the same
/// three options so that a command that reads a listed result parses one option group, not two (see
/// ``StoreOptions`` for what a group costs).
protocol StoreChoosing {
    /// `--database`: the database file, if given.
    var database: String? { get }
    /// `--entity`: the records to work on, if given.
    var entity: EntityKind? { get }
    /// `--json`: print JSON instead of text.
    var json: Bool { get }
}

extension StoreChoosing {
    /// Where the database is, and whether it is the default one: see ``DatabaseOption/location(environment:)``.
    func location() throws -> DatabaseLocation {
        try DatabaseLocation(explicitPath: database, environment: DatabaseLocation.processVariable)
    }

    /// Opens (creating, migrating and, for a new default database, seeding) the catalog.
    func openStore(readonly: Bool = false) throws -> CatalogStore {
        try location().open(readonly: readonly)
    }

    /// Opens the catalog on one connection, which checks, migrates and reads: for a command that
    /// reads once or twice and ends (`list`, `show`, `search`, `suggest`), whose process would
    /// otherwise parse the schema on a second connection for its first read (see
    /// `CatalogStore.init(path:configuration:migrationSets:concurrentReads:)`).
    func openStoreForShortRead() throws -> CatalogStore {
        try location().open(readonly: false, concurrentReads: false)
    }

    /// Opens the catalog for a command that writes, checking a small file whole first
    /// (``DatabaseLocation/openForWriting()``).
    func openStoreForWriting() throws -> CatalogStore {
        try location().openForWriting()
    }
}

/// Closes a store whose writes committed, which copies them from the `-wal` into the database file
/// (`Database.close()`), so that the file alone holds them when the command ends.
///
/// - Parameter written: what the command committed, in words (`1 product was added`), for the
///   error when that copy fails.
/// - Throws: ``CommandFailure/keptInWAL(written:path:cause:)`` when the copy fails (a full disk).
func closeAfterWriting(_ catalog: CatalogStore, written: @autoclosure () -> String) throws {
    // A server keeps what was committed: nothing to copy.
    guard let file = catalog.file else { return }
    do {
        try file.close()
    } catch let error as DatabaseError {
        throw CommandFailure.keptInWAL(written: written(), path: file.path, cause: error)
    }
}
