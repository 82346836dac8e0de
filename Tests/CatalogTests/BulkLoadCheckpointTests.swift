@testable import Catalog
import Foundation
import SQLiteStore
import TestSupport
import Testing

/// A seed ends with its load in the database file, not left in the `-wal`: on a real file, with the
/// checkpoint's threshold lowered from 1,000 pages to 10 so that a few thousand rows cross it.
struct BulkLoadCheckpointTests {
    static let products = SyntheticCatalog.products(count: 3_000, seed: 7)

    static func fileSize(_ path: String) -> Int {
        ((try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? Int) ?? -1
    }

    /// The store's pages and page size, read through SQLite.
    static func databaseBytes(_ store: CatalogStore) throws -> Int {
        try store.file!.read { db in
            (try db.scalar(Int.self, sql: "PRAGMA page_count") ?? 0) * (try db.scalar(Int.self, sql: "PRAGMA page_size") ?? 0)
        }
    }

    @Test func aSeedEndsWithTheWALEmptiedIntoTheDatabaseFile() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path()
        let store = try CatalogStore(path: path)
        let report = try store.seed(
            [SeedSource(SeedFile(Self.products))], conflicts: .skip, triggeredRows: 0, checkpointPages: 10, progress: nil)
        #expect(report.inserted[.products] == Self.products.count)
        #expect(Self.fileSize(path + "-wal") == 0)
        #expect(Self.fileSize(path) == (try Self.databaseBytes(store)))
        #expect(try store.count(Product.self) == Self.products.count)
    }

    @Test func belowTheThresholdTheLoadMayStayInTheWAL() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path()
        let store = try CatalogStore(path: path)
        try store.seed(
            [SeedSource(SeedFile(Self.products))], conflicts: .skip, triggeredRows: 0, checkpointPages: .max, progress: nil)
        #expect(Self.fileSize(path + "-wal") > 0, "no checkpoint emptied it")
    }

    @Test func aReaderHoldingAnOldSnapshotMakesTheCheckpointBusyNotAFailure() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path()
        var configuration = Configuration()
        configuration.busyTimeout = .milliseconds(50)
        let store = try CatalogStore(path: path, configuration: configuration)
        let reader = try DatabaseQueue(path: path, configuration: configuration)
        try reader.writeWithoutTransaction { db in
            try db.execute(sql: "BEGIN")
            _ = try db.scalar(Int.self, sql: "SELECT count(*) FROM products")
        }
        try store.seed(
            [SeedSource(SeedFile(Self.products))], conflicts: .skip, triggeredRows: 0, checkpointPages: 10, progress: nil)
        #expect(Self.fileSize(path + "-wal") > 0, "the reader's snapshot still needs the -wal")
        try reader.writeWithoutTransaction { db in try db.execute(sql: "COMMIT") }
        let result = try store.file!.checkpointAfterBulkLoad(walPages: 10)
        #expect(result?.isBusy == false)
        #expect(Self.fileSize(path + "-wal") == 0)
    }
}
