import Catalog
import FetchedResults
import Foundation
import Synchronization
import SQLiteStore
import TestSupport
import Testing

/// `catalog watch` sees other processes' writes as change sets, and Ctrl-C ends it cleanly.
struct WatchCommandTests {
    let workspace: Workspace
    var database: String { workspace.database }

    init() throws {
        workspace = try Workspace()
    }

    private func json(_ line: String?) throws -> [String: Any] {
        let line = try #require(line, "watch printed nothing in time")
        return try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
    }

    private func changes(_ object: [String: Any]) -> [String] {
        (object["changes"] as? [[String: Any]] ?? []).map { change in
            let kind = change["kind"] as? String ?? "?"
            let id = change["id"] as? Int ?? -1
            let place = (change["path"] as? String) ?? "\(change["from"] as? String ?? "?")→\(change["to"] as? String ?? "?")"
            return "\(kind) \(id) \(place)"
        }
    }

    @Test(arguments: StoreEngine.all) func seesAnotherProcessAddRenameAndDelete(engine: StoreEngine) throws {
        let workspace = try Workspace(engine: engine)
        let database = workspace.database
        try workspace.catalog("seed")
        let watch = try RunningProcess("catalog", ["watch", "--scope", "device", "--json", "--database", database])
        let initial = try json(watch.nextLine())
        let sections = try #require(initial["sections"] as? [[String: Any]])
        #expect(sections.map { $0["count"] as? Int } == [5])

        #expect(try workspace.catalog("add", "product", "--type", "device", "--name", "iPhone 16", "--year", "2024", "--price", "799").status == 0)
        #expect(changes(try json(watch.nextLine())) == ["insert 10 0.3"])

        // iPod (id 2, at 0.3 before iPod touch) renamed "Apple iPod": it moves to the top.
        #expect(try workspace.catalog("update", "2", "--name", "Apple iPod").status == 0)
        #expect(changes(try json(watch.nextLine())) == ["move 2 0.4→0.0"])

        #expect(try workspace.catalog("delete", "4").status == 0)  // iPad
        let deletion = try json(watch.nextLine())
        #expect(changes(deletion) == ["delete 4 0.1"])
        #expect((deletion["sections"] as? [[String: Any]])?.first?["count"] as? Int == 5)

        // Moving the last portables away deletes their section; the list of devices does not see it.
        #expect(try workspace.catalog("update", "3", "--type", "portable").status == 0)  // iPod touch leaves devices
        #expect(changes(try json(watch.nextLine())) == ["delete 3 0.4"])

        let (status, error) = try watch.stop()
        #expect(status == 0)
        #expect(error.isEmpty)
    }

    @Test(arguments: StoreEngine.all) func printsChangeSetsAsATable(engine: StoreEngine) throws {
        let workspace = try Workspace(engine: engine)
        let database = workspace.database
        try workspace.catalog("seed")
        let watch = try RunningProcess("catalog", ["watch", "--scope", "portable", "--database", database])
        #expect(watch.nextLine() == "PATH  NAME         TYPE      YEAR     PRICE  ID")
        #expect(watch.nextLine() == "Portable (2)")
        _ = watch.nextLine()
        _ = watch.nextLine()
        #expect(try workspace.catalog("update", "6", "--type", "portable").status == 0)  // iMac becomes portable
        #expect(watch.nextLine() == "— 1 insert")
        #expect(watch.nextLine() == "  insert  0.0  iMac  id 6")
        #expect(try watch.stop().status == 0)
    }

    @Test(arguments: StoreEngine.all) func sigtermStopsItCleanlyToo(engine: StoreEngine) throws {
        let workspace = try Workspace(engine: engine)
        let database = workspace.database
        try workspace.catalog("seed")
        let watch = try RunningProcess("catalog", ["watch", "--json", "--database", database])
        _ = try json(watch.nextLine())
        let (status, error) = try watch.stop(with: SIGTERM)
        #expect(status == 0)
        #expect(error.isEmpty)
    }

