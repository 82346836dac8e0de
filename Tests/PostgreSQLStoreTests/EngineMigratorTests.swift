import StoreCore
import Testing

/// The Migrator through `SQLConnection`, the same calls on both engines: sets applied in order and
/// recorded with their checksums, each migration in one transaction, a newer or changed schema
/// refused.
@Suite struct EngineMigratorTests {
    /// An owner's migrations in the engine's types.
    static func app(_ dialect: SQLDialect, extra: [Migration] = []) -> MigrationSet {
        MigrationSet(identity: "app", migrations: [
            Migration(
                version: 1, name: "create_note",
                sql: "CREATE TABLE note(id \(dialect.integerPrimaryKey), text \(dialect.columnType(.text)) NOT NULL)"),
            Migration(version: 2, name: "uppercase_notes", revision: "1", applyOnAnyEngine: { db in
                for row in try db.fetchRows(sql: "SELECT id, text FROM note", values: []) {
                    guard case .text(let text) = row[1] else { continue }
                    try db.execute(sql: "UPDATE note SET text = ? WHERE id = ?", values: [.text(text.uppercased()), row[0]])
                }
            }),
        ] + extra)
    }

    static let plugin = MigrationSet(identity: "com.example.plugin", migrations: [
        Migration(version: 1, name: "create_tag", sql: "CREATE TABLE tag(name text NOT NULL)")
    ])

    @Test(arguments: Engine.allCases)
    func appliesEachSetOnceAndRecordsIt(engine: Engine) throws {
        try engine.withFreshDatabase { db in
            let first = try Migrator(sets: [Self.app(db.dialect, extra: []).prefix(1), Self.plugin])
            #expect(try first.migrate(db).map { "\($0.set):\($0.version)" } == ["app:1", "com.example.plugin:1"])
            try db.execute(sql: "INSERT INTO note(text) VALUES (?)", values: [.text("hello")])
            let both = try Migrator(sets: [Self.app(db.dialect), Self.plugin])
            #expect(try both.needsMigration(db))
            #expect(try both.migrate(db).map { "\($0.set):\($0.version)" } == ["app:2"])
            #expect(try both.migrate(db).isEmpty)
            #expect(try !both.needsMigration(db))
            #expect(try db.texts("SELECT text FROM note") == ["HELLO"])
            let recorded = try both.appliedMigrations(db)
            #expect(recorded.map(\.checksum) == [Self.app(db.dialect)].flatMap(\.migrations).map(\.checksum) + [Self.plugin.migrations[0].checksum])
            #expect(try both.status(db).allSatisfy { $0.state == .applied })
        }
    }

    @Test(arguments: Engine.allCases)
    func refusesANewerSchemaAndAChangedMigration(engine: Engine) throws {
        try engine.withFreshDatabase { db in
            try Migrator(sets: [Self.app(db.dialect)]).migrate(db)
            let older = try Migrator(sets: [Self.app(db.dialect).prefix(1)])
            #expect {
                try older.validate(db)
            } throws: { error in
                guard case MigrationError.databaseIsNewer(set: "app", databaseVersion: 2, knownVersion: 1) = error else { return false }
                return true
            }
            let changed = MigrationSet(identity: "app", migrations: [
                Migration(version: 1, name: "create_note", sql: "CREATE TABLE note(id integer)")
            ])
            #expect {
                try Migrator(sets: [changed]).migrate(db)
            } throws: { error in
                guard case MigrationError.checksumMismatch(set: "app", version: 1, name: "create_note", recorded: _, current: _) = error
                else { return false }
                return true
            }
        }
    }

    @Test(arguments: Engine.allCases)
    func aFailingMigrationIsRolledBackWholeAndTheOnesBeforeItStay(engine: Engine) throws {
        try engine.withFreshDatabase { db in
            let failing = Migration(version: 3, name: "half_done", revision: "1", applyOnAnyEngine: { db in
                try db.execute(sql: "CREATE TABLE half(id integer)", values: [])
                try db.execute(sql: "INSERT INTO missing VALUES (1)", values: [])
            })
            let migrator = try Migrator(sets: [Self.app(db.dialect, extra: [failing])])
            #expect {
                try migrator.migrate(db)
            } throws: { error in
                guard case MigrationError.migrationFailed(set: "app", version: 3, name: "half_done", error: _) = error else { return false }
                return true
            }
            #expect(try db.tableNames() == ["note", "schema_migrations"])
            #expect(try migrator.appliedMigrations(db).map(\.version) == [1, 2])
        }
    }

    /// A step for one engine (`applyingOnly(on:)`) runs there and is only recorded on the other, so
    /// only there is it a pending change (what `catalog migrate` backs a file up for).
    @Test(arguments: Engine.allCases)
    func aStepForOneEngineRunsThereAndIsOnlyRecordedOnTheOther(engine: Engine) throws {
        try engine.withFreshDatabase { db in
            try Migrator(sets: [Self.app(db.dialect)]).migrate(db)
            var extra: [Migration] = []
            for (version, dialect) in [(3, SQLDialect.postgreSQL), (4, .sqlite)] {
                let table = "only_\(version)"
                extra.append(Migration(version: version, name: "create_\(table)", sql: "CREATE TABLE \(table)(id integer)").applyingOnly(on: dialect))
                let migrator = try Migrator(sets: [Self.app(db.dialect, extra: extra)])
                #expect(try migrator.needsMigration(db))
                #expect(try migrator.hasPendingChanges(db) == (db.dialect == dialect))
                #expect(try migrator.migrate(db).map(\.version) == [version])
                #expect(try db.tableNames().contains(table) == (db.dialect == dialect))
                #expect(try migrator.appliedMigrations(db).map(\.version) == Array(1...version))
                #expect(try !migrator.needsMigration(db) && !migrator.hasPendingChanges(db))
            }
        }
    }

    @Test(arguments: Engine.allCases)
    func refusesADatabaseAnotherProgramMade(engine: Engine) throws {
        try engine.withFreshDatabase { db in
            try db.execute(sql: "CREATE TABLE theirs(id integer)", values: [])
            #expect {
                try Migrator(sets: [Self.plugin]).migrate(db)
            } throws: { error in
                guard case MigrationError.unrecognizedDatabase(tables: ["theirs"]) = error else { return false }
                return true
            }
        }
    }
}

extension MigrationSet {
    /// The set with its first `count` migrations only.
    func prefix(_ count: Int) -> MigrationSet {
        MigrationSet(identity: identity, migrations: Array(migrations.prefix(count)))
    }
}
