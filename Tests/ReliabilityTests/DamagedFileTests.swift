import Catalog
import Foundation
import SQLiteStore
import TestSupport
import Testing

/// Files `catalog` cannot use: one clear error line, a non-zero exit, and the file left as it was.
struct DamagedFileTests {
    /// Commands that open the database, each of which must refuse a damaged one.
    static let commands: [[String]] = [
        ["list"], ["show", "0.0"], ["export"], ["migrate"], ["delete", "1"], ["seed"],
        ["add", "product", "--type", "device", "--name", "X", "--year", "2000", "--price", "1"],
    ]

    enum Damage: String, CaseIterable, Sendable {
        case notSQLite, truncatedToHalf, truncatedHeader, newerSchema, anotherProgramsDatabase

        /// What the error line says about the file at `path`.
        func message(_ path: String) -> String {
            switch self {
            case .notSQLite: "\(path) is not an SQLite database (SQLITE_NOTADB)"
            case .truncatedToHalf, .truncatedHeader: "the database file is damaged"
            case .newerSchema: "the database is at catalog schema version 9999, newer than this program knows"
            case .anotherProgramsDatabase: "the database was made by another program: it has tables (notes) but no schema_migrations table"
            }
        }
    }

    /// A seeded database, checkpointed into its main file, then damaged.
    static func damagedDatabase(_ damage: Damage, in workspace: Workspace) throws -> String {
        let path = workspace.path("damaged.sqlite")
        if damage == .notSQLite {
            return try workspace.write(String(repeating: "These are my notes, not a database.\n", count: 200), to: "damaged.sqlite")
        }
        if damage == .anotherProgramsDatabase {
            // Another program's database, in SQLite's default rollback-journal mode.
            var configuration = Configuration()
            configuration.journalMode = .delete
            let queue = try DatabaseQueue(path: path, configuration: configuration)
            try queue.write { db in
                try db.execute(sql: "CREATE TABLE notes(id INTEGER PRIMARY KEY, text TEXT)")
                try db.execute(sql: "INSERT INTO notes(text) VALUES ('do not touch')")
            }
            try queue.close()
            return path
        }
        let store = try CatalogStore(path: path)
        try store.seed([SeedFile(SyntheticCatalog.products(count: 2_000, seed: 2))])
        if damage == .newerSchema {
            try store.file!.writeWithoutTransaction { db in
                try db.execute(sql: "INSERT INTO schema_migrations(migration_set, version, name, checksum, applied_at) VALUES ('catalog', 9999, 'future', '0', 0)")
            }
        }
        try store.file!.close()
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
        switch damage {
        case .truncatedToHalf: try handle.truncate(atOffset: UInt64(fileSize(path) / 2))
        case .truncatedHeader: try handle.truncate(atOffset: 60)
        case .notSQLite, .newerSchema, .anotherProgramsDatabase: break
        }
        try handle.close()
        return path
    }

    @Test(arguments: Damage.allCases)
    func everyCommandRefusesAndLeavesTheFile(_ damage: Damage) throws {
        let workspace = try Workspace()
        let path = try Self.damagedDatabase(damage, in: workspace)
        let bytes = try #require(fileBytes(path))
        for command in Self.commands {
            let result = try workspace.catalog(command, database: path)
            #expect(result.status == 6, "\(command): \(result)")
            #expect(result.error.hasPrefix("catalog: error: " + damage.message(path)), "\(command): \(result)")
            #expect(result.error.split(separator: "\n").count == 1, "\(command): \(result)")
            #expect(result.output.isEmpty, "\(command): \(result)")
            #expect(fileBytes(path) == bytes, "\(command) changed the file")
            // After each command: a later one must not hide the files an earlier one left.
            let left = try FileManager.default.contentsOfDirectory(atPath: workspace.directory.url.path)
            #expect(left.filter { $0.hasPrefix("damaged") } == ["damaged.sqlite"], "\(command) left a -wal or -shm behind")
        }
    }

    @Test func aMissingFolderIsNamed() throws {
        let workspace = try Workspace()
        let path = workspace.path("no/such/folder/catalog.sqlite")
        for command in Self.commands {
            let result = try workspace.catalog(command, database: path)
            #expect(result.status == 6, "\(command): \(result)")
            #expect(result.error == "catalog: error: cannot create the database \(path): the folder \(workspace.path("no/such/folder")) does not exist\n")
        }
        #expect(!FileManager.default.fileExists(atPath: workspace.path("no")))
    }

    @Test func aDatabasePathThatIsAFolder() throws {
        let workspace = try Workspace()
        let result = try workspace.catalog(["list"], database: workspace.directory.url.path)
        #expect(result.status == 6, "\(result)")
        #expect(result.error.hasPrefix("catalog: error: cannot open the database"))
    }

