import CSQLite
import Foundation
import SQLiteStore
import Synchronization
import TestSupport
import Testing

/// Opening, configuration, statements and errors of a connection.
/// SQLite-only: SQLite's connection, files and WAL.
struct DatabaseTests {
    @Test func opensInWALWithForeignKeys() throws {
        let directory = try TemporaryDirectory()
        let queue = try DatabaseQueue(path: directory.path())
        let (mode, foreignKeys, synchronous) = try queue.writeWithoutTransaction { db in
            (try db.scalar(String.self, sql: "PRAGMA journal_mode"),
             try db.scalar(Int.self, sql: "PRAGMA foreign_keys"),
             try db.scalar(Int.self, sql: "PRAGMA synchronous"))
        }
        #expect(mode == "wal")
        #expect(foreignKeys == 1)
        #expect(synchronous == 1)  // NORMAL
    }

    /// `PRAGMA cache_size` is negative in KiB: 16 MiB by default, as configured, or SQLite's own
    /// default (-2000, about 2 MB) when the configuration leaves it unset; a pool's readers get the same.
    @Test(arguments: [(Configuration.defaultPageCacheBytes, -16_384), (1 << 20, -1_024), (nil, -2_000)] as [(Int?, Int)])
    func pageCacheIsConfigured(bytes: Int?, expected: Int) throws {
        let directory = try TemporaryDirectory()
        var configuration = Configuration()
        configuration.pageCacheBytes = bytes
        let pool = try DatabasePool(path: directory.path(), configuration: configuration)
        defer { try? pool.close() }
        #expect(try pool.write { db in try db.scalar(Int.self, sql: "PRAGMA cache_size") } == expected)
        #expect(try pool.read { db in try db.scalar(Int.self, sql: "PRAGMA cache_size") } == expected)
    }

    /// Opening a connection turns SQLite's memory statistics off first (they cost every allocation a
    /// mutex all connections share), so SQLite counts none of the memory it then uses: with them on,
    /// the 100 kB blob alone would count.
    @Test func memoryStatisticsAreOff() throws {
        let queue = try DatabaseQueue.inMemory()
        try queue.writeWithoutTransaction { db in
            try db.execute(sql: "CREATE TABLE t(x); INSERT INTO t VALUES (randomblob(100000))")
        }
        #expect(sqlite3_memory_used() == 0)
        #expect(try queue.read { db in try db.scalar(Int.self, sql: "SELECT length(x) FROM t") } == 100_000)
    }

    @Test func inMemoryDatabase() throws {
        let queue = try DatabaseQueue.inMemory()
        let value = try queue.read { db in try db.scalar(Int.self, sql: "SELECT 1 + 1") }
        #expect(value == 2)
    }

    @Test func statementCacheReusesStatements() throws {
        let queue = try DatabaseQueue.inMemory()
        try queue.writeWithoutTransaction { db in
            let first = try db.cachedStatement(sql: "SELECT ?")
            let second = try db.cachedStatement(sql: "SELECT ?")
            #expect(first === second)
            #expect(db.cachedStatementCount == 1)
            let other = try db.cachedStatement(sql: "SELECT ? + 1")
            #expect(other !== first)
            #expect(try first.fetchOne(arguments: [41]) { try $0.decode(Int.self, at: 0) } == 41)
            #expect(try first.fetchOne(arguments: [42]) { try $0.decode(Int.self, at: 0) } == 42)
        }
    }

    @Test func statementCacheIsBounded() throws {
        var configuration = Configuration()
        configuration.statementCacheCapacity = 4
        let queue = try DatabaseQueue.inMemory(configuration: configuration)
        try queue.writeWithoutTransaction { db in
            for index in 0..<10 { _ = try db.cachedStatement(sql: "SELECT \(index)") }
            #expect(db.cachedStatementCount <= 4)
        }
    }

