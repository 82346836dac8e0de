import Catalog
import Foundation
import TestSupport
import Testing

/// A FIFO or a device given as the database, and `migrate --status` on files it cannot use: a clear
/// error at once (exit 6), and nothing created or changed beside them.
struct SpecialFileTests {
    static let commands: [[String]] = [
        ["list"], ["migrate", "--status"], ["check"], ["export"],
        ["add", "product", "--type", "device", "--name", "X", "--year", "2000", "--price", "1"],
    ]

    /// Runs a system tool and expects it to succeed.
    private func system(_ tool: String, _ arguments: [String]) throws {
        let result = try ProcessRunner.run(executable: URL(fileURLWithPath: tool), arguments)
        #expect(result.status == 0, "\(tool) \(arguments): \(result)")
    }

    @Test func aFIFOIsRefusedAtOnce() throws {
        let workspace = try Workspace()
        let fifo = workspace.path("pipe.sqlite")
        try system("/usr/bin/mkfifo", [fifo])
        for command in Self.commands {
            // A command that opened the FIFO would block here for ever.
            let result = try workspace.catalog(command, database: fifo)
            #expect(result.status == 6, "\(command): \(result)")
            #expect(result.error == "catalog: error: cannot open the database: \(fifo) is a FIFO, not a database file (SQLITE_CANTOPEN)\n")
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: workspace.directory.url.path).sorted() == ["pipe.sqlite"])
    }

    @Test(.enabled(if: getuid() == 0, "making a device node needs root"))
    func aCharacterDeviceIsRefusedAndNothingIsCreatedBesideIt() throws {
        let workspace = try Workspace()
        let device = workspace.path("null.sqlite")
        try system("/usr/bin/mknod", [device, "c", "1", "3"])
        for command in Self.commands {
            let result = try workspace.catalog(command, database: device)
            #expect(result.status == 6, "\(command): \(result)")
            #expect(result.error.hasSuffix("is a character device, not a database file (SQLITE_CANTOPEN)\n"), "\(command): \(result)")
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: workspace.directory.url.path).sorted() == ["null.sqlite"])
    }

    @Test(arguments: DamagedFileTests.Damage.allCases)
    func migrateStatusRefusesWhatEveryCommandRefuses(_ damage: DamagedFileTests.Damage) throws {
        let workspace = try Workspace()
        let path = try DamagedFileTests.damagedDatabase(damage, in: workspace)
        let bytes = fileBytes(path)
        let result = try workspace.catalog(["migrate", "--status"], database: path)
        #expect(result.status == 6, "\(result)")
        #expect(result.error.hasPrefix("catalog: error: " + damage.message(path)), "\(result)")
        #expect(result.output.isEmpty)
        #expect(fileBytes(path) == bytes)
        let left = try FileManager.default.contentsOfDirectory(atPath: workspace.directory.url.path)
        #expect(left.filter { $0.hasPrefix("damaged") } == ["damaged.sqlite"], "no -wal or -shm left behind")
    }

    @Test func migrateStatusOfAFolderAndOfASoundFileLeavesNothing() throws {
        let workspace = try Workspace()
        let folder = try workspace.catalog(["migrate", "--status"], database: workspace.directory.url.path)
        #expect(folder.status == 6, "\(folder)")
        #expect(try workspace.catalog(["seed"]).status == 0)
        // The owner's -wal and -shm stay beside the database (see SharedFolderTests); status adds none.
        let files = try FileManager.default.contentsOfDirectory(atPath: workspace.directory.url.path).sorted()
        let status = try workspace.catalog(["migrate", "--status"])
        #expect(status.status == 0, "\(status)")
        #expect(!status.output.contains("pending"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: workspace.directory.url.path).sorted() == files)
    }
}