    @Test func aReadonlyConnectionRefusesWritesAndLeavesTheFile() throws {
        let workspace = try Workspace()
        try CatalogStore(path: workspace.database).seed(SeedFile.builtIn)
        let bytes = fileBytes(workspace.database)
        var configuration = Configuration()
        configuration.isReadonly = true
        let store = try CatalogStore(path: workspace.database, configuration: configuration)
        #expect(try store.count(Product.self) == 9)
        #expect {
            try store.insert(Product(type: .device, name: "New", yearIntroduced: 2000, introPrice: 1))
        } throws: { error in
            (error as? DatabaseError).map { ResultCode.SQLITE_READONLY ~= $0.resultCode } ?? false
        }
        try store.file!.close()
        #expect(fileBytes(workspace.database) == bytes)
    }

    /// ``Configuration/prepareDatabase`` sees the file before the connection writes anything (such as
    /// switching it to WAL), so a refusal leaves it as it was; the migrator refuses another program's
    /// database without creating its table.
    @Test func aRefusalAtOpenWritesNothing() throws {
        let workspace = try Workspace()
        var rollback = Configuration()
        rollback.journalMode = .delete
        let other = try DatabaseQueue(path: workspace.database, configuration: rollback)
        try other.write { db in try db.execute(sql: "CREATE TABLE notes(text TEXT)") }
        try other.close()
        let bytes = fileBytes(workspace.database)

        let migrator = Migrator(migrations: [Migration(version: 1, name: "create_t", sql: "CREATE TABLE t(id INTEGER)")])
        var configuration = Configuration()
        configuration.prepareDatabase = { db in try migrator.validate(db) }
        #expect(throws: MigrationError.self) { try DatabaseQueue(path: workspace.database, configuration: configuration) }
        #expect(fileBytes(workspace.database) == bytes)

        let unchecked = try DatabaseQueue(path: workspace.database, configuration: rollback)
        #expect(throws: MigrationError.self) { try unchecked.writeWithoutTransaction { db in try migrator.migrate(db) } }
        try unchecked.close()
        #expect(fileBytes(workspace.database) == bytes)
    }

    // MARK: - Read-only files and folders, as a user without write permission

    /// Runs `catalog` as an unprivileged user: root ignores file permissions, so when the tests run as
    /// root, `setpriv` drops to `nobody`.
    private func catalogAsUser(_ arguments: [String], workspace: Workspace) throws -> ProcessResult {
        let catalog = ProcessRunner.productsDirectory.appendingPathComponent("catalog").path
        if getuid() != 0 { return try ProcessRunner.run("catalog", arguments, home: workspace.path("home")) }
        return try ProcessRunner.run(
            executable: URL(fileURLWithPath: "/usr/bin/setpriv"),
            ["--reuid=65534", "--regid=65534", "--clear-groups", catalog] + arguments, home: "/tmp")
    }

    static var canDropPrivileges: Bool {
        getuid() != 0 || FileManager.default.isExecutableFile(atPath: "/usr/bin/setpriv")
    }

    @Test(.enabled(if: canDropPrivileges, "running as root without setpriv: cannot act as a user without write permission"))
    func aReadonlyFileCanBeReadButNotWritten() throws {
        let workspace = try Workspace()
        let folder = workspace.path("shared")
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let path = folder + "/catalog.sqlite"
        try CatalogStore(path: path).seed(SeedFile.builtIn)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: workspace.directory.url.path)
        try FileManager.default.setAttributes([.posixPermissions: 0o777], ofItemAtPath: folder)
        try FileManager.default.setAttributes([.posixPermissions: 0o444], ofItemAtPath: path)
        let bytes = fileBytes(path)

        let list = try catalogAsUser(["list", "--database", path], workspace: workspace)
        #expect(list.status == 0, "\(list)")
        #expect(list.output.contains("iPod touch"))
        let add = try catalogAsUser(
            ["add", "product", "--type", "device", "--name", "X", "--year", "2000", "--price", "1", "--database", path],
            workspace: workspace)
        #expect(add.status == 6, "\(add)")
        #expect(add.error == "catalog: error: the database is read-only: attempt to write a readonly database (SQLITE_READONLY)\n")
        #expect(fileBytes(path) == bytes)
    }

    @Test(.enabled(if: canDropPrivileges, "running as root without setpriv: cannot act as a user without write permission"))
    func aDatabaseInAReadonlyFolder() throws {
        let workspace = try Workspace()
        let folder = workspace.path("locked")
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let path = folder + "/catalog.sqlite"
        try CatalogStore(path: path).seed(SeedFile.builtIn)
        // A database copied there alone: its -wal and -shm (kept, empty, by the owner's close) are not.
        for suffix in ["-wal", "-shm"] { try FileManager.default.removeItem(atPath: path + suffix) }
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: workspace.directory.url.path)
        try FileManager.default.setAttributes([.posixPermissions: 0o666], ofItemAtPath: path)
        try FileManager.default.setAttributes([.posixPermissions: 0o555], ofItemAtPath: folder)
        defer { try? FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: folder) }
        let bytes = fileBytes(path)

        for command in [["list"], ["add", "product", "--type", "device", "--name", "X", "--year", "2000", "--price", "1"]] {
            let result = try catalogAsUser(command + ["--database", path], workspace: workspace)
            #expect(result.status == 6, "\(command): \(result)")
            #expect(result.error.hasPrefix("catalog: error: the database's folder is read-only"), "\(command): \(result)")
            #expect(result.error.split(separator: "\n").count == 1)
        }
        #expect(fileBytes(path) == bytes)
    }
}
