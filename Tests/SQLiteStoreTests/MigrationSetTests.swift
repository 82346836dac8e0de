import Foundation
import SQLiteStore
import TestSupport
import Testing

/// Several owners' migrations in one file: each set judged on its own, SQL and Swift steps, and the
/// upgrade of a `schema_migrations` written before sets existed.
/// SQLite-only: migrations on files, damaged and newer ones (both engines: EngineMigratorTests).
struct MigrationSetTests {
    let directory: TemporaryDirectory
    let queue: DatabaseQueue

    init() throws {
        directory = try TemporaryDirectory()
        queue = try DatabaseQueue(path: directory.path())
    }

    static let app = MigrationSet(identity: "app", migrations: [
        Migration(version: 1, name: "create_a", sql: "CREATE TABLE a(id INTEGER PRIMARY KEY, name TEXT);"),
        Migration(version: 2, name: "create_b", sql: "CREATE TABLE b(id INTEGER PRIMARY KEY);"),
    ])
    static let plugin = MigrationSet(identity: "com.example.plugin", migrations: [
        Migration(version: 1, name: "create_p", sql: "CREATE TABLE p(id INTEGER PRIMARY KEY);"),
        Migration(version: 1001, name: "create_q", sql: "CREATE TABLE q(id INTEGER PRIMARY KEY);"),
    ])

    @discardableResult
    private func migrate(_ sets: [MigrationSet], upTo versions: [String: Int] = [:]) throws -> [AppliedMigration] {
        let migrator = try Migrator(sets: sets)
        return try queue.writeWithoutTransaction { db in try migrator.migrate(upTo: versions, db) }
    }

    private func records() throws -> [String] {
        try queue.read { db in
            try db.fetchAll(sql: "SELECT migration_set || ':' || version || ':' || name FROM schema_migrations ORDER BY 1") {
                try $0.decode(String.self, at: 0)
            }
        }
    }

    private func tables() throws -> [String] {
        try queue.read { db in
            try db.fetchAll(sql: "SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name") { try $0.decode(String.self, at: 0) }
        }
    }

    @Test func setsWithTheSameVersionsLiveSideBySide() throws {
        let applied = try migrate([Self.app, Self.plugin])
        #expect(applied.map { "\($0.set):\($0.version)" } == ["app:1", "app:2", "com.example.plugin:1", "com.example.plugin:1001"])
        #expect(try records() == ["app:1:create_a", "app:2:create_b", "com.example.plugin:1001:create_q", "com.example.plugin:1:create_p"])
        #expect(try migrate([Self.app, Self.plugin]).isEmpty)
        // Each owner alone still opens the file: the other's records are not "newer" or "changed" for it.
        #expect(try migrate([Self.app]).isEmpty)
        #expect(try migrate([Self.plugin]).isEmpty)
    }

    @Test func aSetAddedLaterIsAppliedAfterTheOthers() throws {
        try migrate([Self.app])
        let applied = try migrate([Self.app, Self.plugin])
        #expect(applied.map(\.set) == ["com.example.plugin", "com.example.plugin"])
    }

    @Test func newerIsJudgedPerSet() throws {
        try migrate([Self.app, Self.plugin])
        let olderPlugin = MigrationSet(identity: "com.example.plugin", migrations: [Self.plugin.migrations[0]])
        let error = try #require(throws: MigrationError.self) { try migrate([Self.app, olderPlugin]) }
        guard case .databaseIsNewer(let set, let databaseVersion, let knownVersion) = error else {
            Issue.record("unexpected \(error)")
            return
        }
        #expect(set == "com.example.plugin")
        #expect(databaseVersion == 1001)
        #expect(knownVersion == 1)
        #expect(error.description == "the database is at com.example.plugin schema version 1001, newer than this program knows (1); use a newer version of the program")
    }

    @Test func checksumsArePerSet() throws {
        try migrate([Self.app, Self.plugin])
        let changedPlugin = MigrationSet(identity: "com.example.plugin", migrations: [
            Migration(version: 1, name: "create_p", sql: "CREATE TABLE p(id INTEGER PRIMARY KEY, extra);"),
            Self.plugin.migrations[1],
        ])
        let error = try #require(throws: MigrationError.self) { try migrate([Self.app, changedPlugin]) }
        guard case .checksumMismatch(let set, let version, _, _, _) = error else {
            Issue.record("unexpected \(error)")
            return
        }
        #expect(set == "com.example.plugin")
        #expect(version == 1)
    }

