import Catalog
import Foundation
import SQLiteStore
import TestSupport
import Synchronization
import Testing
import TextSearch

/// An embedder's migrations beside the catalog's in one file, and catalog databases written before
/// migration sets existed, refused.
struct CatalogMigrationSetsTests {
    let directory: TemporaryDirectory
    let path: String

    init() throws {
        directory = try TemporaryDirectory()
        path = directory.path()
    }

    /// An embedder's set: its own version 1 (the catalog has one too) and a 1001.
    static let notes = MigrationSet(identity: "com.example.notes", migrations: [
        Migration(version: 1, name: "create_note", sql: "CREATE TABLE note(id INTEGER PRIMARY KEY, text TEXT NOT NULL);"),
        Migration(version: 1001, name: "index_note", revision: "1") { db in
            try db.execute(sql: "CREATE INDEX note_by_text ON note(text)")
        },
    ])

    /// A catalog database as the code before migration sets recorded it: its single-set
    /// `schema_migrations`, holding the development versions' migrations 1-5 (sets came before 6).
    private func makeDatabaseWithoutSets() throws {
        let queue = try DatabaseQueue(path: path)
        try queue.write { db in
            try db.execute(sql: """
                CREATE TABLE schema_migrations (
                    version INTEGER PRIMARY KEY,
                    name TEXT NOT NULL,
                    checksum TEXT NOT NULL,
                    applied_at REAL NOT NULL
                )
                """)
            for (version, name, checksum) in PreBaselineFile.records.prefix(5) {
                try db.execute(
                    sql: "INSERT INTO schema_migrations(version, name, checksum, applied_at) VALUES (?, ?, ?, ?)",
                    arguments: [version, name, checksum, Date()])
            }
        }
        try queue.close()
    }

    /// A new catalog file holding two products.
    private func makeDatabase() throws {
        let store = try CatalogStore(path: path)
        try store.insert(Product(type: .device, name: "iPhone", yearIntroduced: 2007, introPrice: 599))
        try store.insert(Product(type: .portable, name: "MacBook Air", yearIntroduced: 2008, introPrice: 1799))
        try store.file!.close()
    }

    private func columns(_ store: CatalogStore) throws -> [String] {
        try store.file!.read { db in
            try db.fetchAll(sql: "SELECT name FROM pragma_table_info('schema_migrations') ORDER BY cid") { try $0.decode(String.self, at: 0) }
        }
    }

    /// Its records are those of a development version before the baseline: refused, unchanged.
    @Test func aCatalogDatabaseWithoutSetsIsRefusedUnchanged() throws {
        try makeDatabaseWithoutSets()
        let bytes = try #require(FileManager.default.contents(atPath: path))
        #expect(throws: CatalogError.preBaselineDatabase(version: 5, adoptable: false)) { try CatalogStore(path: path) }
        #expect(FileManager.default.contents(atPath: path) == bytes)
    }

    @Test func anEmbeddersSetIsAppliedBesideTheCatalogs() throws {
        try makeDatabase()
        let store = try CatalogStore(path: path, migrationSets: [Self.notes])
        let records = try store.file!.read { db in try store.migrator.appliedMigrations(db) }
        #expect(records.filter { $0.set == "com.example.notes" }.map(\.version) == [1, 1001])
        try store.file!.write { db in try db.execute(sql: "INSERT INTO note(text) VALUES ('beside the catalog')") }
        try store.file!.close()

        // The catalog alone (the `catalog` CLI) opens the file: the embedder's 1 is not "changed" and
        // its 1001 not "newer" for the catalog's set.
        let catalogOnly = try CatalogStore(path: path)
        #expect(try catalogOnly.count(Product.self) == 2)
        let statuses = try catalogOnly.file!.read { db in try catalogOnly.migrator.status(db) }
        #expect(statuses.filter { $0.set == "catalog" }.allSatisfy { $0.state == .applied })
        #expect(statuses.filter { $0.set == "com.example.notes" }.map(\.state) == [.unknown, .unknown])
        try catalogOnly.file!.close()

        // And so does the embedder again, with nothing to do.
        let again = try CatalogStore(path: path, migrationSets: [Self.notes])
        #expect(try again.migrate().isEmpty)
    }

    @Test func anEmbeddersNewerOrChangedSetIsRefusedBeforeWriting() throws {
        _ = try CatalogStore(path: path, migrationSets: [Self.notes]).file!.close()
        let older = MigrationSet(identity: "com.example.notes", migrations: [Self.notes.migrations[0]])
        #expect {
            try CatalogStore(path: path, migrationSets: [older])
        } throws: { error in
            guard case MigrationError.databaseIsNewer(let set, 1001, 1) = error else { return false }
            return set == "com.example.notes"
        }
        let revised = MigrationSet(identity: "com.example.notes", migrations: [
            Self.notes.migrations[0],
            Migration(version: 1001, name: "index_note", revision: "2") { _ in },
        ])
        #expect {
            try CatalogStore(path: path, migrationSets: [revised])
        } throws: { error in
            guard case MigrationError.checksumMismatch(let set, 1001, _, _, _) = error else { return false }
            return set == "com.example.notes"
        }
    }

    @Test func theStatusOfAFileIsReadWithoutOpeningItAsAStore() throws {
        try CatalogStore(path: path, migrationSets: [Self.notes]).file!.close()
        let statuses = try CatalogStore.migrationStatus(path: path)
        #expect(statuses.filter { $0.set == "catalog" }.map(\.state) == Array(repeating: .applied, count: CatalogMigrations.all.count))
        #expect(statuses.filter { $0.set == "com.example.notes" }.map(\.state) == [.unknown, .unknown])
        #expect(try CatalogStore.migrationStatus(path: path, migrationSets: [Self.notes]).allSatisfy { $0.state == .applied })
        // The store's close kept the -wal, empty (see SharedFolderTests); reading the status writes nothing to it.
        #expect(FileManager.default.contents(atPath: path + "-wal") == Data())

        let missing = directory.path("missing.sqlite")
        #expect(throws: DatabaseError.self) { try CatalogStore.migrationStatus(path: missing) }
        #expect(!FileManager.default.fileExists(atPath: missing))
    }

    /// Opening a migrated file checks its migrations once on each connection, before anything is
    /// written, and takes no transaction to migrate.
    @Test func openingAMigratedFileReadsItsMigrationsOncePerConnection() throws {
        _ = try CatalogStore(path: path)
        let statements = Mutex<[String]>([])
        var configuration = Configuration()
        configuration.trace = { sql in statements.withLock { $0.append(sql) } }
        let store = try CatalogStore(path: path, configuration: configuration)
        _ = try store.count(Product.self)
        let traced = statements.withLock { $0 }
        let connections = traced.filter { $0 == "PRAGMA schema_version" }.count
        #expect(connections >= 1)
        #expect(traced.filter { $0.contains("FROM schema_migrations") }.count == connections)
        #expect(traced.filter { $0.contains("pragma_table_info") }.count == connections)
        #expect(!traced.contains { $0.hasPrefix("BEGIN IMMEDIATE") })
    }

    @Test func anEmbedderCannotTakeTheCatalogsIdentity() throws {
        let impostor = MigrationSet(identity: CatalogMigrations.identity, migrations: [])
        #expect(throws: MigrationError.self) { try CatalogStore(path: path, migrationSets: [impostor]) }
    }
}
