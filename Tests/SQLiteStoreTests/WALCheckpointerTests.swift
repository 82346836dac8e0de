import Foundation
import Testing
import TestSupport
@testable import SQLiteStore

/// A pool's automatic checkpoints run on its checkpoint connection, not inside the writer's commits,
/// and the `-wal` file stays bounded.
/// SQLite-only: WAL checkpoints.
struct WALCheckpointerTests {
    let directory: TemporaryDirectory
    let pool: DatabasePool
    let pageSize: Int
    /// SQLite's automatic checkpoint threshold, in pages.
    let threshold = Int(CommitHandlers.autoCheckpointPageCount)
    /// The pages each test commit adds to the `-wal` (a blob of this many pages, and a few more).
    let pagesPerCommit = 100

    init() throws {
        directory = try TemporaryDirectory()
        pool = try DatabasePool(path: directory.path())
        try pool.write { db in try db.execute(sql: "CREATE TABLE chunk(id INTEGER PRIMARY KEY, data BLOB NOT NULL)") }
        pageSize = try pool.read { db in try db.scalar(Int.self, sql: "PRAGMA page_size") } ?? 4_096
    }

    func commitChunk() throws {
        try pool.write { db in
            try db.execute(sql: "INSERT INTO chunk(data) VALUES (zeroblob(?))", arguments: [pagesPerCommit * pageSize])
        }
    }

    /// The size of the `-wal` file, in frames (a page and its 24-byte header, after a 32-byte header).
    func walFrames() throws -> Int {
        let size = try FileManager.default.attributesOfItem(atPath: directory.path() + "-wal")[.size] as? Int ?? 0
        return max(0, size - 32) / (pageSize + 24)
    }

    @Test func theWALStaysBoundedWhileCommitsPassTheThresholdAgainAndAgain() throws {
        var largest = 0
        for _ in 0..<(5 * threshold / pagesPerCommit) {
            try commitChunk()
            pool.checkpointer?.waitForQueuedCheckpoint()
            largest = max(largest, try walFrames())
        }
        // 5,000 pages were written; the -wal restarts from its start after each complete checkpoint.
        #expect(largest > threshold)
        #expect(largest <= threshold + 3 * pagesPerCommit)
        #expect(try pool.read { db in try db.scalar(Int.self, sql: "SELECT count(*) FROM chunk") } == 5 * threshold / pagesPerCommit)
    }

    @Test func commitsDoNotRunTheCheckpoint() throws {
        let checkpointer = try #require(pool.checkpointer)
        // With the checkpoint connection held up, commits go on and nothing restarts the -wal: no
        // commit checkpointed it itself.
        checkpointer.gate.lock()
        for _ in 0..<(2 * threshold / pagesPerCommit) { try commitChunk() }
        let heldUp = try walFrames()
        checkpointer.gate.unlock()
        #expect(heldUp >= 2 * threshold)

        // Released, the queued checkpoint copies the -wal, and the next commit restarts it.
        checkpointer.waitForQueuedCheckpoint()
        try commitChunk()
        let logged = try pool.writeWithoutTransaction { db in try db.checkpoint(.passive).walFrames }
        #expect(logged <= 2 * pagesPerCommit)
    }

    @Test func aReadOnlyPoolHasNoCheckpointer() throws {
        var configuration = Configuration()
        configuration.isReadonly = true
        let reader = try DatabasePool(path: directory.path(), configuration: configuration)
        #expect(reader.checkpointer == nil)
        try reader.close()
    }
}

/// A pool's readers make way for its writer: a write counts as pending from its queuing to its return,
/// and every reader connection watches that count.
struct PendingWritesTests {
    let directory: TemporaryDirectory
    let pool: DatabasePool

    init() throws {
        directory = try TemporaryDirectory()
        pool = try DatabasePool(path: directory.path())
    }

    @Test func aSynchronousWriteIsPendingWhileItRunsAndNotAfter() throws {
        let pool = self.pool
        #expect(pool.pendingWrites.isEmpty)
        try pool.write { _ in #expect(!pool.pendingWrites.isEmpty) }
        #expect(pool.pendingWrites.isEmpty)
        #expect(throws: DatabaseError.self) { try pool.write { db in try db.execute(sql: "NOT SQL") } }
        #expect(pool.pendingWrites.isEmpty)
        let watched = try pool.read { db in db.progressContext.pendingWrites === pool.pendingWrites }
        #expect(watched)
    }

    @Test func anAsyncWriteIsPendingWhileItRunsAndNotAfter() async throws {
        let pool = self.pool
        try await pool.write { _ in #expect(!pool.pendingWrites.isEmpty) }
        #expect(pool.pendingWrites.isEmpty)
        await #expect(throws: DatabaseError.self) {
            try await pool.write { db in try db.execute(sql: "NOT SQL") }
        }
        #expect(pool.pendingWrites.isEmpty)
    }
}
