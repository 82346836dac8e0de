import Foundation
import SQLiteStore
import TestSupport
import Testing

/// The migrator applies migrations in order, once, whole, and refuses what it cannot trust.
/// SQLite-only: migrations on files, damaged and newer ones (both engines: EngineMigratorTests).
struct MigratorTests {
    let directory: TemporaryDirectory
    let queue: DatabaseQueue

    init() throws {
        directory = try TemporaryDirectory()
        queue = try DatabaseQueue(path: directory.path())
    }

    static let one = Migration(version: 1, name: "create_a", sql: "CREATE TABLE a(id INTEGER PRIMARY KEY);")
    static let two = Migration(version: 2, name: "create_b", sql: "CREATE TABLE b(id INTEGER PRIMARY KEY); INSERT INTO b VALUES (1);")
    static let three = Migration(version: 10, name: "add_column", sql: "ALTER TABLE a ADD COLUMN name TEXT;")

    private func migrate(_ migrations: [Migration], upTo version: Int? = nil) throws -> [AppliedMigration] {
        let migrator = Migrator(migrations: migrations)
        return try queue.writeWithoutTransaction { db in
            try migrator.migrate(upTo: version.map { [Migrator.defaultSetIdentity: $0] } ?? [:], db)
        }
    }

    private func tables() throws -> [String] {
        try queue.read { db in
            try db.fetchAll(sql: "SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name") { try $0.decode(String.self, at: 0) }
        }
    }

    private func appliedVersions() throws -> [Int] {
        try queue.read { db in try Migrator(migrations: []).appliedMigrations(db).map(\.version) }
    }

    @Test func appliesInVersionOrderOnce() throws {
        let applied = try migrate([Self.three, Self.one, Self.two])
        #expect(applied.map(\.version) == [1, 2, 10])
        #expect(try tables() == ["a", "b", "schema_migrations"])
        #expect(try migrate([Self.three, Self.one, Self.two]).isEmpty)
        #expect(try appliedVersions() == [1, 2, 10])
    }

    @Test func migratesUpToAVersion() throws {
        #expect(try migrate([Self.one, Self.two, Self.three], upTo: 2).map(\.version) == [1, 2])
        #expect(try migrate([Self.one, Self.two, Self.three]).map(\.version) == [10])
    }

    @Test func refusesAChangedMigrationAndAppliesNothing() throws {
        _ = try migrate([Self.one])
        let changed = Migration(version: 1, name: "create_a", sql: "CREATE TABLE a(id INTEGER PRIMARY KEY, extra);")
        #expect {
            try migrate([changed, Self.two])
        } throws: { error in
            guard case MigrationError.checksumMismatch(_, let version, _, _, _) = error else { return false }
            return version == 1
        }
        #expect(try tables() == ["a", "schema_migrations"])
    }

    @Test func aFailingMigrationRollsBackWhole() throws {
        let broken = Migration(version: 2, name: "broken", sql: "CREATE TABLE b(id); INSERT INTO missing VALUES (1);")
        let error = try #require(throws: MigrationError.self) { try migrate([Self.one, broken, Self.three]) }
        guard case .migrationFailed(_, let version, _, let underlying) = error else {
            Issue.record("unexpected \(error)")
            return
        }
        #expect(version == 2)
        #expect((underlying as? DatabaseError)?.resultCode == .SQLITE_ERROR)
        #expect(error.description.contains("no such table: missing"))
        #expect(try tables() == ["a", "schema_migrations"])
        #expect(try appliedVersions() == [1])
    }

    @Test func refusesADatabaseNewerThanTheCode() throws {
        _ = try migrate([Self.one, Self.two])
        let error = try #require(throws: MigrationError.self) { try migrate([Self.one]) }
        guard case .databaseIsNewer(_, let databaseVersion, let knownVersion) = error else {
            Issue.record("unexpected \(error)")
            return
        }
        #expect(databaseVersion == 2)
        #expect(knownVersion == 1)
    }

    @Test func reportsStatus() throws {
        _ = try migrate([Self.one])
        let migrator = Migrator(migrations: [Self.one, Self.two])
        let states = try queue.writeWithoutTransaction { db in try migrator.status(db) }.map(\.state)
        #expect(states == [.applied, .pending])
    }

    /// A migration for another engine is recorded without running, and is no pending change.
    @Test func aMigrationForAnotherEngineIsOnlyRecorded() throws {
        _ = try migrate([Self.one])
        let serverOnly = Self.two.applyingOnly(on: .postgreSQL)
        #expect(try queue.read { db in try Migrator(migrations: [Self.one, serverOnly]).hasPendingChanges(db) } == false)
        #expect(try queue.read { db in try Migrator(migrations: [Self.one, Self.two]).hasPendingChanges(db) } == true)
        #expect(try migrate([Self.one, serverOnly]).map(\.version) == [2])
        #expect(try tables() == ["a", "schema_migrations"])
    }

    /// Two migrations of one version are a mistake in the code that lists them: the set traps,
    /// rather than throw an error every embedder would have to `try!`.
    @Test func duplicateVersionsTrap() async {
        await #expect(processExitsWith: .failure) {
            _ = MigrationSet(identity: "app", migrations: [Migration(version: 1, name: "a", sql: ""), Migration(version: 1, name: "b", sql: "")])
        }
    }

    @Test(arguments: ["0001_create.sql", "12_x.sql", "0003_a_b.sql"])
    func parsesFileNames(_ name: String) throws {
        let migration = try Migration(fileName: name, sql: "")
        #expect(migration.version > 0)
    }

    @Test(arguments: ["create.sql", "0001.sql", "0001-create.sql", "0001_create.txt", "_0001_x.sql"])
    func rejectsBadFileNames(_ name: String) {
        #expect(throws: MigrationError.self) { try Migration(fileName: name, sql: "") }
    }

    @Test func checksumDependsOnTheSQL() {
        #expect(Self.one.checksum.count == 16)
        #expect(Self.one.checksum != Self.two.checksum)
        #expect(Self.one.checksum == Migration(version: 1, name: "other", sql: "CREATE TABLE a(id INTEGER PRIMARY KEY);").checksum)
    }

    @Test func concurrentMigratorsApplyEachMigrationOnce() async throws {
        let path = directory.path()
        try await withThrowingTaskGroup(of: Void.self) { group in
            for _ in 0..<4 {
                group.addTask {
                    let queue = try DatabaseQueue(path: path)
                    let migrator = Migrator(migrations: [Self.one, Self.two, Self.three])
                    try queue.writeWithoutTransaction { db in _ = try migrator.migrate(db) }
                }
            }
            try await group.waitForAll()
        }
        #expect(try appliedVersions() == [1, 2, 10])
        #expect(try await queue.read { db in try db.scalar(Int.self, sql: "SELECT count(*) FROM b") } == 1)
    }
}
