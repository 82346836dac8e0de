import Foundation
import SQLiteStore
import TestSupport
import Testing

/// A pool's readers map the database file (`Configuration.poolReadersMemoryMapBytes`) once their
/// reads took more than `poolReadersMemoryMapThresholdBytes` of pages from it in all, through a VFS
/// that keeps the mapping across commits while the file keeps its size: a reader that took few pages
/// maps nothing; each read still sees its own snapshot, when the pages changed under a kept
/// mapping (a checkpoint wrote them into the file), when the file grew past the mapping and when it
/// shrank, with the mapping on from the first read or turned on partway.
/// SQLite-only: memory-mapped reads of a database file.
struct MemoryMappedReaderTests {
    static func mappedBytes(_ db: Database) throws -> Int {
        try db.scalar(Int.self, sql: "PRAGMA mmap_size") ?? -1
    }

    /// The threshold of readers that map the file from their first read.
    static let fromTheFirstRead = 0

    /// The threshold of readers that map the file once their reads took more than 16 pages of 4 KiB
    /// (SQLite's default page size) from it: reading a table of ``makePool(_:rows:configuration:)``
    /// with 100 rows or more takes more, the lookups of three rows do not.
    static let afterSixteenPages = 16 * 4096

    /// The thresholds the reads are checked under: the mapping on from the first read, and turned on
    /// partway (after the first read of a whole table).
    static let thresholds = [fromTheFirstRead, afterSixteenPages]

    static func mappingConfiguration(threshold: Int) -> Configuration {
        var configuration = Configuration()
        configuration.poolReadersMemoryMapThresholdBytes = threshold
        return configuration
    }

    /// A pool with one reader, so that every read runs on the same connection and its mapping, over
    /// a table of `count` rows whose `value` is their id and whose `padding` fills about one page each.
    static func makePool(
        _ directory: TemporaryDirectory, rows count: Int, configuration: Configuration = mappingConfiguration(threshold: fromTheFirstRead)
    ) throws -> DatabasePool {
        let pool = try DatabasePool(path: directory.path(), configuration: configuration, maximumReaderCount: 1)
        try pool.write { db in
            try db.execute(sql: "CREATE TABLE item(id INTEGER PRIMARY KEY, value INTEGER NOT NULL, padding BLOB NOT NULL)")
            try insert(count, from: 1, into: db)
        }
        return pool
    }

    /// ``makePool(_:rows:configuration:)`` in a new directory, its rows copied into the database file,
    /// read once.
    static func checkpointedPool(
        rows count: Int, configuration: Configuration = mappingConfiguration(threshold: fromTheFirstRead)
    ) throws -> (TemporaryDirectory, DatabasePool) {
        let directory = try TemporaryDirectory()
        let pool = try makePool(directory, rows: count, configuration: configuration)
        try checkpointIntoTheFile(pool)
        #expect(try seen(pool) == expected(rows: count))
        return (directory, pool)
    }

    static func insert(_ count: Int, from first: Int, into db: Database) throws {
        for id in first..<(first + count) {
            try db.execute(sql: "INSERT INTO item(id, value, padding) VALUES (?, ?, zeroblob(3000))", arguments: [id, id])
        }
    }

    /// What a read sees: the rows and the sum of their values.
    struct Seen: Equatable {
        var rows: Int
        var sum: Int
    }

    static func seen(_ pool: DatabasePool) throws -> Seen {
        try pool.read { db in
            Seen(rows: try db.scalar(Int.self, sql: "SELECT count(*) FROM item") ?? -1,
                 sum: try db.scalar(Int.self, sql: "SELECT total(value) FROM item").map { Int($0) } ?? -1)
        }
    }

    /// The rows 1…n with values of their ids: n rows summing to n(n+1)/2.
    static func expected(rows: Int, plus: Int = 0) -> Seen {
        Seen(rows: rows, sum: rows * (rows + 1) / 2 + plus * rows)
    }

    /// Copies the whole `-wal` into the database file and empties it.
    static func checkpointIntoTheFile(_ pool: DatabasePool) throws {
        let result = try pool.writeWithoutTransaction { try $0.checkpoint(.truncate) }
        #expect(!result.isBusy)
    }