    /// A SIGINT sent as soon as the first line is out stops `watch`, every time, with the CPUs busy
    /// (the signal once came while the handler was being set up, and was dropped).
    @Test func aSigintJustAfterTheFirstLineIsNeverLost() throws {
        try workspace.catalog("seed")
        let spinning = Atomic<Bool>(true)
        let spinners = (0..<3).map { _ in
            Thread { while spinning.load(ordering: .relaxed) {} }
        }
        for spinner in spinners { spinner.start() }
        defer { spinning.store(false, ordering: .relaxed) }
        for run in 0..<40 {
            let watch = try RunningProcess("catalog", ["watch", "--json", "--database", database])
            #expect(watch.nextLine() != nil)
            let (status, error) = try watch.stop(with: SIGINT, timeout: .seconds(10))
            #expect(status == 0, "run \(run): \(error)")
        }
    }

    /// The test helper's bounded wait: a process that does not exit is killed and the test told so.
    @Test func aProcessThatDoesNotExitIsKilledAndReported() throws {
        try workspace.catalog("seed")
        let watch = try RunningProcess("catalog", ["watch", "--json", "--database", database])
        _ = try json(watch.nextLine())
        // Signal 0 delivers nothing: watch keeps running.
        let timeout = #expect(throws: RunningProcess.ExitTimeout.self) {
            try watch.stop(with: 0, timeout: .milliseconds(500))
        }
        #expect(timeout?.description.contains("did not exit within 0.5 seconds of signal 0") == true, "\(String(describing: timeout))")
        #expect(timeout?.description.contains("; killed;") == true, "\(String(describing: timeout))")
    }
}


/// A controller in this process follows commits made by other processes.
struct CrossProcessTrackingTests {
    @Test func severalCommitsInOtherProcessesCollapseIntoOneChangeSet() throws {
        let workspace = try Workspace()
        let database = workspace.database
        let store = try CatalogStore(path: database)
        try store.seed(SeedFile.builtIn)
        let request = ListRequest<Product>(sort: .price)
        let controller = try store.trackedResults(request)
        let before = try #require(controller.trackedSnapshot)

        for arguments in [
            ["add", "product", "--type", "desktop", "--name", "Mac Studio", "--year", "2022", "--price", "1999"],
            ["update", "1", "--type", "portable"],
            ["delete", "5"],
            ["update", "9", "--price", "1"],
        ] {
            let result = try workspace.catalog(arguments)
            #expect(result.status == 0, "\(result)")
        }
        let changeSet = try controller.applyPendingChanges()
        let fresh = try store.fetchedResults(request).snapshot()
        #expect(try before.applying(changeSet) == fresh)
        #expect(controller.trackedSnapshot == fresh)
        #expect(Set(changeSet.changes.map(\.id)) == [10, 1, 5, 9])
        #expect(controller.trackingStatistics?.incrementalUpdates == 1)
        #expect(controller.trackingStatistics?.refetches == 0)
    }

    @Test func theChangeSetSequenceWakesForAnotherProcess() async throws {
        let workspace = try Workspace()
        let database = workspace.database
        let store = try CatalogStore(path: database)
        try store.seed(SeedFile.builtIn)
        let controller = try store.trackedResults(ListRequest<Product>(scope: .desktop))
        let monitor = try ChangeMonitor(path: database)
        defer { monitor.stop() }
        var changeSets = controller.changeSets(from: monitor).makeAsyncIterator()
        let result = try workspace.catalog("add", "product", "--type", "desktop", "--name", "Mac Studio", "--year", "2022", "--price", "1999")
        #expect(result.status == 0)
        let changeSet = try #require(try await changeSets.next())
        #expect(changeSet.changes == [.insert(id: 10, at: ItemPath(section: 0, row: 2))])  // iMac, Mac Pro, Mac Studio
        #expect(try await controller.object(at: ItemPath(section: 0, row: 2)).name == "Mac Studio")
    }
}
