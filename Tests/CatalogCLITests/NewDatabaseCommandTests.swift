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
        #expect(result.error == "catalog: error: the disk or database is full; this command's change was not written (SQLITE_FULL)\n")
        #expect(result.output.isEmpty)
        #expect(files(in: workspace.directory.url.path).filter { $0.hasPrefix("new.sqlite") }.isEmpty,
                "no database, -wal or -shm left: \(files(in: workspace.directory.url.path))")
        #expect(try workspace.catalog(command, database: database, input: "").status == 0, "with room it works")
    }

    @Test func aNewDefaultDatabaseThatCannotBeSeededIsRemoved() throws {
        let home = workspace.path("home")
        let result = try ProcessRunner.run("catalog", ["list"], environment: onePage, home: home)
        #expect(result.status == 1, "\(result)")
        #expect(result.error == "catalog: error: the disk or database is full; this command's change was not written (SQLITE_FULL)\n")
        #expect(files(in: home + "/data/catalog").isEmpty, "\(files(in: home + "/data/catalog"))")
    }

    /// A database and an output file named by one character, relative to the current folder: their
    /// folder is `.` (Foundation's `deletingLastPathComponent`, used before, trapped on such a path).
    @Test func oneCharacterRelativePaths() throws {
        let catalog = ProcessRunner.productsDirectory.appendingPathComponent("catalog").path
        let script = "cd \"$1\" && \"$2\" seed --database x && \"$2\" export --database x --format csv --output y"
        let result = try ProcessRunner.run(
            executable: URL(fileURLWithPath: "/bin/sh"), ["-c", script, "sh", workspace.directory.url.path, catalog])
        #expect(result.status == 0, "\(result)")
        #expect(result.output == "Added 9 products and 42 phones (0 already there).\n")
        #expect(FileManager.default.fileExists(atPath: workspace.path("x")))
        #expect(FileManager.default.contents(atPath: workspace.path("y"))?.starts(with: Data("id,".utf8)) == true)
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

    /// A pre-existing empty file that a command fails on is left empty, and the `-wal` and `-shm`
    /// files it created beside it are removed: on a full disk, and on a bad import file.
    @Test func anEmptyFileThatWasThereIsLeftEmpty() throws {
        let database = try workspace.write("", to: "empty.sqlite")
        let full = try workspace.catalog(["list"], database: database, environment: onePage)
        #expect(full.status == 1, "\(full)")
        let badImport = try workspace.catalog(
            ["import", "-", "--format", "csv"], database: database, input: "type,name,yearIntroduced,introPrice\ndevice,X,2000,abc\n")
        #expect(badImport.status == 65, "\(badImport)")
        for result in [full, badImport] {
            #expect(result.output.isEmpty)
        }
        #expect(FileManager.default.contents(atPath: database) == Data(), "still the empty file")
        #expect(files(in: workspace.directory.url.path).filter { $0.hasPrefix("empty.sqlite") } == ["empty.sqlite"],
                "no -wal or -shm left: \(files(in: workspace.directory.url.path))")
        #expect(try workspace.catalog(["list"], database: database).status == 0, "with room it works")
    }

    /// A database in a folder that does not exist (or is not a folder) is said in one line naming the
    /// path and why, exit 6, and nothing is created; a read-only command says there is no database.
    @Test(arguments: [
        ["list"], ["add", "product", "--type", "device", "--name", "X", "--year", "2000", "--price", "1"], ["seed"],
        ["import", "-", "--format", "jsonl"], ["export", "--format", "CSV"],
    ])
    func aDatabaseInAMissingFolderIsSaidInOneLine(command: [String]) throws {
        let plain = try workspace.write("", to: "plain")
        let cases = [
            (workspace.path("missing/new.sqlite"), "the folder \(workspace.path("missing")) does not exist"),
            (plain + "/new.sqlite", "\(plain) is not a folder"),
        ]
        for (database, reason) in cases {
            for viaEnvironment in [false, true] {
                let result = viaEnvironment
                    ? try ProcessRunner.run(
                        "catalog", command, environment: ["CATALOG_DATABASE": database], home: workspace.path("home"), input: "")
                    : try workspace.catalog(command, database: database, input: "")
                #expect(result.status == 6, "\(result)")
                #expect(result.error == "catalog: error: cannot create the database \(database): \(reason)\n", "\(result)")
                #expect(result.output.isEmpty)
            }
        }
        #expect(!FileManager.default.fileExists(atPath: workspace.path("missing")), "no folder created")
        #expect(files(in: workspace.directory.url.path).filter { $0.contains("sqlite") }.isEmpty, "no database created")
        let check = try workspace.catalog(["check"], database: cases[0].0)
        #expect(check.status == 6 && check.error == "catalog: error: no database at \(cases[0].0)\n", "\(check)")
    }
}
