import Catalog
import Foundation
import SQLiteStore
import TestSupport
import Testing

/// A process killed with SIGKILL in the middle of a long write leaves a sound database holding all or
/// none of that write, and running the write again completes it.
///
/// Each test waits until the killed process has spilled part of its transaction to the `-wal` file
/// (so the kill lands in the middle of writing, not before or after), then kills it.
@Suite(.serialized)
struct CrashTests {
    /// How much of an uncommitted transaction must be in the `-wal` file before the kill.
    static let walBytesBeforeKill = 1 << 20

    @Test func killedInTheMiddleOfASeed() throws {
        let workspace = try Workspace()
        #expect(try workspace.catalog(["add", "product", "--type", "device", "--name", "Before", "--year", "2000", "--price", "1"]).status == 0)
        let count = 30_000
        let seed = try BackgroundProcess(
            "catalog", ["seed", "--count", String(count), "--seed", "11", "--database", workspace.database],
            home: workspace.path("home"))
        let started = waitUntil(timeout: .seconds(60)) { fileSize(workspace.database + "-wal") > Self.walBytesBeforeKill }
        #expect(seed.kill(), "the seed ended before it could be killed (started: \(started))")

        try expectSound(workspace.database)
        #expect(try DatabaseCheck.count("products", workspace.database) == 1, "none of the seed's rows")

        let rerun = try workspace.catalog(["seed", "--count", String(count), "--seed", "11"])
        #expect(rerun.status == 0, "\(rerun)")
        #expect(try DatabaseCheck.count("products", workspace.database) == count + 1)
        try expectSound(workspace.database)
    }

    @Test func killedInTheMiddleOfAnImport() throws {
        let workspace = try Workspace()
        var products = SyntheticCatalog.products(count: 25_000, seed: 5)
        let renamed = products[0].name
        let store = try CatalogStore(path: workspace.database)
        try store.insert(Product(type: .desktop, name: renamed, yearIntroduced: 1999, introPrice: 1))
        try store.file!.close()
        products[0].introPrice = 4_242
        let file = try workspace.write(try JSONEncoder().encode(products), to: "import.json")

        let importer = try BackgroundProcess(
            "catalog", ["import", file, "--database", workspace.database], home: workspace.path("home"))
        let started = waitUntil(timeout: .seconds(60)) { fileSize(workspace.database + "-wal") > Self.walBytesBeforeKill }
        #expect(importer.kill(), "the import ended before it could be killed (started: \(started))")

        try expectSound(workspace.database)
        #expect(try DatabaseCheck.count("products", workspace.database) == 1)
        let price = try DatabaseCheck.withQueue(workspace.database) { db in
            try db.scalar(Double.self, sql: "SELECT intro_price FROM products WHERE name = ?", arguments: [renamed])
        }
        #expect(price == 1, "the import's update of an existing record is undone too")

        let rerun = try workspace.catalog(["import", file])
        #expect(rerun.status == 0, "\(rerun)")
        #expect(rerun.output.contains("updated 1"))
        #expect(try DatabaseCheck.count("products", workspace.database) == products.count)
        try expectSound(workspace.database)
    }

    @Test func killedInTheMiddleOfAMigration() throws {
        let workspace = try Workspace()
        let rows = 400_000
        let migration = try BackgroundProcess(
            "reliability-fixture", ["migrate", workspace.database, String(rows)], home: workspace.path("home"))
        let started = waitUntil(timeout: .seconds(60)) { fileSize(workspace.database + "-wal") > 4 * Self.walBytesBeforeKill }
        #expect(migration.kill(), "the migration ended before it could be killed (started: \(started))")

        #expect(try DatabaseCheck.integrity(workspace.database) == ["ok"])
        let (versions, tables) = try DatabaseCheck.withQueue(workspace.database) { db in
            (try db.fetchAll(sql: "SELECT version FROM schema_migrations ORDER BY version") { try $0.decode(Int.self, at: 0) },
             try db.fetchAll(sql: "SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name") { try $0.decode(String.self, at: 0) })
        }
        #expect(versions == [1], "migration 2 is not recorded")
        #expect(tables == ["kept", "schema_migrations"], "migration 2's table is rolled back with its rows")

        let rerun = try ProcessRunner.run("reliability-fixture", ["migrate", workspace.database, String(rows)])
        #expect(rerun.status == 0, "\(rerun)")
        #expect(rerun.output == "migrating\napplied [2]\n")
        #expect(try DatabaseCheck.count("bulk", workspace.database) == rows)
    }

    private func expectSound(_ path: String) throws {
        #expect(try DatabaseCheck.integrity(path) == ["ok"])
        try DatabaseCheck.searchIndexMatchesTables(path)
    }
}