    @Test func migratesEachSetUpToItsVersion() throws {
        let applied = try migrate([Self.app, Self.plugin], upTo: ["app": 1, "com.example.plugin": 1])
        #expect(applied.map { "\($0.set):\($0.version)" } == ["app:1", "com.example.plugin:1"])
    }

    @Test func refusesTwoSetsWithOneIdentity() {
        #expect(throws: MigrationError.self) { try Migrator(sets: [Self.app, Self.app]) }
    }

    @Test func statusListsSetsAndOtherOwnersRecords() throws {
        try migrate([Self.app, Self.plugin], upTo: ["com.example.plugin": 1])
        let migrator = try Migrator(sets: [Self.app])
        let statuses = try queue.read { db in try migrator.status(db) }
        #expect(statuses.map { "\($0.set):\($0.version):\($0.state)" } == ["app:1:applied", "app:2:applied", "com.example.plugin:1:unknown"])
        let both = try Migrator(sets: [Self.app, Self.plugin])
        #expect(try queue.read { db in try both.status(db) }.map(\.state) == [.applied, .applied, .applied, .pending])
    }

    // MARK: - Swift migrations

    static func refold(revision: String) -> Migration {
        Migration(version: 3, name: "uppercase_names", revision: revision) { db in
            let rows = try db.fetchAll(sql: "SELECT id, name FROM a") { (try $0.decode(Int64.self, at: 0), try $0.decode(String.self, at: 1)) }
            for (id, name) in rows {
                try db.execute(sql: "UPDATE a SET name = ? WHERE id = ?", arguments: [name.uppercased(), id])
            }
        }
    }

    @Test func aSwiftMigrationRunsInsideItsTransaction() throws {
        try migrate([Self.app])
        try queue.write { db in try db.execute(sql: "INSERT INTO a(name) VALUES ('café'), ('mac')") }
        let set = MigrationSet(identity: "app", migrations: Self.app.migrations + [Self.refold(revision: "1")])
        let applied = try migrate([set])
        #expect(applied.map(\.version) == [3])
        #expect(applied.first?.checksum == Self.refold(revision: "1").checksum)
        let names = try queue.read { db in try db.fetchAll(sql: "SELECT name FROM a ORDER BY id") { try $0.decode(String.self, at: 0) } }
        #expect(names == ["CAFÉ", "MAC"])
        #expect(try migrate([set]).isEmpty)
    }

    @Test func aThrowingSwiftMigrationRollsBackWhatItWrote() throws {
        struct Refused: Error {}
        try migrate([Self.app])
        let failing = Migration(version: 3, name: "half_done", revision: "1") { db in
            try db.execute(sql: "INSERT INTO a(name) VALUES ('written before the throw')")
            try db.execute(sql: "CREATE TABLE c(id INTEGER)")
            throw Refused()
        }
        let set = MigrationSet(identity: "app", migrations: Self.app.migrations + [failing])
        let error = try #require(throws: MigrationError.self) { try migrate([set]) }
        guard case .migrationFailed(let name, let version, _, let underlying) = error else {
            Issue.record("unexpected \(error)")
            return
        }
        #expect(name == "app" && version == 3 && underlying is Refused)
        #expect(try tables() == ["a", "b", "schema_migrations"])
        #expect(try queue.read { db in try db.scalar(Int.self, sql: "SELECT count(*) FROM a") } == 0)
        #expect(try records() == ["app:1:create_a", "app:2:create_b"])
    }

