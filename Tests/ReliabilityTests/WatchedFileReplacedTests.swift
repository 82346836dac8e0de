import Catalog
import FetchedResults
import Foundation
import SQLiteStore
import TestSupport
import Testing

/// A watched database that is replaced by a rename, deleted, or overwritten in place: the monitor and a
/// tracking controller report ``DatabaseFileError``; `catalog watch` says so in one line and exits 7.
struct WatchedFileReplacedTests {
    enum Replacement: String, CaseIterable, Sendable {
        case renamedOver, deleted, overwrittenInPlace

        /// Does it to the database at `path`, with `other` another catalog database (checkpointed).
        func apply(to path: String, other: String) throws {
            switch self {
            case .renamedOver:
                #expect(rename(other, path) == 0)
            case .deleted:
                try FileManager.default.removeItem(atPath: path)
            case .overwrittenInPlace:
                let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
                try handle.truncate(atOffset: 0)
                try handle.write(contentsOf: Data(String(repeating: "not a database any more\n", count: 400).utf8))
                try handle.close()
            }
        }

        var message: String {
            switch self {
            case .renamedOver: "was replaced by another file while it was watched"
            case .deleted: "was deleted or moved away while it was watched"
            case .overwrittenInPlace: "can no longer be read while it was watched"
            }
        }
    }

    /// Another catalog with other products, closed (so checkpointed into its one file).
    private func otherCatalog(_ workspace: Workspace) throws -> String {
        let path = workspace.path("other.sqlite")
        let store = try CatalogStore(path: path)
        try store.insert(Product(type: .device, name: "Elsewhere", yearIntroduced: 2001, introPrice: 1))
        try store.database.close()
        return path
    }

    @Test(arguments: Replacement.allCases)
    func watchSaysSoAndExits(_ replacement: Replacement) throws {
        let workspace = try Workspace()
        #expect(try workspace.catalog(["seed"]).status == 0)
        let other = try otherCatalog(workspace)
        let watch = try RunningProcess("catalog", ["watch", "--database", workspace.database], home: workspace.path("home"))
        var lines: [String] = []
        while let line = watch.nextLine(), !line.hasPrefix("2.1") { lines.append(line) }
        #expect(lines.first?.hasPrefix("PATH") == true, "\(lines)")

        try replacement.apply(to: workspace.database, other: other)
        #expect(watch.nextLine() == nil, "watch ends by itself")
        let (status, error) = try watch.stop(with: SIGKILL)
        #expect(status == 7, "\(error)")
        #expect(error.hasPrefix("catalog: error: the database file \(workspace.database) \(replacement.message)"), "\(error)")
        #expect(error.split(separator: "\n").count == 1, "\(error)")
    }

    @Test(arguments: Replacement.allCases)
    func aTrackingControllerThrows(_ replacement: Replacement) async throws {
        let workspace = try Workspace()
        let store = try CatalogStore(path: workspace.database)
        try store.seed(SeedFile.builtIn)
        let other = try otherCatalog(workspace)
        let controller = try store.trackedResults(ListRequest<Product>())
        let monitor = try ChangeMonitor(path: workspace.database)
        try replacement.apply(to: workspace.database, other: other)
        do {
            for try await changeSet in controller.changeSets(from: monitor) {
                Issue.record("no change set expected, got \(changeSet)")
            }
            Issue.record("the sequence ended without an error")
        } catch let error as DatabaseFileError {
            #expect(monitor.failure == error)
            switch (replacement, error) {
            case (.renamedOver, .replaced), (.deleted, .removed), (.overwrittenInPlace, .unreadable): break
            default: Issue.record("\(replacement): \(error)")
            }
        }
    }
}