    static func fileSize(_ path: String) throws -> Int {
        try #require(try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int)
    }

    /// Whether the process has the file at `path` mapped: a line of `/proc/self/maps` names it.
    static func processMaps(_ path: String) throws -> Bool {
        let file = URL(fileURLWithPath: path).resolvingSymlinksInPath().path
        let handle = try #require(FileHandle(forReadingAtPath: "/proc/self/maps"))
        defer { try? handle.close() }
        let maps = String(decoding: try handle.readToEnd() ?? Data(), as: UTF8.self)
        return maps.split(separator: "\n").contains { $0.hasSuffix(" \(file)") }
    }

    /// The value of row `id`, read alone: a read of a few pages.
    static func value(of id: Int, _ pool: DatabasePool) throws -> Int? {
        try pool.read { db in try db.scalar(Int.self, sql: "SELECT value FROM item WHERE id = ?", arguments: [id]) }
    }

    @Test func onlyAPoolsReadersMap() throws {
        let directory = try TemporaryDirectory()
        let pool = try DatabasePool(path: directory.path(), configuration: Self.mappingConfiguration(threshold: Self.fromTheFirstRead))
        #expect(try pool.read { try Self.mappedBytes($0) } == Configuration.defaultPoolReadersMemoryMapBytes)
        #expect(try pool.write { try Self.mappedBytes($0) } == 0)
        try pool.close()
        let queue = try DatabaseQueue(path: directory.path(), configuration: Self.mappingConfiguration(threshold: Self.fromTheFirstRead))
        #expect(try queue.read { try Self.mappedBytes($0) } == 0)
    }

    @Test func nilMapsNothing() throws {
        let directory = try TemporaryDirectory()
        var configuration = Self.mappingConfiguration(threshold: Self.fromTheFirstRead)
        configuration.poolReadersMemoryMapBytes = nil
        let pool = try DatabasePool(path: directory.path(), configuration: configuration)
        #expect(try pool.read { try Self.mappedBytes($0) } == 0)
    }

