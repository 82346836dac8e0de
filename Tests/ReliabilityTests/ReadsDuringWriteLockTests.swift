import Catalog
import Foundation
import SQLiteStore
import TestSupport
import Testing

/// A read never waits for a writer: while another process holds the write lock (`BEGIN IMMEDIATE` or
/// `BEGIN EXCLUSIVE`, which in WAL mode are the same lock), every read command answers with the last
/// committed data; only a write, or a pending migration, waits for the busy timeout and exits 5.
struct ReadsDuringWriteLockTests {
    /// A busy timeout far shorter than any lock the tests hold: a command that waited for the lock exits
    /// 5 instead of answering.
    static let shortBusyTimeout = ["CATALOG_BUSY_TIMEOUT_MS": "100"]

    static let readCommands: [[String]] = [
        ["list"], ["show", "1.2"], ["show", "--id", "1"], ["search", "ipod"], ["suggest", "ip"], ["export"],
        ["list", "phones", "--json"], ["migrate", "--status"],
    ]

    @Test(arguments: ["BEGIN IMMEDIATE", "BEGIN EXCLUSIVE"])
    func everyReadCommandAnswersWhileAnotherProcessHoldsTheWriteLock(_ begin: String) throws {
        let workspace = try Workspace()
        #expect(try workspace.catalog(["seed"]).status == 0)
        let expected = try Self.readCommands.map { try workspace.catalog($0) }

        let writer = try WriterProcess(path: workspace.database)
        defer { writer.finish() }
        #expect(try writer.run(begin) == "ok")
        #expect(try writer.run(ReadersDuringWritesTests.insertSQL("Uncommitted", type: .device)) == "ok")
        for (command, before) in zip(Self.readCommands, expected) {
            let result = try workspace.catalog(command, environment: Self.shortBusyTimeout)
            #expect(result.status == 0, "\(command): \(result)")
            #expect(result.output == before.output, "\(command) shows the last committed data")
        }
        let add = try workspace.catalog(
            ["add", "product", "--type", "device", "--name", "Blocked", "--year", "2000", "--price", "1"],
            environment: Self.shortBusyTimeout)
        #expect(add.status == 5, "a write waits for the lock: \(add)")
        #expect(try writer.run("ROLLBACK") == "ok")
    }

    @Test func watchPrintsItsListAtOnceAndTheChangeWhenTheWriterCommits() throws {
        let workspace = try Workspace()
        #expect(try workspace.catalog(["seed"]).status == 0)
        let writer = try WriterProcess(path: workspace.database)
        defer { writer.finish() }
        #expect(try writer.run("BEGIN IMMEDIATE") == "ok")
        #expect(try writer.run(ReadersDuringWritesTests.insertSQL("Committed Later", type: .device)) == "ok")

        let watch = try RunningProcess(
            "catalog", ["watch", "--scope", "device", "--database", workspace.database], home: workspace.path("home"),
            environment: Self.shortBusyTimeout)
        var list: [String] = []
        while let line = watch.nextLine(), !line.isEmpty {
            list.append(line)
            if line.contains("iPod touch") { break }
        }
        #expect(list.first?.hasPrefix("PATH") == true, "\(list)")
        #expect(list.contains { $0.contains("iPod touch") }, "\(list)")
        #expect(!list.contains { $0.contains("Committed Later") })

        #expect(try writer.run("COMMIT") == "ok")
        #expect(watch.nextLine() == "— 1 insert")
        #expect(watch.nextLine()?.contains("Committed Later") == true)
        let stopped = try watch.stop()
        #expect(stopped.status == 0, "\(stopped.error)")
    }

    /// A database one migration behind must be migrated, which needs the write lock: that waits.
    @Test func aPendingMigrationWaitsForTheLock() throws {
        let workspace = try Workspace()
        let queue = try DatabaseQueue(path: workspace.database)
        let latest = CatalogMigrations.set.latestVersion
        try queue.writeWithoutTransaction { db in
            _ = try CatalogMigrations.migrator().migrate(upTo: [CatalogMigrations.identity: latest - 1], db)
        }
        try queue.close()

        let writer = try WriterProcess(path: workspace.database)
        defer { writer.finish() }
        #expect(try writer.run("BEGIN IMMEDIATE") == "ok")
        let list = try workspace.catalog(["list"], environment: Self.shortBusyTimeout)
        #expect(list.status == 5, "\(list)")
        #expect(list.error.hasPrefix("catalog: error: the database is locked by another process"), "\(list)")
        #expect(try writer.run("ROLLBACK") == "ok")
        #expect(try workspace.catalog(["list"]).status == 0)
    }
}
