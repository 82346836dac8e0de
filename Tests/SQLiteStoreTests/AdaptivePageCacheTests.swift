import Foundation
import SQLiteStore
import TestSupport
import Testing

/// A pool reader's page cache, sized at the start of each read by whether the database changed since
/// the reader's previous read (`Configuration.adaptsReaderPageCache`), on real files.
/// SQLite-only: SQLite's page cache.
struct AdaptivePageCacheTests {
    /// `PRAGMA cache_size` of the configured 16 MiB and of `Configuration.pageCacheBytesAfterChange`
    /// (negative: KiB).
    static let configuredSetting = -16_384
    static let afterChangeSetting = -2_000

    /// What a read sees: the cache size in force, and the rows.
    struct Observed: Equatable {
        var cacheSize: Int
        var rows: Int
    }

    /// The cache size in force, from a statement compiled now: SQLite puts the value into the
    /// statement's program when it compiles it, so a cached statement would repeat an old one.
    static func cacheSize(_ db: Database) throws -> Int {
        try db.makeStatement(sql: "PRAGMA cache_size").fetchOne { try $0.decode(Int.self, at: 0) } ?? 0
    }

    static func observe(_ db: Database) throws -> Observed {
        Observed(cacheSize: try cacheSize(db), rows: try db.scalar(Int.self, sql: "SELECT count(*) FROM item") ?? -1)
    }

    /// A pool with one reader, so that every read runs on the same connection, over a table of one row.
    static func makePool(_ directory: TemporaryDirectory, _ configure: (inout Configuration) -> Void = { _ in }) throws -> DatabasePool {
        var configuration = Configuration()
        configure(&configuration)
        let pool = try DatabasePool(path: directory.path(), configuration: configuration, maximumReaderCount: 1)
        try pool.write { db in
            try db.execute(sql: "CREATE TABLE item(id INTEGER PRIMARY KEY, name TEXT NOT NULL)")
            try db.execute(sql: "INSERT INTO item(name) VALUES ('a')")
        }
        return pool
    }

    static func insert(_ pool: DatabasePool) throws {
        try pool.write { db in try db.execute(sql: "INSERT INTO item(name) VALUES ('b')") }
    }

    @Test func aReadAfterACommitGetsTheSmallCacheAndAnUnchangedOneTheConfigured() throws {
        let directory = try TemporaryDirectory()
        let pool = try Self.makePool(directory)
        defer { try? pool.close() }
        // The reader's first read counts as unchanged, although the table was created before it.
        #expect(try pool.read(Self.observe) == Observed(cacheSize: Self.configuredSetting, rows: 1))
        #expect(try pool.read(Self.observe) == Observed(cacheSize: Self.configuredSetting, rows: 1))
        try Self.insert(pool)
        #expect(try pool.read(Self.observe) == Observed(cacheSize: Self.afterChangeSetting, rows: 2))
        // No commit since: the configured cache again.
        #expect(try pool.read(Self.observe) == Observed(cacheSize: Self.configuredSetting, rows: 2))
        try Self.insert(pool)
        try Self.insert(pool)
        #expect(try pool.read(Self.observe) == Observed(cacheSize: Self.afterChangeSetting, rows: 4))
        #expect(try pool.read(Self.observe) == Observed(cacheSize: Self.configuredSetting, rows: 4))
    }

    @Test func theAsyncReadAdaptsToo() async throws {
        let directory = try TemporaryDirectory()
        let pool = try Self.makePool(directory)
        defer { try? pool.close() }
        #expect(try await pool.read(Self.observe) == Observed(cacheSize: Self.configuredSetting, rows: 1))
        try await pool.write { db in try db.execute(sql: "INSERT INTO item(name) VALUES ('b')") }
        #expect(try await pool.read(Self.observe) == Observed(cacheSize: Self.afterChangeSetting, rows: 2))
        #expect(try await pool.read(Self.observe) == Observed(cacheSize: Self.configuredSetting, rows: 2))
    }

