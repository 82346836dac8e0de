import Catalog
import Foundation
import SQLiteStore
import TestSupport
import Testing

/// A full disk, simulated with `PRAGMA max_page_count` (``Configuration/maximumPageCount``): the write
/// fails with a clear error, the data before it is intact, and once there is room again the same write
/// succeeds.
struct FullDiskTests {
    @Test func theConfigurationSetsTheConnectionsLimit() throws {
        let workspace = try Workspace()
        var configuration = Configuration()
        configuration.maximumPageCount = 321
        let queue = try DatabaseQueue(path: workspace.database, configuration: configuration)
        #expect(try queue.read { db in try db.scalar(Int.self, sql: "PRAGMA max_page_count") } == 321)
    }

    @Test func aWriteThatDoesNotFitIsRolledBackAndTheNextOneSucceeds() throws {
        let workspace = try Workspace()
        let store = try CatalogStore(path: workspace.database)
        try store.seed(SeedFile.builtIn)
        let pages = try store.database.read { db in try db.scalar(Int.self, sql: "PRAGMA page_count") ?? 0 }
        try store.database.close()
        let before = try DatabaseCheck.withQueue(workspace.database) { db in
            try db.fetchAll(sql: "SELECT id, name FROM products ORDER BY id") { "\(try $0.decode(Int.self, at: 0)) \(try $0.decode(String.self, at: 1))" }
        }

        var configuration = Configuration()
        configuration.maximumPageCount = pages + 5
        let full = try CatalogStore(path: workspace.database, configuration: configuration)
        let many = [SeedFile(SyntheticCatalog.products(count: 3_000, seed: 8))]
        #expect {
            try full.seed(many)
        } throws: { error in
            (error as? DatabaseError).map { ResultCode.SQLITE_FULL ~= $0.resultCode } ?? false
        }
        // The connection is still usable after the failure, and nothing of the failed write is left.
        #expect(try full.count(Product.self) == 9)
        try full.database.close()
        #expect(try DatabaseCheck.integrity(workspace.database) == ["ok"])
        try DatabaseCheck.searchIndexMatchesTables(workspace.database)
        #expect(try DatabaseCheck.withQueue(workspace.database) { db in
            try db.fetchAll(sql: "SELECT id, name FROM products ORDER BY id") { "\(try $0.decode(Int.self, at: 0)) \(try $0.decode(String.self, at: 1))" }
        } == before)

        let roomy = try CatalogStore(path: workspace.database)
        #expect(try roomy.seed(many).productsInserted == 3_000)
        #expect(try roomy.count(Product.self) == 3_009)
    }

    @Test func theCommandLineSaysTheDiskIsFull() throws {
        let workspace = try Workspace()
        #expect(try workspace.catalog(["seed"]).status == 0)
        let pages = try DatabaseCheck.withQueue(workspace.database) { db in try db.scalar(Int.self, sql: "PRAGMA page_count") ?? 0 }
        let bytes = fileBytes(workspace.database)

        let full = try workspace.catalog(
            ["seed", "--count", "3000"], environment: ["CATALOG_MAX_PAGE_COUNT": String(pages + 5)])
        #expect(full.status == 1, "\(full)")
        #expect(full.error == "catalog: error: the disk or database is full; nothing was written (SQLITE_FULL)\n")
        #expect(full.output.isEmpty)
        #expect(fileBytes(workspace.database) == bytes)

        let add = try workspace.catalog(
            ["add", "product", "--type", "device", "--name", "Small", "--year", "2000", "--price", "1"],
            environment: ["CATALOG_MAX_PAGE_COUNT": String(pages + 5)])
        #expect(add.status == 0, "a small write still fits: \(add)")

        let roomy = try workspace.catalog(["seed", "--count", "3000", "--json"])
        #expect(roomy.status == 0, "\(roomy)")
        let report = try JSONDecoder().decode(SeedReport.self, from: Data(roomy.output.utf8))
        #expect(report.productsInserted + report.skipped == 3_000, "synthetic names may repeat built-in ones")
        #expect(try DatabaseCheck.count("products", workspace.database) == 9 + 1 + report.productsInserted)
        #expect(try DatabaseCheck.integrity(workspace.database) == ["ok"])
    }

    // MARK: - A real full disk (a small tmpfs)

    @Test(.enabled(if: SmallFileSystem.isAvailable, "needs root to mount a small file system"))
    func creatingADatabaseOnAFullDiskLeavesNoFile() throws {
        let disk = try SmallFileSystem(kilobytes: 256)
        try disk.fill()
        let add = try disk.catalog(
            ["add", "product", "--type", "device", "--name", "X", "--year", "2000", "--price", "1", "--database", disk.path("new.sqlite")])
        #expect(add.status == 1, "\(add)")
        #expect(add.error == "catalog: error: the disk or database is full; nothing was written (SQLITE_FULL)\n")
        #expect(try disk.fileNames() == ["filler"], "no empty database file, nor -wal or -shm")
    }

    /// A database without its `-wal` and `-shm` files (copied there alone) needs a new `-shm` of
    /// 32 KiB before it can be read or written: on a full disk that fails first.
    @Test(.enabled(if: SmallFileSystem.isAvailable, "needs root to mount a small file system"))
    func aShmThatCannotBeCreatedIsAFullDisk() throws {
        let original = try Workspace()
        try CatalogStore(path: original.database).seed(SeedFile.builtIn)
        let disk = try SmallFileSystem(kilobytes: 1_024)
        let database = disk.path("catalog.sqlite")
        // SQLite cannot reach the file through /proc/<pid>/root (it resolves the link): copy it in.
        try FileManager.default.copyItem(atPath: original.database, toPath: disk.hostPath("catalog.sqlite"))
        try disk.fill()
        let bytes = fileBytes(disk.hostPath("catalog.sqlite"))
        let add = ["add", "product", "--type", "device", "--name", "X", "--year", "2000", "--price", "1", "--database", database]

        let full = try disk.catalog(add)
        #expect(full.status == 1, "\(full)")
        #expect(full.error == "catalog: error: the disk or database is full; nothing was written (SQLITE_IOERR_SHMSIZE)\n")
        #expect(full.output.isEmpty)
        #expect(fileBytes(disk.hostPath("catalog.sqlite")) == bytes)

        try disk.makeRoom()
        let again = try disk.catalog(add)
        #expect(again.status == 0, "\(again)")
        let export = try disk.catalog(["export", "--format", "jsonl", "--database", database])
        #expect(export.output.split(separator: "\n").count == 10, "the 9 built-in products and X: \(export)")
        let check = try disk.catalog(["check", "--database", database])
        #expect(check.status == 0 && check.output == "ok\n", "\(check)")
    }

    @Test(.enabled(if: SmallFileSystem.isAvailable, "needs root to mount a small file system"))
    func anExportToAFullDiskSaysSoAndLeavesNoFile() throws {
        let disk = try SmallFileSystem(kilobytes: 1_024)
        let database = disk.path("catalog.sqlite")
        #expect(try disk.catalog(["seed", "--database", database]).status == 0)
        try disk.fill()
        for format in ["json", "csv"] {
            let output = disk.path("products.\(format)")
            let export = try disk.catalog(["export", "--output", output, "--database", database])
            #expect(export.status == 1, "\(export)")
            #expect(export.error == "catalog: error: the disk is full; \(output) was not written\n")
            #expect(export.output.isEmpty)
        }
        #expect(try disk.fileNames() == ["catalog.sqlite", "catalog.sqlite-shm", "catalog.sqlite-wal", "filler"])
    }
}
