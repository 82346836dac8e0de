import Foundation
import SQLiteStore
import TestSupport
import Testing

/// Values go into SQLite and come back unchanged, for every supported type.
/// SQLite-only: SQLite's statement binding (PostgreSQL's parameters: PostgreSQLConnectionTests, RowValuesTests).
struct BindingTests {
    let directory: TemporaryDirectory
    let queue: DatabaseQueue

    init() throws {
        directory = try TemporaryDirectory()
        queue = try DatabaseQueue(path: directory.path())
        try queue.write { db in try db.execute(sql: "CREATE TABLE t(id INTEGER PRIMARY KEY, v ANY)") }
    }

    private func roundTrip<T: DatabaseValueConvertible & Equatable>(_ value: T) throws -> T {
        try queue.write { db in
            try db.execute(sql: "DELETE FROM t")
            try db.execute(sql: "INSERT INTO t(v) VALUES (?)", arguments: [value])
            return try #require(try db.fetchOne(sql: "SELECT v FROM t") { try $0.decode(T.self, at: 0) })
        }
    }

    @Test(arguments: [0, 1, -1, Int.max, Int.min])
    func integers(_ value: Int) throws {
        #expect(try roundTrip(value) == value)
        #expect(try roundTrip(Int64(value)) == Int64(value))
    }

    @Test func int32() throws {
        #expect(try roundTrip(Int32.min) == Int32.min)
    }

    @Test(arguments: [0.0, -0.5, 3.141592653589793, 1e300, -Double.greatestFiniteMagnitude])
    func doubles(_ value: Double) throws {
        #expect(try roundTrip(value) == value)
    }

    @Test(arguments: ["", "a", "Café", "東京タワー", "👩‍👩‍👧‍👦", "with\u{0}nul", String(repeating: "x", count: 100_000)])
    func strings(_ value: String) throws {
        #expect(try roundTrip(value) == value)
    }

    @Test(arguments: [Data(), Data([0]), Data([0, 1, 2, 255]), Data(repeating: 7, count: 70_000)])
    func blobs(_ value: Data) throws {
        #expect(try roundTrip(value) == value)
    }

    @Test func booleans() throws {
        #expect(try roundTrip(true) == true)
        #expect(try roundTrip(false) == false)
    }

    @Test func dates() throws {
        let date = Date(timeIntervalSince1970: 1_234_567_890.25)
        #expect(try roundTrip(date) == date)
    }

    @Test func optionals() throws {
        #expect(try roundTrip(Int?.none) == nil)
        #expect(try roundTrip(Int?.some(5)) == 5)
        #expect(try roundTrip(String?.none) == nil)
        #expect(try roundTrip(String?.some("x")) == "x")
    }

    @Test func databaseValues() throws {
        for value: DatabaseValue in [.null, .integer(3), .real(2.5), .text("t"), .blob(Data([1]))] {
            #expect(try roundTrip(value) == value)
        }
    }

    @Test func emptyStringIsNotNull() throws {
        let isNull = try queue.write { db in
            try db.execute(sql: "INSERT INTO t(v) VALUES (?)", arguments: [""])
            return try db.scalar(Bool.self, sql: "SELECT v IS NULL FROM t")
        }
        #expect(isNull == false)
    }

    @Test func namedAndPositionalParameters() throws {
        let values = try queue.write { db in
            try db.execute(sql: "CREATE TABLE p(a, b, c)")
            try db.execute(sql: "INSERT INTO p VALUES (:a, @b, $c)", arguments: ["a": 1, "b": "two", "c": 3.0])
            try db.execute(sql: "INSERT INTO p VALUES (?, ?2, ?)", arguments: [4, "five", 6.0])
            return try db.fetchAll(sql: "SELECT a, b, c FROM p ORDER BY a") {
                "\(try $0.decode(Int.self, at: 0)) \(try $0.decode(String.self, at: 1)) \(try $0.decode(Double.self, named: "C"))"
            }
        }
        #expect(values == ["1 two 3.0", "4 five 6.0"])
    }

    @Test func wrongArgumentCountThrows() throws {
        #expect {
            try queue.write { db in try db.execute(sql: "INSERT INTO t(id, v) VALUES (?, ?)", arguments: [1]) }
        } throws: { error in
            (error as? DatabaseError)?.resultCode == .SQLITE_MISUSE
        }
        #expect(throws: DatabaseError.self) {
            try queue.write { db in try db.execute(sql: "INSERT INTO t(v) VALUES (?)", arguments: [1, 2]) }
        }
        #expect(throws: DatabaseError.self) {
            try queue.write { db in try db.execute(sql: "INSERT INTO t(v) VALUES (:v)", arguments: ["w": 1]) }
        }
    }

    @Test func readingNullAsNonOptionalThrowsMismatch() throws {
        let error = try queue.write { db -> DatabaseError? in
            try db.execute(sql: "INSERT INTO t(v) VALUES (NULL)")
            do {
                _ = try db.fetchOne(sql: "SELECT v FROM t") { try $0.decode(Int.self, at: 0) }
                return nil
            } catch let error as DatabaseError {
                return error
            }
        }
        #expect(error?.resultCode == .SQLITE_MISMATCH)
        #expect(error?.message.contains("found NULL") == true)
    }

    @Test func valuesAreNeverSplicedIntoSQL() throws {
        let hostile = "'); DROP TABLE t; --"
        let stored = try queue.write { db in
            try db.execute(sql: "INSERT INTO t(v) VALUES (?)", arguments: [hostile])
            return try db.scalar(String.self, sql: "SELECT v FROM t")
        }
        #expect(stored == hostile)
    }
}
