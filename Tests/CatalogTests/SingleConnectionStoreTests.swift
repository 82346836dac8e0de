import Catalog
import Foundation
import SQLiteStore
import TestSupport
import Testing

/// `CatalogStore(path:…, concurrentReads: false)`: one connection that checks, migrates, reads and
/// writes, judging a file exactly as a pool's writer does.
struct SingleConnectionStoreTests {
    let directory: TemporaryDirectory
    /// The database file, in ``directory``.
    var path: String { directory.path() }

    init() throws { directory = try TemporaryDirectory() }

    @Test func aNewFileIsCreatedMigratedInWALAndReadOnTheOneConnection() throws {
        let store = try CatalogStore(path: path, concurrentReads: false)
        #expect(store.file! is DatabaseQueue)
        let saved = try store.insert(Product(type: .device, name: "iPhone", yearIntroduced: 2007, introPrice: 599))
        let (versions, journalMode) = try store.file!.read { db in
            (try store.migrator.appliedMigrations(db).map(\.version), try db.scalar(String.self, sql: "PRAGMA journal_mode"))
        }
        #expect(versions == CatalogMigrations.all.map(\.version))
        #expect(journalMode == "wal")
        #expect(try store.fetchOne(Product.self, id: saved.id!)?.name == "iPhone")
        #expect(try store.searchCount(ListRequest<Product>(searchText: "pho")) == 1)
    }

    @Test func aFileMadeByAPoolOpensOnOneConnectionAndBack() throws {
        let pool = try CatalogStore(path: path)
        #expect(pool.file! is DatabasePool)
        try pool.insert(Product(type: .portable, name: "MacBook Air", yearIntroduced: 2008, introPrice: 1799))
        try pool.file!.close()
        let single = try CatalogStore(path: path, concurrentReads: false)
        #expect(try single.count(Product.self) == 1)
        try single.file!.close()
        #expect(try CatalogStore(path: path).count(Product.self) == 1)
    }

    /// Another program's database, a changed migration and a newer one are refused with the errors a
    /// pool gives, and the file is not changed.
    @Test(arguments: ["foreign", "changed", "newer"]) func filesTheStoreMustNotUseAreRefused(_ kind: String) throws {
        if kind == "foreign" {
            let queue = try DatabaseQueue(path: path)
            try queue.write { db in try db.execute(sql: "CREATE TABLE other(id INTEGER PRIMARY KEY)") }
            try queue.close()
        } else {
            try CatalogStore(path: path).file!.close()
            let queue = try DatabaseQueue(path: path)
            try queue.write { db in
                if kind == "changed" {
                    try db.execute(sql: "UPDATE schema_migrations SET checksum = '0000000000000000' WHERE version = 1")
                } else {
                    try db.execute(
                        sql: "INSERT INTO schema_migrations(migration_set, version, name, checksum, applied_at) VALUES ('catalog', 99, 'later', 'x', 0)")
                }
            }
            try queue.close()
        }
        let before = FileManager.default.contents(atPath: path)
        let error = try #require(throws: MigrationError.self) { try CatalogStore(path: path, concurrentReads: false) }
        switch (kind, error) {
        case ("foreign", .unrecognizedDatabase(let tables)): #expect(tables == ["other"])
        case ("changed", .checksumMismatch(_, let version, _, _, _)): #expect(version == 1)
        case ("newer", .databaseIsNewer(_, let databaseVersion, _)): #expect(databaseVersion == 99)
        default: Issue.record("\(kind): unexpected \(error)")
        }
        #expect(FileManager.default.contents(atPath: path) == before)
    }
}
