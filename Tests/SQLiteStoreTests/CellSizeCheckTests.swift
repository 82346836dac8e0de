import SQLiteStore
import TestSupport
import Testing

/// Which connections check the cells of each b-tree page they read (`PRAGMA cell_size_check`), as
/// The Guarantees article says: every connection but a pool's readers, which do when
/// `Configuration.poolReadersCheckCellSizes` is set.
/// SQLite-only: SQLite's file format.
struct CellSizeCheckTests {
    static func checksCells(_ db: Database) throws -> Bool {
        try db.scalar(Int.self, sql: "PRAGMA cell_size_check") == 1
    }

    @Test func aQueueChecks() throws {
        let directory = try TemporaryDirectory()
        let queue = try DatabaseQueue(path: directory.path())
        #expect(try queue.read { try Self.checksCells($0) })
    }

    @Test func aPoolsWriterChecksAndItsReadersDoNotByDefault() throws {
        let directory = try TemporaryDirectory()
        let pool = try DatabasePool(path: directory.path())
        let writerChecks = try pool.write { try Self.checksCells($0) }
        let readerChecks = try pool.read { try Self.checksCells($0) }
        #expect(writerChecks)
        #expect(!readerChecks)
    }

    @Test func anAsyncReadRunsOnTheSameReaders() async throws {
        let directory = try TemporaryDirectory()
        let pool = try DatabasePool(path: directory.path())
        let readerChecks = try await pool.read { try Self.checksCells($0) }
        #expect(!readerChecks)
    }

    @Test(arguments: [false, true])
    func aPoolsReadersCheckWhenConfigured(readonly: Bool) throws {
        let directory = try TemporaryDirectory()
        try DatabaseQueue(path: directory.path()).close()  // a file a read-only pool can open
        var configuration = Configuration()
        configuration.isReadonly = readonly
        configuration.poolReadersCheckCellSizes = true
        let pool = try DatabasePool(path: directory.path(), configuration: configuration)
        let readerChecks = try pool.read { try Self.checksCells($0) }
        let writerChecks = try pool.writeWithoutTransaction { try Self.checksCells($0) }
        #expect(readerChecks)
        #expect(writerChecks)
    }
}
