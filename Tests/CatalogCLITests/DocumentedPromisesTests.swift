import Catalog
import Foundation
import SQLiteStore
import TestSupport
import Testing

/// What the `catalog` documentation (CatalogCLI.docc: Commands, Exit codes and errors, Guarantees)
/// promises about bad situations, checked against the built binary from the articles' words, for
/// the promises no other suite runs end to end.
struct DocumentedPromisesTests {
    let workspace: Workspace

    init() throws {
        workspace = try Workspace()
    }

    /// Exit codes, 5: "a write (or a pending migration, or `check`) found the database locked by another
    /// process for the whole busy timeout"; Guarantees, Isolation: each command's write is one
    /// transaction, so a refused one holds none of its write. Migrations: "a database that is up to
    /// date is never locked for writing", so `migrate` with nothing pending answers.
    @Test func everyWriteOfALockedDatabaseExits5AndWritesNothing() throws {
        try workspace.catalog("seed")
        let file = try workspace.write("type,name,yearIntroduced,introPrice\ndevice,Imported,2001,1\n", to: "more.csv")
        let before = try [workspace.catalog("export"), workspace.catalog("export", "--entity", "phones")].map(\.output)
        let quickly = ["CATALOG_BUSY_TIMEOUT_MS": "100"]
        let locker = try WriteLockHolder(path: workspace.database, seconds: 60)
        defer { locker.release() }
        let writes: [[String]] = [
            ["add", "product", "--type", "device", "--name", "Blocked", "--year", "2000", "--price", "1"],
            ["add", "phone", "--name", "Blocked", "--maker", "X", "--year", "2020", "--os", "Y", "--screen", "6"],
            ["update", "1", "--price", "1"], ["delete", "2"], ["delete", "--at", "0.0"], ["seed"], ["seed", "--count", "5"],
            ["import", file], ["check"],
        ]
        for arguments in writes {
            let result = try workspace.catalog(arguments, environment: quickly)
            #expect(result.status == 5, "\(arguments): \(result)")
            #expect(result.error == "catalog: error: the database is locked by another process; try again (SQLITE_BUSY)\n",
                    "\(arguments): \(result)")
            #expect(result.output.isEmpty, "\(arguments): \(result)")
        }
        let migrate = try workspace.catalog(["migrate"], environment: quickly)
        #expect(migrate.status == 0, "\(migrate)")
        locker.release()
        #expect(try [workspace.catalog("export"), workspace.catalog("export", "--entity", "phones")].map(\.output) == before)
    }

    /// Commands: "A database with a changed migration, or one written by a newer `catalog`, is refused
    /// by every command (exit 6)"; Guarantees: "`migrate --status` refuses the same files the same
    /// way"; on a server, "exit codes are the file's".
    @Test(arguments: StoreEngine.all)
    func aNewerOrChangedSchemaIsRefusedByEveryCommand(engine: StoreEngine) throws {
        let workspace = try Workspace(engine: engine)
        #expect(try workspace.catalog("seed").status == 0)
        let cases = [
            (["INSERT INTO schema_migrations (migration_set, version, name, checksum, applied_at) "
                + "SELECT migration_set, 9999, 'future', checksum, applied_at FROM schema_migrations WHERE version = 1"],
             "catalog: error: the database is at catalog schema version 9999, newer than this program knows ("),
            (["DELETE FROM schema_migrations WHERE version = 9999", "UPDATE schema_migrations SET checksum = 'changed' WHERE version = 1"],
             "catalog: error: catalog migration 1 (baseline) was changed after it was applied (checksum changed, now "),
        ]
        for (changes, message) in cases {
            if engine == .sqlite {
                let queue = try DatabaseQueue(path: workspace.database)
                try queue.write { db in for change in changes { try db.execute(sql: change) } }
                try queue.close()
            } else {
                let db = try #require(workspace.schema).connect()
                defer { db.close() }
                for change in changes { try db.execute(sql: change) }
            }
            for arguments in [["migrate", "--status"], ["migrate", "--status", "--json"], ["list"], ["export"], ["seed"], ["migrate"]] {
                // The database named alone (no replicas): a replica may answer up to a second behind
                // the change just made by another process (Commands, "Replicas").
                let result = try workspace.catalog(arguments, database: workspace.database)
                #expect(result.status == 6, "\(engine) \(arguments): \(result)")
                #expect(result.error.hasPrefix(message), "\(engine) \(arguments): \(result)")
                #expect(result.error.split(separator: "\n").count == 1, "\(engine) \(arguments): \(result)")
                #expect(result.output.isEmpty, "\(engine) \(arguments): \(result)")
            }
        }
    }

    /// Import, export and backups: "Within one file, `seed` keeps the first of two records with the
    /// same name and `import` the last"; on a server, the same.
    @Test(arguments: StoreEngine.all)
    func aNameTwiceInOneFileKeepsTheFirstWhenSeededAndTheLastWhenImported(engine: StoreEngine) throws {
        let text = """
            type,name,yearIntroduced,introPrice
            device,Twin,2001,1
            desktop,Twin,2002,2

            """
        for (command, kept) in [("seed", "device,Twin,2001,1"), ("import", "desktop,Twin,2002,2")] {
            let workspace = try Workspace(engine: engine)
            let file = try workspace.write(text, to: "twins.csv")
            let result = try workspace.catalog(command, file)
            #expect(result.status == 0, "\(command): \(result)")
            // The records without their ids, which the file does not give.
            let export = try workspace.catalog("export", "--format", "csv")
            let records = export.output.split(separator: "\r\n").map { $0.split(separator: ",", maxSplits: 1).last.map(String.init) }
            #expect(records == ["type,name,yearIntroduced,introPrice", kept], "\(command): \(export)")
        }
    }

    /// Exit codes: an error is one line and a non-zero exit code. `list`, `search` and `export` stream
    /// their rows, so one that meets a damaged page part way has written whole rows before it (a
    /// program reading them checks the exit code), and `export --output FILE` leaves no `FILE`.
    @Test func aStreamedListingThatMeetsDamagePartWayExits6() throws {
        let store = try CatalogStore(path: workspace.database)
        try store.seed([SeedFile(SyntheticCatalog.products(count: 20_000, seed: 3))])
        try store.file!.close()
        try Self.overwriteALeafPage(of: "products", in: workspace.database)

        for arguments in [["list", "--format", "csv"], ["list", "--format", "jsonl"], ["list", "--format", "tsv"], ["list"],
                          ["search", "a", "--format", "csv"], ["export", "--format", "jsonl"], ["export", "--format", "csv"]] {
            let result = try workspace.catalog(arguments)
            #expect(result.status == 6, "\(arguments): \(result.status) \(result.error)")
            #expect(result.error.hasPrefix("catalog: error: the database file is damaged"), "\(arguments): \(result.error)")
            #expect(result.error.split(separator: "\n").count == 1, "\(arguments): \(result.error)")
            #expect(result.output.utf8.last ?? UInt8(ascii: "\n") == UInt8(ascii: "\n"), "\(arguments): whole rows only")
            #expect(result.output.split(separator: "\n").count < 20_000, "\(arguments)")
        }
        let output = workspace.path("products.jsonl")
        let export = try workspace.catalog(["export", "--format", "jsonl", "--output", output])
        #expect(export.status == 6, "\(export)")
        let left = try FileManager.default.contentsOfDirectory(atPath: workspace.directory.url.path)
        #expect(!left.contains { $0.hasPrefix("products") }, "\(left)")
    }

    /// Exit codes: "nothing was written" is said only when nothing was. A write command refuses a
    /// damaged file of up to 8 MiB "without changing it" (Guarantees), also when the file is one a
    /// development version made, which opening would otherwise adopt (a write) before the check.
    @Test func aDamagedFileOfADevelopmentVersionIsRefusedUnchanged() throws {
        let store = try CatalogStore(path: workspace.database)
        try store.seed([SeedFile(SyntheticCatalog.products(count: 3_000, seed: 4))])
        try store.file!.close()
        try PreBaselineFile.rewrite(workspace.database, toVersion: 12)
        try Self.overwriteALeafPage(of: "products", in: workspace.database)
        let bytes = FileManager.default.contents(atPath: workspace.database)

        for arguments in [["add", "product", "--type", "device", "--name", "X", "--year", "2000", "--price", "1"], ["seed", "--count", "1"]] {
            let result = try workspace.catalog(arguments)
            #expect(result.status == 6, "\(arguments): \(result)")
            #expect(result.error.hasPrefix("catalog: error: the database file is damaged"), "\(arguments): \(result)")
            #expect(result.error.contains("nothing was written"), "\(arguments): \(result)")
            #expect(FileManager.default.contents(atPath: workspace.database) == bytes, "\(arguments) changed the file")
        }
    }

    /// Exit codes: a rejected import file's line says only what holds. With no default database,
    /// `import` first creates it with the built-in seeds (a commit of its own), so the line must not
    /// say that nothing was written: none of the file's records was, and the seeded database stays.
    @Test func aRejectedImportIntoANewDefaultDatabaseSaysOnlyWhatHolds() throws {
        let home = workspace.path("home")
        let bad = try workspace.write("type,name,yearIntroduced,introPrice\ndevice,iPod nano,2005,199\ndevice,Bad,2005,abc\n", to: "bad.csv")
        let result = try ProcessRunner.run("catalog", ["import", bad], home: home)
        #expect(result.status == 65, "\(result)")
        let lines = result.error.split(separator: "\n")
        #expect(lines.count == 2 && lines[0].hasPrefix("catalog: created ") && lines[0].hasSuffix("with the built-in seeds (9 products, 42 phones)"), "\(result)")
        let rejected = "catalog: error: cannot use \(bad): line 3, column 4 (introPrice): expected a number such as 599.99, "
            + "found \"abc\"; no record of the input was written"
        #expect(lines.last.map(String.init) == rejected, "\(result)")
        #expect(!result.error.contains("nothing was written"), "\(result)")
        let list = try ProcessRunner.run("catalog", ["export", "--format", "jsonl"], home: home)
        #expect(list.status == 0 && list.output.split(separator: "\n").count == 9, "\(list)")
        #expect(!list.output.contains("iPod nano"), "\(list)")
    }

    /// Exit codes, 1: a full disk is one line, `the disk or database is full…`, and exit 1; Guarantees:
    /// "a new database that cannot be set up is removed, leaving no file". Here the disk fills
    /// (`CATALOG_MAX_PAGE_COUNT`) while the new file's schema is created, inside its first migration.
    @Test(arguments: ["10", "30"])
    func aDiskThatFillsWhileANewDatabaseIsSetUpIsExit1(maximumPages: String) throws {
        let result = try workspace.catalog(
            ["add", "product", "--type", "device", "--name", "X", "--year", "2000", "--price", "1"],
            environment: ["CATALOG_MAX_PAGE_COUNT": maximumPages])
        #expect(result.status == 1, "\(result)")
        #expect(result.error.hasPrefix("catalog: error: the disk or database is full"), "\(result)")
        #expect(result.error.split(separator: "\n").count == 1, "\(result)")
        #expect(result.output.isEmpty)
        let left = try FileManager.default.contentsOfDirectory(atPath: workspace.directory.url.path)
        #expect(!left.contains { $0.hasPrefix("catalog.sqlite") }, "\(left)")
    }

    /// Overwrites the cells of a leaf page of `table` in the middle of its pages (its 8-byte header
    /// kept), so that any statement reading a row of that page fails with `SQLITE_CORRUPT`.
    static func overwriteALeafPage(of table: String, in path: String) throws {
        let queue = try DatabaseQueue(path: path)
        let pages = try queue.read { db in
            try db.fetchAll(sql: "SELECT pageno FROM dbstat WHERE name = ? AND pagetype = 'leaf' ORDER BY pageno", arguments: [table]) {
                try $0.decode(Int.self, at: 0)
            }
        }
        let pageSize = try queue.read { db in try db.scalar(Int.self, sql: "PRAGMA page_size") ?? 4096 }
        try queue.close()
        let page = try #require(pages.dropFirst(pages.count / 2).first)
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
        try handle.seek(toOffset: UInt64((page - 1) * pageSize + 8))
        try handle.write(contentsOf: Data(repeating: 0xAB, count: pageSize - 8))
        try handle.close()
    }
}
