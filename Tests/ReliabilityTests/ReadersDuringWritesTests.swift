import Catalog
import FetchedResults
import Foundation
import SQLiteStore
import TestSupport
import Testing
import TextSearch

/// A tracking controller keeps serving its snapshot while another process writes, and catches up
/// with the right change set once that process commits (or sees nothing when it dies mid-write).
struct ReadersDuringWritesTests {
    /// SQL inserting a product as the store would, for the writer process.
    static func insertSQL(_ name: String, type: ProductType) -> String {
        "INSERT INTO products(type, name, name_folded, year_introduced, intro_price) VALUES ('\(type.rawValue)', '\(name)', '\(TextFolding.fold(name))', 2020, 10)"
    }

    @Test func aControllerServesItsSnapshotDuringAWriteAndCatchesUpAfter() throws {
        let workspace = try Workspace()
        let store = try CatalogStore(path: workspace.database)
        try store.seed(SeedFile.builtIn)
        let request = ListRequest<Product>(scope: .device)
        let controller = try store.trackedResults(request, batchSize: 2)
        let before = try #require(controller.trackedSnapshot)

        let writer = try WriterProcess(path: workspace.database)
        defer { writer.finish() }
        #expect(try writer.run("BEGIN IMMEDIATE") == "ok")
        for index in 0..<200 { #expect(try writer.run(Self.insertSQL("Pending \(index)", type: .device)) == "ok") }
        #expect(try writer.run("DELETE FROM products WHERE name = 'iPod'") == "ok")

        // Uncommitted: nothing to apply, and every row of the snapshot still reads.
        #expect(try controller.applyPendingChanges().isEmpty)
        let names = try (0..<5).map { try controller.object(at: ItemPath(section: 0, row: $0)).name }
        #expect(names == ["iPad", "iPad mini", "iPhone", "iPod", "iPod touch"])

        #expect(try writer.run("COMMIT") == "ok")
        let changeSet = try controller.applyPendingChanges()
        let fresh = try store.fetchedResults(request).snapshot()
        #expect(try before.applying(changeSet) == fresh)
        #expect(controller.trackedSnapshot == fresh)
        #expect(controller.sections.map(\.numberOfObjects) == [204])
    }

    @Test func aWriterKilledMidTransactionChangesNothing() throws {
        let workspace = try Workspace()
        let store = try CatalogStore(path: workspace.database)
        try store.seed(SeedFile.builtIn)
        let controller = try store.trackedResults(ListRequest<Product>())
        let before = try #require(controller.trackedSnapshot)

        let writer = try WriterProcess(path: workspace.database)
        #expect(try writer.run("BEGIN IMMEDIATE") == "ok")
        for index in 0..<50 { #expect(try writer.run(Self.insertSQL("Doomed \(index)", type: .portable)) == "ok") }
        writer.kill()

        #expect(try controller.applyPendingChanges().isEmpty)
        #expect(controller.trackedSnapshot == before)
        try store.insert(Product(type: .portable, name: "After", yearIntroduced: 2020, introPrice: 1))
        let changeSet = try controller.applyPendingChanges()
        #expect(changeSet.changes.count == 1)
        #expect(try before.applying(changeSet) == (try store.fetchedResults(ListRequest<Product>()).snapshot()))
    }
}