    @Test func aSwiftMigrationsChecksumIsItsRevisions() throws {
        // 64-bit FNV-1a of "a" (the published test vector), independent of the implementation.
        #expect(Migration(version: 1, name: "x", revision: "a") { _ in }.checksum == "af63dc4c8601ec8c")
        #expect(Migration(version: 1, name: "x", sql: "").checksum == "cbf29ce484222325")
        try migrate([Self.app])
        let set = MigrationSet(identity: "app", migrations: Self.app.migrations + [Self.refold(revision: "1")])
        try migrate([set])
        let revised = MigrationSet(identity: "app", migrations: Self.app.migrations + [Self.refold(revision: "2")])
        #expect {
            try migrate([revised])
        } throws: { error in
            guard case MigrationError.checksumMismatch(_, let version, _, _, _) = error else { return false }
            return version == 3
        }
    }

    // MARK: - Upgrading a schema_migrations written before sets

    /// `schema_migrations` exactly as the single-set migrator created and filled it.
    private func makeSingleSetDatabase(_ migrations: [Migration]) throws {
        try queue.writeWithoutTransaction { db in
            try db.execute(sql: """
                CREATE TABLE IF NOT EXISTS schema_migrations (
                    version INTEGER PRIMARY KEY,
                    name TEXT NOT NULL,
                    checksum TEXT NOT NULL,
                    applied_at REAL NOT NULL
                )
                """)
            for migration in migrations {
                try db.inTransaction(.immediate) {
                    try db.execute(sql: try #require(migration.sql))
                    try db.execute(
                        sql: "INSERT INTO schema_migrations(version, name, checksum, applied_at) VALUES (?, ?, ?, ?)",
                        arguments: [migration.version, migration.name, migration.checksum, Date(timeIntervalSince1970: 1_700_000_000.25)])
                }
            }
        }
    }

    @Test func aDatabaseWithoutSetsIsUpgradedInPlaceForItsFirstSet() throws {
        try makeSingleSetDatabase(Array(Self.app.migrations.prefix(1)))
        // Read as it is: no write needed to judge it.
        let migrator = try Migrator(sets: [Self.app, Self.plugin])
        let before = try queue.read { db in try migrator.appliedMigrations(db) }
        #expect(before.map { "\($0.set):\($0.version)" } == ["app:1"])

        let applied = try migrate([Self.app, Self.plugin])
        #expect(applied.map { "\($0.set):\($0.version)" } == ["app:2", "com.example.plugin:1", "com.example.plugin:1001"])
        let after = try queue.read { db in try migrator.appliedMigrations(db) }
        let kept = try #require(after.first)
        #expect(kept.set == "app" && kept.version == 1 && kept.name == "create_a")
        #expect(kept.checksum == Self.app.migrations[0].checksum)
        #expect(kept.appliedAt == Date(timeIntervalSince1970: 1_700_000_000.25))
        let columns = try queue.read { db in
            try db.fetchAll(sql: "SELECT name FROM pragma_table_info('schema_migrations') ORDER BY cid") { try $0.decode(String.self, at: 0) }
        }
        #expect(columns == ["migration_set", "version", "name", "checksum", "applied_at"])
        #expect(try tables() == ["a", "b", "p", "q", "schema_migrations"])
    }

    @Test func aDatabaseWithoutSetsAndNothingPendingIsUpgradedToo() throws {
        try makeSingleSetDatabase(Self.app.migrations)
        #expect(try migrate([Self.app]).isEmpty)
        #expect(try records() == ["app:1:create_a", "app:2:create_b"])
    }

    @Test func aChangedMigrationInADatabaseWithoutSetsIsRefusedBeforeTheUpgrade() throws {
        try makeSingleSetDatabase([Migration(version: 1, name: "create_a", sql: "CREATE TABLE a(id INTEGER PRIMARY KEY);")])
        #expect(throws: MigrationError.self) { try migrate([Self.app]) }
        let columns = try queue.read { db in
            try db.fetchAll(sql: "SELECT name FROM pragma_table_info('schema_migrations')") { try $0.decode(String.self, at: 0) }
        }
        #expect(!columns.contains("migration_set"))
    }

    @Test func concurrentUpgradesApplyEachMigrationOnce() async throws {
        try makeSingleSetDatabase(Array(Self.app.migrations.prefix(1)))
        let path = directory.path()
        try await withThrowingTaskGroup(of: Void.self) { group in
            for _ in 0..<4 {
                group.addTask {
                    let queue = try DatabaseQueue(path: path)
                    let migrator = try Migrator(sets: [Self.app, Self.plugin])
                    try queue.writeWithoutTransaction { db in _ = try migrator.migrate(db) }
                }
            }
            try await group.waitForAll()
        }
        #expect(try records() == ["app:1:create_a", "app:2:create_b", "com.example.plugin:1001:create_q", "com.example.plugin:1:create_p"])
    }
}