    @Test func aReaderMapsTheFileOnlyOnceItsReadsTookMoreThanTheThreshold() throws {
        let directory = try TemporaryDirectory()
        let pool = try Self.makePool(directory, rows: 200, configuration: Self.mappingConfiguration(threshold: Self.afterSixteenPages))
        try Self.checkpointIntoTheFile(pool)
        // Reads of one row each: a few pages, then one more each (the cache keeps the others).
        for id in 1...3 { #expect(try Self.value(of: id, pool) == id) }
        #expect(try pool.read { try Self.mappedBytes($0) } == 0)
        #expect(try !Self.processMaps(directory.path()), "no page of the file is mapped, so none is resident through a mapping")

        // A read of every row: 200 pages from the file, past the threshold.
        #expect(try Self.seen(pool) == Self.expected(rows: 200))
        #expect(try pool.read { try Self.mappedBytes($0) } == Configuration.defaultPoolReadersMemoryMapBytes)
        try pool.write { db in try db.execute(sql: "UPDATE item SET value = id + 1") }
        try Self.checkpointIntoTheFile(pool)
        #expect(try Self.seen(pool) == Self.expected(rows: 200, plus: 1), "read through the mapping")
        #expect(try Self.processMaps(directory.path()))
    }

    @Test func byDefaultAReaderMapsOnceItTookMoreThanSQLitesDefaultCache() throws {
        #expect(Configuration.defaultPoolReadersMemoryMapThresholdBytes == Configuration.pageCacheBytesAfterChange)
        let directory = try TemporaryDirectory()
        // 800 rows of about a page of 4 KiB; each half 1,600 KiB, less than SQLite's default cache of
        // 2,000 KiB; both 3,200 KiB, more.
        let pool = try Self.makePool(directory, rows: 800, configuration: Configuration())
        try Self.checkpointIntoTheFile(pool)
        func sum(_ ids: ClosedRange<Int>) throws -> Int? {
            try pool.read { db in
                try db.scalar(Int.self, sql: "SELECT sum(value) FROM item WHERE id BETWEEN ? AND ?", arguments: [ids.lowerBound, ids.upperBound])
            }
        }
        #expect(try sum(1...400) == 400 * 401 / 2)
        #expect(try pool.read { try Self.mappedBytes($0) } == 0)
        #expect(try !Self.processMaps(directory.path()))

        // The other half: no read took more than the threshold, the two did.
        #expect(try sum(401...800) == (401...800).reduce(0, +))
        #expect(try pool.read { try Self.mappedBytes($0) } == Configuration.defaultPoolReadersMemoryMapBytes)
    }

    @Test(arguments: thresholds) func aKeptMappingShowsPagesACheckpointRewrote(threshold: Int) throws {
        let (directory, pool) = try Self.checkpointedPool(rows: 200, configuration: Self.mappingConfiguration(threshold: threshold))
        let size = try Self.fileSize(directory.path())
        for round in 1...3 {
            // Every row's value + round, then copied into the database file with an empty -wal, so that
            // the reader finds the new values in the file, under the mapping it kept.
            try pool.write { db in try db.execute(sql: "UPDATE item SET value = id + ?", arguments: [round]) }
            try Self.checkpointIntoTheFile(pool)
            #expect(try Self.fileSize(directory.path()) == size, "the file keeps its size, so the mapping is kept")
            #expect(try Self.seen(pool) == Self.expected(rows: 200, plus: round))
        }
    }

    @Test(arguments: thresholds) func aReaderSeesAFileThatGrewAndShrank(threshold: Int) throws {
        let (directory, pool) = try Self.checkpointedPool(rows: 100, configuration: Self.mappingConfiguration(threshold: threshold))
        let small = try Self.fileSize(directory.path())

        try pool.write { db in try Self.insert(900, from: 101, into: db) }
        #expect(try Self.seen(pool) == Self.expected(rows: 1_000), "the new pages from the -wal")
        try Self.checkpointIntoTheFile(pool)
        let large = try Self.fileSize(directory.path())
        #expect(large > small)
        #expect(try Self.seen(pool) == Self.expected(rows: 1_000), "the new pages from the file, past the old mapping")

        try pool.write { db in try db.execute(sql: "DELETE FROM item WHERE id > 50") }
        try pool.writeWithoutTransaction { db in try db.execute(sql: "VACUUM") }
        try Self.checkpointIntoTheFile(pool)
        #expect(try Self.fileSize(directory.path()) < small)
        #expect(try Self.seen(pool) == Self.expected(rows: 50), "the file cut short: mapped again at its size")
    }

    /// Under each threshold, and the default one, which these readers pass partway.
    @Test(arguments: thresholds + [Configuration.defaultPoolReadersMemoryMapThresholdBytes])
    func concurrentReadersBesideAWriterSeeWholeCommits(threshold: Int) async throws {
        let directory = try TemporaryDirectory()
        let pool = try DatabasePool(path: directory.path(), configuration: Self.mappingConfiguration(threshold: threshold))
        try await pool.write { db in
            try db.execute(sql: "CREATE TABLE item(id INTEGER PRIMARY KEY, value INTEGER NOT NULL, padding BLOB NOT NULL)")
            try Self.insert(300, from: 1, into: db)
        }
        // Each commit adds 1 to every row's value, so a read that sees one whole commit sees every
        // value equal to id + k for one k.
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask {
                for _ in 0..<40 {
                    try await pool.write { db in try db.execute(sql: "UPDATE item SET value = value + 1") }
                    if Bool.random() { _ = try await pool.writeWithoutTransaction { try $0.checkpoint(.passive) } }
                }
            }
            for _ in 0..<4 {
                group.addTask {
                    for _ in 0..<40 {
                        let offsets = try await pool.read { db in
                            try db.fetchAll(sql: "SELECT DISTINCT value - id FROM item") { try $0.decode(Int.self, at: 0) }
                        }
                        #expect(offsets.count == 1)
                    }
                }
            }
            try await group.waitForAll()
        }
    }
}
