import Catalog
import Foundation
import SQLiteStore
import TestSupport
import Testing

/// When a writing command ends, the database file alone holds every commit: a copy of it without its
/// `-wal` (what users copy, and what the README's restore keeps) finds each one. SQLite-only: the
/// `-wal` is SQLite's; on PostgreSQL a commit is in the server's files when it is acknowledged.
struct MainFileCommitsTests {
    /// `sql`'s one integer, read from a copy of the database file alone.
    private func inCopyOfMainFile(_ workspace: Workspace, _ sql: String) throws -> Int? {
        let copy = workspace.path("copy-\(UUID().uuidString).sqlite")
        try FileManager.default.copyItem(atPath: workspace.database, toPath: copy)
        return try DatabaseCheck.withQueue(copy) { db in try db.scalar(Int.self, sql: sql) }
    }

    @Test func afterEveryWritingCommand() throws {
        let workspace = try Workspace()
        let importFile = try workspace.write(
            #"[{"type":"desktop","name":"Imported","yearIntroduced":2001,"introPrice":2}]"#, to: "import.json")
        let steps: [(arguments: [String], check: String)] = [
            (["seed"], "SELECT count(*) = 9 FROM products"),
            (["add", "product", "--type", "device", "--name", "Copied", "--year", "2000", "--price", "1"],
             "SELECT count(*) FROM products WHERE name = 'Copied'"),
            (["update", "1", "--name", "Renamed"], "SELECT count(*) FROM products WHERE id = 1 AND name = 'Renamed'"),
            (["delete", "2"], "SELECT count(*) = 0 FROM products WHERE id = 2"),
            (["import", importFile], "SELECT count(*) FROM products WHERE name = 'Imported'"),
            (["seed", "--count", "3000", "--seed", "4"], "SELECT count(*) > 3000 FROM products"),
            (["add", "phone", "--name", "Last", "--maker", "M", "--year", "2020", "--os", "o", "--screen", "6"],
             "SELECT count(*) FROM phones WHERE name = 'Last'"),
        ]
        for step in steps {
            let result = try workspace.catalog(step.arguments)
            #expect(result.status == 0, "\(step.arguments): \(result)")
            #expect(try inCopyOfMainFile(workspace, step.check) == 1, "after \(step.arguments)")
        }
    }

    /// Another process that has the file open (a `watch`) keeps SQLite's own close from checkpointing:
    /// the command's close copies its commits anyway.
    @Test func whileAnotherProcessHasTheFileOpen() throws {
        let workspace = try Workspace()
        #expect(try workspace.catalog(["seed"]).status == 0)
        let watch = try RunningProcess("catalog", ["watch", "--json", "--database", workspace.database], home: workspace.path("home"))
        #expect(watch.nextLine() != nil)
        let add = try workspace.catalog(["add", "product", "--type", "device", "--name", "Watched", "--year", "2000", "--price", "1"])
        #expect(add.status == 0, "\(add)")
        #expect(watch.nextLine() != nil, "watch saw the commit")
        #expect(try inCopyOfMainFile(workspace, "SELECT count(*) FROM products WHERE name = 'Watched'") == 1)
        #expect(try watch.stop().status == 0)
    }

    /// The library's promise: closing a store whose connection wrote leaves its commits in the file,
    /// while another connection has it open.
    @Test func closingAWriterCheckpoints() throws {
        let workspace = try Workspace()
        let other = try DatabaseQueue(path: workspace.database)
        let store = try CatalogStore(path: workspace.database)
        try store.seed(SeedFile.builtIn)
        try store.insert(Product(type: .device, name: "Closed", yearIntroduced: 2001, introPrice: 1))
        try store.file!.close()
        #expect(try inCopyOfMainFile(workspace, "SELECT count(*) FROM products WHERE name = 'Closed'") == 1)
        try other.close()
    }
}
