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
        let pages = try store.file!.read { db in try db.scalar(Int.self, sql: "PRAGMA page_count") ?? 0 }
        try store.file!.close()
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
        try full.file!.close()
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
        #expect(full.error == "catalog: error: the disk or database is full; this command's change was not written (SQLITE_FULL)\n")
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
        #expect(add.error == "catalog: error: the disk or database is full; this command's change was not written (SQLITE_FULL)\n")
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
        #expect(full.error == "catalog: error: the disk or database is full; this command's change was not written (SQLITE_IOERR_SHMSIZE)\n")
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

    /// Under `ulimit -f`, a write past the limit fails (EFBIG) instead of killing `catalog` with
    /// SIGXFSZ: one line, exit 1, and what it says is true.
    @Test func aFileSizeLimitIsOneLineNotASignal() throws {
        let workspace = try Workspace()
        #expect(try workspace.catalog(["seed"]).status == 0)
        let before = try DatabaseCheck.count("products", workspace.database)
        let catalog = ProcessRunner.productsDirectory.appendingPathComponent("catalog").path
        let result = try ProcessRunner.run(
            executable: URL(fileURLWithPath: "/bin/sh"),
            ["-c", "ulimit -f 4096 && exec \"$0\" seed --count 30000 --database \"$1\"", catalog, workspace.database],
            home: workspace.path("home"))
        #expect(result.status == 1, "\(result)")
        #expect(result.error.split(separator: "\n").count == 1, "\(result)")
        #expect(result.error.contains("file size limit (ulimit -f"), "\(result)")
        #expect(try DatabaseCheck.count("products", workspace.database) == before, "the seed was rolled back")
    }

    // MARK: - What a full disk leaves, and what the message says

    /// The products of the database at `database` on `disk`, by name, as `export` reads them.
    private static func productNames(_ disk: SmallFileSystem, _ database: String) throws -> [String] {
        let export = try disk.catalog(["export", "--format", "jsonl", "--database", database])
        #expect(export.status == 0, "\(export)")
        return try export.output.split(separator: "\n").map { line in
            let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
            return try #require(object?["name"] as? String)
        }
    }

    /// The products a message says were added: `… (1109 products and 0 phones added, …`.
    private static func productsSaidAdded(_ message: String) -> Int? {
        guard let range = message.range(of: #"\((\d+) products? and \d+ phones? added"#, options: .regularExpression) else { return nil }
        return Int(message[range].dropFirst().prefix { $0.isNumber })
    }

    /// Seeds of 2,000 products fill a real file system until one fails: its message is true, whether
    /// the disk filled during the seed's transaction (rolled back: its change was not written) or after its
    /// commit, while the `-wal` was copied into the database file (the seed was written and is kept in
    /// the `-wal`). With room again, the file is sound and the next write copies the `-wal` in.
    @Test(.enabled(if: SmallFileSystem.isAvailable, "needs root to mount a small file system"), arguments: [1_536, 2_560, 4_096])
    func aSeedThatFillsTheDiskSaysWhatItKept(kilobytes: Int) throws {
        let disk = try SmallFileSystem(kilobytes: kilobytes)
        let database = disk.path("catalog.sqlite")
        #expect(try disk.catalog(["seed", "--database", database]).status == 0)
        var failure: ProcessResult?
        var count = 9
        for seed in 1...40 {
            let result = try disk.catalog(["seed", "--count", "2000", "--seed", String(seed), "--json", "--database", database])
            let after = try Self.productNames(disk, database).count
            if result.status == 0 {
                let report = try JSONDecoder().decode(SeedReport.self, from: Data(result.output.utf8))
                #expect(after == count + report.productsInserted, "seed \(seed): \(result)")
                count = after
                continue
            }
            #expect(result.status == 1, "\(result)")
            #expect(result.output.isEmpty && result.error.split(separator: "\n").count == 1, "\(result)")
            if result.error.contains("this command's change was not written") {
                #expect(after == count, "said its change was not written, but \(after - count) products were: \(result)")
            } else {
                let added = try #require(Self.productsSaidAdded(result.error), "\(result)")
                #expect(after == count + added, "said \(added) products were added, but \(after - count) were: \(result)")
                #expect(result.error.hasPrefix("catalog: error: the disk is full; the seed was written ("), "\(result)")
                #expect(result.error.contains("but is kept only in \(database)-wal"), "\(result)")
            }
            failure = result
            break
        }
        #expect(failure != nil, "the disk never filled")

        try disk.run("/bin/mount", ["-o", "remount,size=\(kilobytes * 4)k", disk.mountPoint])
        let check = try disk.catalog(["check", "--database", database])
        #expect(check.status == 0 && check.output == "ok\n", "\(check)")
        let add = try disk.catalog(["add", "product", "--type", "device", "--name", "Room Again", "--year", "2000", "--price", "1", "--database", database])
        #expect(add.status == 0, "\(add)")
        #expect(try Self.productNames(disk, database).contains("Room Again"))
        #expect(fileSize(disk.hostPath("catalog.sqlite-wal")) == 0, "the -wal copied into the file and emptied")
    }

    /// `add`, `update`, `delete`, `import` and `seed` on a full disk: each either changes nothing and
    /// says so, or says what it wrote, and that is what the database holds.
    @Test(.enabled(if: SmallFileSystem.isAvailable, "needs root to mount a small file system"))
    func everyWritingCommandOnAFullDiskSaysWhatItKept() throws {
        let disk = try SmallFileSystem(kilobytes: 2_048)
        let database = disk.path("catalog.sqlite")
        #expect(try disk.catalog(["seed", "--database", database]).status == 0)
        #expect(try disk.catalog(["seed", "--count", "1000", "--database", database]).status == 0)
        let importFile = disk.path("import.json")
        try Data(#"[{"type":"desktop","name":"Full Imported","yearIntroduced":2001,"introPrice":2}]"#.utf8)
            .write(to: URL(fileURLWithPath: disk.hostPath("import.json")))
        let commands: [(arguments: [String], wrote: ([String]) -> Bool)] = [
            (["add", "product", "--type", "device", "--name", "Full Added", "--year", "2000", "--price", "1"], { $0.contains("Full Added") }),
            (["update", "1", "--name", "Full Renamed"], { $0.contains("Full Renamed") }),
            (["delete", "--search", "iPod touch", "--at", "0.0"], { !$0.contains("iPod touch") }),
            (["import", importFile], { $0.contains("Full Imported") }),
            (["seed", "--count", "500", "--seed", "9"], { _ in true }),
        ]
        try disk.fill()
        for command in commands {
            let before = try Self.productNames(disk, database)
            let result = try disk.catalog(command.arguments + ["--database", database])
            let after = try Self.productNames(disk, database)
            #expect(result.error.split(separator: "\n").count <= 1, "\(command.arguments): \(result)")
            if result.status == 0 || result.error.contains("but is kept only in") {
                #expect(command.wrote(after) && after != before, "\(command.arguments) says it wrote: \(result)")
            } else {
                #expect(result.status == 1 && result.error.contains("this command's change was not written"), "\(command.arguments): \(result)")
                #expect(after == before, "\(command.arguments) said its change was not written: \(result)")
            }
        }
    }
}
