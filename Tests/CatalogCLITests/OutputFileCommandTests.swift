import Foundation
import TestSupport
import Testing

/// The files `export --output` and `backup` write whole: a destination that cannot be created is said
/// in one line naming it and why, exits 66 before any work, and leaves nothing beside it.
struct OutputFileCommandTests {
    let workspace: Workspace

    init() throws {
        workspace = try Workspace()
        try workspace.catalog(["seed"])
    }

    /// The names in the workspace's folder (and in `folder` inside it), sorted.
    private func files(in folder: String? = nil) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: folder.map(workspace.path) ?? workspace.directory.url.path).sorted()
    }

    /// Each destination that cannot be created, with the reason the error gives.
    private func unwritable() throws -> [(path: String, reason: String)] {
        try FileManager.default.createDirectory(atPath: workspace.path("folder"), withIntermediateDirectories: false)
        try workspace.write("", to: "plain")
        return [
            (workspace.path("folder"), "it is a folder"),
            (workspace.path("missing/out.file"), "the folder \(workspace.path("missing")) does not exist"),
            (workspace.path("plain/out.file"), "\(workspace.path("plain")) is not a folder"),
            ("/dev/null", "it is a device, FIFO or socket, not a regular file"),
        ]
    }

    @Test func exportToAFileThatCannotBeCreatedSaysWhyAndExits66() throws {
        let cases = try unwritable()
        let before = try files()
        for (path, reason) in cases {
            let result = try workspace.catalog(["export", "--format", "csv", "--output", path])
            #expect(result.status == 66, "\(path): \(result)")
            #expect(result.error == "catalog: error: cannot write \(path): \(reason)\n")
            #expect(result.output.isEmpty)
        }
        #expect(try files() == before, "nothing partial is left")
        #expect(try files(in: "folder").isEmpty)
    }

    @Test func backupToAFileThatCannotBeCreatedSaysWhyAndExits66() throws {
        let cases = try unwritable()
        let before = try files()
        for (path, reason) in cases {
            for force in [[], ["--force"]] {
                let result = try workspace.catalog(["backup", path] + force)
                #expect(result.status == 66, "\(path) \(force): \(result)")
                #expect(result.error == "catalog: error: cannot write \(path): \(reason)\n")
                #expect(result.output.isEmpty)
            }
        }
        #expect(try files() == before, "nothing partial is left")
        #expect(try files(in: "folder").isEmpty)
    }

    /// A name the file system takes, but not with the suffix of the file written beside it: the
    /// failure comes after the checks, and is still said of the output, exit 66.
    @Test func aFileBesideTheOutputThatCannotBeCreatedIsSaidOfTheOutput() throws {
        let path = workspace.path(String(repeating: "x", count: 245) + ".sqlite")
        let before = try files()
        for command in [["export", "--output", path], ["backup", path]] {
            let result = try workspace.catalog(command)
            #expect(result.status == 66, "\(command): \(result)")
            #expect(result.error.hasPrefix("catalog: error: cannot write \(path): "), "\(command): \(result)")
            #expect(result.error.filter { $0 == "\n" }.count == 1)
        }
        #expect(try files() == before, "nothing partial is left")
    }

    /// A rename over the database (by any name) or its `-wal` would destroy it.
    @Test func theDatabaseItselfIsNeverTheOutput() throws {
        let database = workspace.database
        let before = try workspace.catalog(["export"]).output
        try FileManager.default.createSymbolicLink(atPath: workspace.path("link.sqlite"), withDestinationPath: database)
        let cases = [
            (database, "it is the database itself"), (workspace.path("link.sqlite"), "it is the database itself"),
            (database + "-wal", "it is the database's -wal file"),
        ]
        for (path, reason) in cases {
            for command in [["export", "--output", path], ["backup", path, "--force"]] {
                let result = try workspace.catalog(command)
                #expect(result.status == 66, "\(command): \(result)")
                #expect(result.error == "catalog: error: cannot write \(path): \(reason)\n", "\(command)")
            }
        }
        #expect(try workspace.catalog(["export"]).output == before)
        #expect(try workspace.catalog(["check"]).output == "ok\n")
    }

    /// Exit codes: 66 for the database's `-wal`, `-shm` or `-journal` file under any name, also when
    /// it is not there now: a `-journal` written beside a database is a hot journal to SQLite, and every
    /// later open would fail on it.
    @Test func aFileOfTheDatabaseThatIsNotThereIsNeverTheOutput() throws {
        let database = workspace.database
        #expect(!FileManager.default.fileExists(atPath: database + "-journal"))
        try FileManager.default.createDirectory(atPath: workspace.path("sub"), withIntermediateDirectories: false)
        let before = try files()
        let viaDotDot = workspace.path("sub/..") + "/" + (database as NSString).lastPathComponent + "-journal"
        for path in [database + "-journal", viaDotDot] {
            for command in [["export", "--output", path], ["backup", path, "--force"]] {
                let result = try workspace.catalog(command)
                #expect(result.status == 66, "\(command): \(result)")
                #expect(result.error == "catalog: error: cannot write \(path): it is the database's -journal file\n", "\(command)")
            }
        }
        #expect(try files() == before)
        let fresh = workspace.path("fresh.sqlite")
        let result = try workspace.catalog(["export", "--output", fresh], database: fresh)
        #expect(result.status == 66, "\(result)")
        #expect(result.error == "catalog: error: cannot write \(fresh): it is the database itself\n")
        #expect(try files() == before, "nothing written, no database created")
        #expect(try workspace.catalog(["check"]).output == "ok\n")
    }

    @Test(.enabled(if: getuid() != 0, "root may write any folder"))
    func aFolderThisUserCannotWriteIsSaid() throws {
        let folder = workspace.path("locked")
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: false, attributes: [.posixPermissions: 0o555])
        defer { chmod(folder, 0o755) }
        for command in [["export", "--output", folder + "/out.json"], ["backup", folder + "/out.sqlite"]] {
            let result = try workspace.catalog(command)
            #expect(result.status == 66, "\(result)")
            #expect(result.error.hasSuffix(": this user may not create files in \(folder)\n"), "\(result)")
        }
    }

    /// `--output -` is standard output, as `-` is standard input for `import`: no file named `-`.
    @Test func exportToDashWritesStandardOutput() throws {
        let catalog = ProcessRunner.productsDirectory.appendingPathComponent("catalog").path
        let before = try files()
        for format in ["csv", "json"] {
            let expected = try workspace.catalog(["export", "--format", format])
            // Run in the workspace's folder, where a file named `-` would appear.
            let result = try ProcessRunner.run(
                executable: URL(fileURLWithPath: "/bin/sh"),
                ["-c", #"cd "$1" && exec "$2" export --output - --format "$3" --database "$4""#, "sh",
                 workspace.directory.url.path, catalog, format, workspace.database],
                home: workspace.path("home"))
            #expect(result.status == 0, "\(result)")
            #expect(result.output == expected.output && !result.output.isEmpty, "\(result)")
            #expect(try files() == before, "no file named -")
        }
        let fallback = try workspace.catalog(["export", "--output", "-"])
        #expect(fallback.output.hasPrefix("["), "JSON, as without --output: \(fallback)")
    }
}
