import Foundation
import TestSupport
import Testing

/// A database a command creates and then cannot set up (a full disk, simulated with
/// `CATALOG_MAX_PAGE_COUNT`) is removed with the files beside it; a file that was there before stays.
struct NewDatabaseCommandTests {
    let workspace: Workspace
    /// Room for the database's first page only: the switch to WAL fits, the first migration does not.
    let onePage = ["CATALOG_MAX_PAGE_COUNT": "1"]

    init() throws {
        workspace = try Workspace()
    }

    /// The names in `folder`, sorted; none when it does not exist.
    private func files(in folder: String) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).sorted()
    }

    @Test(arguments: [
        ["list"], ["export"], ["add", "product", "--type", "device", "--name", "X", "--year", "2000", "--price", "1"],
        ["seed"], ["import", "-", "--format", "jsonl"],
    ])
    func aNewDatabaseThatCannotBeSetUpIsRemoved(command: [String]) throws {
        let database = workspace.path("new.sqlite")
        let result = try workspace.catalog(command, database: database, environment: onePage, input: "")
        #expect(result.status == 1, "\(result)")
        #expect(result.error == "catalog: error: the disk or database is full; nothing was written (SQLITE_FULL)\n")
        #expect(result.output.isEmpty)
        #expect(files(in: workspace.directory.url.path).filter { $0.hasPrefix("new.sqlite") }.isEmpty,
                "no database, -wal or -shm left: \(files(in: workspace.directory.url.path))")
        #expect(try workspace.catalog(command, database: database, input: "").status == 0, "with room it works")
    }

    @Test func aNewDefaultDatabaseThatCannotBeSeededIsRemoved() throws {
        let home = workspace.path("home")
        let result = try ProcessRunner.run("catalog", ["list"], environment: onePage, home: home)
        #expect(result.status == 1, "\(result)")
        #expect(result.error == "catalog: error: the disk or database is full; nothing was written (SQLITE_FULL)\n")
        #expect(files(in: home + "/data/catalog").isEmpty, "\(files(in: home + "/data/catalog"))")
    }

    @Test func aFileThatWasThereIsNotRemoved() throws {
        let database = try workspace.write("", to: "empty.sqlite")
        let result = try workspace.catalog(["list"], database: database, environment: onePage)
        #expect(result.status == 1, "\(result)")
        #expect(FileManager.default.fileExists(atPath: database), "an empty file is a database SQLite may use")

        try workspace.catalog(["seed"])
        let seeded = FileManager.default.contents(atPath: workspace.database)
        let full = try workspace.catalog(["seed", "--count", "3000"], environment: ["CATALOG_MAX_PAGE_COUNT": "60"])
        #expect(full.status == 1, "\(full)")
        #expect(FileManager.default.contents(atPath: workspace.database) == seeded)
    }
}
