import Catalog
import Foundation
import SQLiteStore
import TestSupport
import Testing

/// `catalog backup` copies a consistent snapshot while others write; `migrate` backs up first.
struct BackupCommandTests {
    let workspace: Workspace

    init() throws {
        workspace = try Workspace()
    }

    private func count(_ path: String) throws -> Int {
        let queue = try DatabaseQueue(path: path)
        defer { try? queue.close() }
        #expect(try queue.read { db in try db.scalar(String.self, sql: "PRAGMA integrity_check") } == "ok")
        return try queue.read { db in try db.scalar(Int.self, sql: "SELECT count(*) FROM products") ?? -1 }
    }

    @Test func aBackupIsACopyAndIsNotOverwrittenWithoutForce() throws {
        try workspace.catalog(["seed"])
        let copy = workspace.path("copy.sqlite")
        let first = try workspace.catalog(["backup", copy])
        #expect(first.status == 0, "\(first)")
        #expect(first.output == "Backed up \(workspace.database) to \(copy).\n")
        #expect(try workspace.catalog(["export"], database: copy).output == workspace.catalog(["export"]).output)

        try workspace.catalog(["delete", "1"])
        let again = try workspace.catalog(["backup", copy])
        #expect(again.status == 4)
        #expect(again.error == "catalog: error: \(copy) already exists; give --force to replace it\n")
        #expect(try count(copy) == 9)
        #expect(try workspace.catalog(["backup", copy, "--force"]).status == 0)
        #expect(try count(copy) == 8)
        #expect(try workspace.catalog(["backup", workspace.path("x.sqlite")], database: workspace.path("none.sqlite")).status == 6)
        #expect(!FileManager.default.fileExists(atPath: workspace.path("none.sqlite")))
    }

    @Test func aBackupTakenWhileAnotherProcessWritesIsOneSnapshot() throws {
        try workspace.catalog(["seed"])
        // One transaction of 20,000 products (a few names repeat) in another process: every backup has all or none of them.
        let writer = Process()
        writer.executableURL = ProcessRunner.productsDirectory.appendingPathComponent("catalog")
        writer.arguments = ["seed", "--count", "20000", "--database", workspace.database]
        writer.standardOutput = FileHandle.nullDevice
        try writer.run()
        var counts: Set<Int> = []
        var index = 0
        func backUp() throws {
            let copy = workspace.path("copy-\(index).sqlite")
            let result = try workspace.catalog(["backup", copy])
            #expect(result.status == 0, "\(result)")
            counts.insert(try count(copy))
            index += 1
        }
        while writer.isRunning { try backUp() }
        writer.waitUntilExit()
        #expect(writer.terminationStatus == 0)
        // One more once the writer has committed, so that the copies include its whole transaction.
        try backUp()
        let final = try count(workspace.database)
        #expect(final > 9)
        #expect(counts.isSubset(of: [9, final]), "\(counts)")
        #expect(counts.contains(final))
    }

    /// A database a development version made before the baseline (its version 12, which `migrate`
    /// adopts), holding one product or none.
    private func oldDatabase(_ name: String, withData: Bool) throws -> String {
        let path = workspace.path(name)
        let store = try CatalogStore(path: path)
        if withData { try store.insert(Product(type: .device, name: "iPod", yearIntroduced: 2001, introPrice: 399)) }
        try store.file!.close()
        try PreBaselineFile.rewrite(path, toVersion: 12)
        return path
    }

    @Test func migrateBacksUpADatabaseWithDataFirst() throws {
        let old = try oldDatabase("old.sqlite", withData: true)
        let result = try workspace.catalog(["migrate"], database: old)
        #expect(result.status == 0, "\(result)")
        let lines = result.output.split(separator: "\n")
        #expect(lines.count == 2)
        let prefix = "Backed up the database to \(old).before-migration-12-"
        #expect(lines.first?.hasPrefix(prefix) == true, "\(result.output)")
        let backup = String(lines[0].dropFirst("Backed up the database to ".count).dropLast(" before migrating.".count))
        #expect(FileManager.default.fileExists(atPath: backup))
        let status = try workspace.catalog(["migrate", "--status", "--json"], database: backup)
        #expect(status.status == 6 && status.error.contains("before the baseline"), "the backup is of the database before migrating: \(status)")
        #expect(try count(backup) == 1)

        let skipped = try oldDatabase("skipped.sqlite", withData: true)
        #expect(try workspace.catalog(["migrate", "--no-backup"], database: skipped).output == "The database is at schema version \(CatalogMigrations.all.last!.version), the latest.\n")
        let empty = try oldDatabase("empty.sqlite", withData: false)
        #expect(try workspace.catalog(["migrate"], database: empty).output == "The database is at schema version \(CatalogMigrations.all.last!.version), the latest.\n")
        let backups = try FileManager.default.contentsOfDirectory(atPath: workspace.path(""))
            .filter { $0.contains("before-migration") && !$0.hasPrefix("old.sqlite") }
        #expect(backups.isEmpty, "\(backups)")
    }

