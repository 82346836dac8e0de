import Catalog
import Foundation
import SQLiteStore
import TestSupport
import Testing

/// Two real users and one database in a shared folder (mode 1777, as `/tmp`): the owner writes it,
/// another user reads it. The reader must leave no file of its own beside the database, and the owner
/// must still be able to write; or the reader is refused in one line and leaves nothing.
///
/// The users are made with `setpriv`, so the tests need root (and are skipped otherwise).
struct SharedFolderTests {
    /// The database's owner and the other user: uids that need no account.
    static let owner: uid_t = 4_242
    static let reader: uid_t = 65_534

    static var canActAsOtherUsers: Bool {
        getuid() == 0 && FileManager.default.isExecutableFile(atPath: "/usr/bin/setpriv")
    }

    /// A folder like `/tmp` in a workspace that every user can reach, and the database path in it.
    private static func sharedFolder(_ workspace: Workspace) throws -> String {
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: workspace.directory.url.path)
        let folder = workspace.path("shared")
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        try FileManager.default.setAttributes([.posixPermissions: 0o1777], ofItemAtPath: folder)
        return folder + "/catalog.sqlite"
    }

    /// Runs `catalog` as the user `user`.
    private static func catalog(as user: uid_t, _ arguments: [String], database: String) throws -> ProcessResult {
        let catalog = ProcessRunner.productsDirectory.appendingPathComponent("catalog").path
        return try ProcessRunner.run(
            executable: URL(fileURLWithPath: "/usr/bin/setpriv"),
            ["--reuid=\(user)", "--regid=\(user)", "--clear-groups", catalog] + arguments + ["--database", database],
            home: "/tmp")
    }

    /// The owner of each file in the folder of `database`, by name.
    private static func owners(besides database: String) throws -> [String: uid_t] {
        let folder = (database as NSString).deletingLastPathComponent
        var owners: [String: uid_t] = [:]
        for name in try FileManager.default.contentsOfDirectory(atPath: folder) {
            var info = stat()
            if stat(folder + "/" + name, &info) == 0 { owners[name] = info.st_uid }
        }
        return owners
    }

    /// A command that adds a product named `name`.
    private static func addition(_ name: String) -> [String] {
        ["add", "product", "--type", "device", "--name", name, "--year", "2000", "--price", "1"]
    }

    /// Expects every file in the folder of `database` to be the owner's.
    private func expectOnlyTheOwnersFiles(besides database: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let owners = try Self.owners(besides: database)
        #expect(owners.values.allSatisfy { $0 == Self.owner }, "\(owners)", sourceLocation: sourceLocation)
    }

    /// What the reader does: every read command, and a write, which fails. (Not `check`: SQLite's FTS5
    /// integrity check is an INSERT, which a user who cannot write the file may not run.)
    private static func readAsTheOtherUser(_ database: String) throws {
        for command in [["list"], ["search", "ipod"], ["show", "1.1"], ["suggest", "i"], ["export"], ["migrate", "--status"]] {
            let result = try catalog(as: reader, command, database: database)
            #expect(result.status == 0, "\(command): \(result)")
        }
        let write = try catalog(as: reader, addition("Reader's"), database: database)
        #expect(write.status == 6, "\(write)")
        #expect(write.error.hasPrefix("catalog: error: the database is read-only"), "\(write)")
    }

    @Test(.enabled(if: canActAsOtherUsers, "needs root and setpriv to act as two users"))
    func anotherUsersReadsLeaveTheOwnerAbleToWrite() throws {
        let workspace = try Workspace()
        let database = try Self.sharedFolder(workspace)
        let seed = try Self.catalog(as: Self.owner, ["seed"], database: database)
        #expect(seed.status == 0, "\(seed)")

        try Self.readAsTheOtherUser(database)
        try expectOnlyTheOwnersFiles(besides: database)
        let write = try Self.catalog(as: Self.owner, Self.addition("Owner's"), database: database)
        #expect(write.status == 0, "\(write)")
        let list = try Self.catalog(as: Self.reader, ["list"], database: database)
        #expect(list.output.contains("Owner's"), "the reader sees the owner's last commit: \(list)")
    }

    /// The owner's program closed its last connection (the catalog's library does so when the store
    /// is released), as SQLite then removes the `-wal` and `-shm` files unless told to keep them.
    @Test(.enabled(if: canActAsOtherUsers, "needs root and setpriv to act as two users"))
    func aReadAfterTheOwnersLastCloseLeavesTheOwnerAbleToWrite() throws {
        let workspace = try Workspace()
        let database = try Self.sharedFolder(workspace)
        let store = try CatalogStore(path: database)
        try store.seed(SeedFile.builtIn)
        try store.file!.close()
        for name in try FileManager.default.contentsOfDirectory(atPath: (database as NSString).deletingLastPathComponent) {
            #expect(chown(workspace.path("shared/" + name), Self.owner, Self.owner) == 0)
        }
        #expect(fileSize(database + "-wal") == 0, "the -wal is kept, empty")

        try Self.readAsTheOtherUser(database)
        try expectOnlyTheOwnersFiles(besides: database)
        let write = try Self.catalog(as: Self.owner, Self.addition("Owner's"), database: database)
        #expect(write.status == 0, "\(write)")
    }

    /// Without the `-wal` and `-shm` files (removed by another program's last close, or by a restore
    /// from a backup), or without the `-shm` alone, reading would have to create them as the reader's:
    /// the reader is refused in one line and leaves nothing.
    @Test(.enabled(if: canActAsOtherUsers, "needs root and setpriv to act as two users"))
    func aReadThatWouldCreateTheReadersFilesIsRefused() throws {
        let workspace = try Workspace()
        let database = try Self.sharedFolder(workspace)
        #expect(try Self.catalog(as: Self.owner, ["seed"], database: database).status == 0)
        let removals: [(String, () throws -> Void)] = [
            // Root is not the owner, so its last close checkpoints and removes both files, as SQLite does.
            ("-wal and -shm", { try DatabaseCheck.withQueue(database) { db in try db.execute(sql: "SELECT 1") } }),
            ("-shm", { try FileManager.default.removeItem(atPath: database + "-shm") }),
        ]
        for (missing, remove) in removals {
            try remove()
            #expect(!FileManager.default.fileExists(atPath: database + "-shm"))
            let bytes = fileBytes(database)

            let list = try Self.catalog(as: Self.reader, ["list"], database: database)
            #expect(list.status == 6, "\(list)")
            #expect(list.error == "catalog: error: cannot open the database: \(database) is another user's database and its "
                + "\(missing) \(missing.contains("and") ? "files are" : "file is") missing: opening it would create "
                + "\(missing.contains("and") ? "them" : "it") as this user's and lock its owner out of writing "
                + "(its owner's next use restores \(missing.contains("and") ? "them" : "it")) (SQLITE_CANTOPEN)\n", "\(list)")
            #expect(list.output.isEmpty)
            #expect(fileBytes(database) == bytes)
            try expectOnlyTheOwnersFiles(besides: database)

            let write = try Self.catalog(as: Self.owner, Self.addition("Owner's, without \(missing)"), database: database)
            #expect(write.status == 0, "\(write)")
        }
        try Self.readAsTheOtherUser(database)
        try expectOnlyTheOwnersFiles(besides: database)
    }
}