    @Test func constraintViolationCarriesExtendedCode() throws {
        let queue = try DatabaseQueue.inMemory()
        let error = try #require(throws: DatabaseError.self) {
            try queue.write { db in
                try db.execute(sql: "CREATE TABLE u(name TEXT UNIQUE NOT NULL)")
                try db.execute(sql: "INSERT INTO u VALUES ('a')")
                try db.execute(sql: "INSERT INTO u VALUES (?)", arguments: ["a"])
            }
        }
        #expect(error.resultCode == .SQLITE_CONSTRAINT_UNIQUE)
        #expect(error.primaryResultCode == .SQLITE_CONSTRAINT)
        #expect(ResultCode.SQLITE_CONSTRAINT ~= error.resultCode)
        #expect(!(ResultCode.SQLITE_CONSTRAINT_NOTNULL ~= error.resultCode))
        #expect(error.description == "SQLite error 2067 (SQLITE_CONSTRAINT_UNIQUE): UNIQUE constraint failed: u.name - while executing `INSERT INTO u VALUES (?)`")
    }

    @Test func notNullViolation() throws {
        let queue = try DatabaseQueue.inMemory()
        let error = try #require(throws: DatabaseError.self) {
            try queue.write { db in
                try db.execute(sql: "CREATE TABLE n(v TEXT NOT NULL)")
                try db.execute(sql: "INSERT INTO n VALUES (NULL)")
            }
        }
        #expect(error.resultCode == .SQLITE_CONSTRAINT_NOTNULL)
    }

    @Test func syntaxErrorNamesTheStatement() throws {
        let queue = try DatabaseQueue.inMemory()
        let error = try #require(throws: DatabaseError.self) {
            try queue.writeWithoutTransaction { db in try db.execute(sql: "CREATE TABLE a(x); SELEC 1; CREATE TABLE b(y)") }
        }
        #expect(error.resultCode == .SQLITE_ERROR)
        #expect(error.sql == "SELEC 1;")
        #expect(error.description.contains("syntax error"))
    }

    @Test func doubleQuotedStringsAreIdentifiersOnly() throws {
        let queue = try DatabaseQueue.inMemory()
        #expect(throws: DatabaseError.self) {
            try queue.read { db in try db.scalar(String.self, sql: "SELECT \"not a column\"") }
        }
    }

    @Test func aFileThatIsNotADatabaseIsRefusedUntouched() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("notes.txt")
        let bytes = Data("These are my notes, not a database.\n".utf8)
        try bytes.write(to: URL(fileURLWithPath: path))
        let error = try #require(throws: DatabaseError.self) { try DatabaseQueue(path: path) }
        #expect(error.resultCode == .SQLITE_NOTADB)
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == bytes)
    }

    @Test func aMissingDirectoryCannotBeOpened() throws {
        let directory = try TemporaryDirectory()
        let error = try #require(throws: DatabaseError.self) {
            try DatabaseQueue(path: directory.path("missing/dir/test.sqlite"))
        }
        #expect(error.primaryResultCode == .SQLITE_CANTOPEN)
    }

    @Test func readonlyConnectionsRefuseWrites() throws {
        let directory = try TemporaryDirectory()
        try DatabaseQueue(path: directory.path()).write { db in try db.execute(sql: "CREATE TABLE t(v)") }
        var configuration = Configuration()
        configuration.isReadonly = true
        let readonly = try DatabaseQueue(path: directory.path(), configuration: configuration)
        let error = try #require(throws: DatabaseError.self) {
            try readonly.writeWithoutTransaction { db in try db.execute(sql: "INSERT INTO t VALUES (1)") }
        }
        #expect(error.primaryResultCode == .SQLITE_READONLY)
    }

    @Test func closeFinalizesCachedStatements() throws {
        let directory = try TemporaryDirectory()
        let database = try Database(path: directory.path())
        _ = try database.cachedStatement(sql: "SELECT 1")
        try database.close()
        #expect(database.sqliteConnection == nil)
        #expect(throws: DatabaseError.self) { try database.execute(sql: "SELECT 1") }
    }

    @Test func closeRefusesWhileAStatementIsAlive() throws {
        let database = try Database(path: ":memory:")
        let statement = try database.makeStatement(sql: "SELECT 1")
        let error = try #require(throws: DatabaseError.self) { try database.close() }
        #expect(error.primaryResultCode == .SQLITE_BUSY)
        withExtendedLifetime(statement) {}
    }

    @Test func makeStatementRefusesSeveralStatements() throws {
        let queue = try DatabaseQueue.inMemory()
        #expect(throws: DatabaseError.self) {
            try queue.read { db in _ = try db.makeStatement(sql: "SELECT 1; SELECT 2") }
        }
    }

    @Test func traceSeesEachStatement() throws {
        let recorded = RecordedSQL()
        var configuration = Configuration()
        configuration.trace = { recorded.append($0) }
        let queue = try DatabaseQueue.inMemory(configuration: configuration)
        try queue.write { db in try db.execute(sql: "CREATE TABLE t(v)") }
        #expect(recorded.statements.contains("CREATE TABLE t(v)"))
        #expect(recorded.statements.contains("BEGIN IMMEDIATE TRANSACTION"))
    }
}

extension DatabaseTests {
    @Test func profileTimesEachStatementThatRan() throws {
        let recorded = RecordedSQL()
        var configuration = Configuration()
        configuration.profile = { sql, duration in
            if duration >= .zero { recorded.append(sql) }
        }
        configuration.tracesBoundValues = true
        let queue = try DatabaseQueue.inMemory(configuration: configuration)
        try queue.write { db in
            try db.execute(sql: "CREATE TABLE t(v)")
            try db.execute(sql: "INSERT INTO t VALUES (?)", arguments: [42])
        }
        #expect(try queue.read { db in try db.scalar(Int.self, sql: "SELECT count(*) FROM t") } == 1)
        #expect(recorded.statements.contains("INSERT INTO t VALUES (42)"))
        #expect(recorded.statements.contains("SELECT count(*) FROM t"))
        #expect(recorded.statements.contains("CREATE TABLE t(v)"))
    }
}

/// SQL statements recorded by a trace hook, from any thread.
final class RecordedSQL: Sendable {
    private let storage = Mutex<[String]>([])
    func append(_ sql: String) { storage.withLock { $0.append(sql) } }
    var statements: [String] { storage.withLock { $0 } }
}