    /// A commit of another connection, here of another queue on the file, counts as well.
    @Test func aCommitOfAnotherConnectionCounts() throws {
        let directory = try TemporaryDirectory()
        let pool = try Self.makePool(directory)
        defer { try? pool.close() }
        #expect(try pool.read(Self.observe) == Observed(cacheSize: Self.configuredSetting, rows: 1))
        let other = try DatabaseQueue(path: directory.path())
        try other.write { db in try db.execute(sql: "INSERT INTO item(name) VALUES ('c')") }
        try other.close()
        #expect(try pool.read(Self.observe) == Observed(cacheSize: Self.afterChangeSetting, rows: 2))
        #expect(try pool.read(Self.observe) == Observed(cacheSize: Self.configuredSetting, rows: 2))
    }

    /// Off, or with a configured cache no larger than the small one, every read keeps the configured
    /// cache; the writer keeps its own throughout.
    @Test(arguments: [
        (false, Configuration.defaultPageCacheBytes, -16_384),
        (true, nil, -2_000),
        (true, 1 << 20, -1_024),
    ] as [(Bool, Int?, Int)])
    func nothingToAdapt(adapts: Bool, bytes: Int?, expected: Int) throws {
        let directory = try TemporaryDirectory()
        let pool = try Self.makePool(directory) {
            $0.adaptsReaderPageCache = adapts
            $0.pageCacheBytes = bytes
        }
        defer { try? pool.close() }
        #expect(try pool.read(Self.observe) == Observed(cacheSize: expected, rows: 1))
        try Self.insert(pool)
        #expect(try pool.read(Self.observe) == Observed(cacheSize: expected, rows: 2))
        #expect(try pool.read(Self.observe) == Observed(cacheSize: expected, rows: 2))
        #expect(try pool.write(Self.cacheSize) == expected)
    }

    @Test func theWriterKeepsTheConfiguredCache() throws {
        let directory = try TemporaryDirectory()
        let pool = try Self.makePool(directory)
        defer { try? pool.close() }
        try Self.insert(pool)
        _ = try pool.read(Self.observe)
        try Self.insert(pool)
        #expect(try pool.read(Self.observe).cacheSize == Self.afterChangeSetting)
        #expect(try pool.write(Self.cacheSize) == Self.configuredSetting)
    }

    /// Beside a writer committing as fast as it can, each read's cache is the small one exactly when
    /// `PRAGMA data_version` (SQLite's count of the connection's cache resets, read by the test itself
    /// inside the read) changed since the previous read, and what each read sees is one committed
    /// snapshot: the rows are never fewer than before, and their ids are 1…count.
    @Test func besideCommitsTheCacheFollowsTheDataVersion() async throws {
        let directory = try TemporaryDirectory()
        let pool = try Self.makePool(directory)
        defer { try? pool.close() }
        struct Read: Sendable {
            var version: Int64
            var cacheSize: Int
            var rows: Int
            var idSum: Int
        }
        let commits = 300
        let reads = try await withThrowingTaskGroup(of: [Read].self) { group in
            group.addTask {
                for _ in 0..<commits {
                    try await pool.write { db in try db.execute(sql: "INSERT INTO item(name) VALUES ('w')") }
                }
                return []
            }
            group.addTask {
                var reads: [Read] = []
                for _ in 0..<commits {
                    reads.append(try await pool.read { db in
                        Read(version: try db.makeStatement(sql: "PRAGMA data_version").fetchOne { try $0.decode(Int64.self, at: 0) } ?? 0,
                             cacheSize: try Self.cacheSize(db),
                             rows: try db.scalar(Int.self, sql: "SELECT count(*) FROM item") ?? 0,
                             idSum: try db.scalar(Int.self, sql: "SELECT sum(id) FROM item") ?? 0)
                    })
                }
                return reads
            }
            return try await group.reduce(into: []) { $0 += $1 }
        }
        #expect(reads.count == commits)
        #expect(reads.first?.cacheSize == Self.configuredSetting)
        for (previous, read) in zip(reads, reads.dropFirst()) {
            let expected = read.version == previous.version ? Self.configuredSetting : Self.afterChangeSetting
            #expect(read.cacheSize == expected)
            #expect(read.rows >= previous.rows)
        }
        for read in reads {
            #expect(read.idSum == read.rows * (read.rows + 1) / 2)
        }
        #expect(try await pool.read(Self.observe).rows == commits + 1)
    }
}