    /// `migrate` backs a file up only for a step that changes it: a pending step that runs on servers
    /// only (catalog migration 6, `Migration.onlyOn`) is recorded, and no backup is taken.
    @Test func aStepThatChangesNothingOnAFileTakesNoBackup() throws {
        let path = workspace.path("current.sqlite")
        let store = try CatalogStore(path: path)
        try store.insert(Product(type: .device, name: "iPod", yearIntroduced: 2001, introPrice: 399))
        try store.file!.close()
        let queue = try DatabaseQueue(path: path)
        try queue.write { db in try db.execute(sql: "DELETE FROM schema_migrations WHERE migration_set = 'catalog' AND version = 6") }
        try queue.close()
        let pending = try workspace.catalog(["migrate", "--status", "--json"], database: path)
        #expect(pending.output.contains(#""pending""#), "\(pending)")
        let result = try workspace.catalog(["migrate"], database: path)
        #expect(result.status == 0 && result.output == "The database is at schema version \(CatalogMigrations.all.last!.version), the latest.\n", "\(result)")
        let backups = try FileManager.default.contentsOfDirectory(atPath: workspace.path("")).filter { $0.contains("before-migration") }
        #expect(backups.isEmpty, "\(backups)")
        let after = try workspace.catalog(["migrate", "--status", "--json"], database: path)
        #expect(!after.output.contains(#""pending""#), "\(after)")
    }

    /// Exit codes: a write that finds the database locked exits 5, and a failed command writes nothing:
    /// `migrate` removes the backup it took when it could not migrate at all.
    @Test func aMigrationThatFindsTheDatabaseLockedLeavesNoBackup() throws {
        let old = try oldDatabase("old.sqlite", withData: true)
        let bytes = try #require(FileManager.default.contents(atPath: old))
        let locker = try WriteLockHolder(path: old, seconds: 10)
        let result = try workspace.catalog(["migrate"], database: old, environment: ["CATALOG_BUSY_TIMEOUT_MS": "100"])
        locker.release()
        #expect(result.status == 5, "\(result)")
        #expect(result.output.isEmpty && result.error.contains("locked by another process"), "\(result)")
        let backups = try FileManager.default.contentsOfDirectory(atPath: workspace.path("")).filter { $0.contains("before-migration") }
        #expect(backups.isEmpty, "\(backups)")
        #expect(FileManager.default.contents(atPath: old) == bytes)
        #expect(try workspace.catalog(["migrate", "--status", "--json"], database: old).error.contains("before the baseline"))
    }

    /// Output formats: `migrate --json` prints `{"version", "backup"}`: where the backup went, or null when
    /// none was taken.
    @Test func migrateJSONAlwaysSaysWhereTheBackupWent() throws {
        let old = try oldDatabase("old.sqlite", withData: true)
        func migrated() throws -> [String: Any]? {
            let result = try workspace.catalog(["migrate", "--json"], database: old)
            #expect(result.status == 0, "\(result)")
            return try JSONSerialization.jsonObject(with: Data(result.output.utf8)) as? [String: Any]
        }
        let first = try migrated()
        #expect((first?["backup"] as? String)?.hasPrefix("\(old).before-migration-12-") == true, "\(String(describing: first))")
        #expect(first?["version"] as? Int == CatalogMigrations.all.last!.version)
        let again = try migrated()
        #expect(again?["backup"] is NSNull, "\(String(describing: again))")
        #expect(again?.count == 2)
    }
}
