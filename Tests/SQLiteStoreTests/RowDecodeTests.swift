import Testing
@testable import SQLiteStore

/// The typed reads of `Row`: the concrete overloads (Int64, Int, Double, String), the inlinable generic
/// ones, and raw-representable enums, on the values they accept and the ones they refuse.
/// SQLite-only: a running statement's row (a row of PostgreSQL's values: RowValuesTests).
struct RowDecodeTests {
    enum Kind: String, DatabaseValueConvertible {
        case device, desktop
    }

    enum Level: Int, DatabaseValueConvertible {
        case low = 1, high = 2
    }

    /// Raw-representable and read straight from a column by a conformance of its own, which wins.
    enum Flag: Int64, DatabaseValueConvertible, StatementColumnConvertible {
        case off = 0, on = 1
        init?(sqliteStatement: SQLiteStatement, index: Int32) {
            guard let text = String(sqliteStatement: sqliteStatement, index: index) else { return nil }
            self = text == "yes" ? .on : .off
        }
    }

    func withRow(_ sql: String, _ body: (Row) throws -> Void) throws {
        let queue = try DatabaseQueue.inMemory()
        try queue.read { db in
            _ = try db.fetchOne(sql: sql) { row in try body(row) }
        }
    }

    /// `forEachInteger` gives each row's first column as `decode(Int64.self, at: 0)` reads it, and
    /// refuses what is not an integer (a real too) with `SQLITE_MISMATCH`, after the rows before it.
    @Test func integersAreReadStraightFromTheFirstColumn() throws {
        let queue = try DatabaseQueue.inMemory()
        try queue.read { db in
            let sql = "SELECT value, 'x' FROM (SELECT -9223372036854775808 AS value UNION ALL SELECT 0 UNION ALL SELECT 42) ORDER BY value"
            var read: [Int64] = []
            try db.cachedStatement(sql: sql).forEachInteger { read.append($0) }
            #expect(read == [Int64.min, 0, 42])
            #expect(read == (try db.fetchAll(sql: sql) { try $0.decode(Int64.self, at: 0) }))
            for refused in ["SELECT 1 UNION ALL SELECT 7.0", "SELECT 1 UNION ALL SELECT NULL", "SELECT 1 UNION ALL SELECT '3'"] {
                var before: [Int64] = []
                #expect(throws: DatabaseError.self) { try db.cachedStatement(sql: refused).forEachInteger { before.append($0) } }
                #expect(before == [1], "\(refused)")
            }
        }
    }

    @Test func concreteOverloadsReadTheirStorageClass() throws {
        try withRow("SELECT 42, 2.5, 'Café 携帯', 7.0") { (row: Row) throws in
            #expect(row.count == 4)
            #expect(try row.decode(Int64.self, at: 0) == 42)
            #expect(try row.decode(Int.self, at: 0) == 42)
            #expect(try row.decode(Double.self, at: 1) == 2.5)
            #expect(try row.decode(Double.self, at: 0) == 42)
            #expect(try row.decode(String.self, at: 2) == "Café 携帯")
            #expect(try row.decode(Int.self, at: 3) == 7)  // an integral real reads as an integer
        }
    }

    @Test func concreteOverloadsThrowMismatch() throws {
        try withRow("SELECT NULL, 'x', 1.5, 1") { (row: Row) throws in
            for index in 0..<3 {
                #expect(throws: DatabaseError.self) { try row.decode(Int64.self, at: index) }
                #expect(throws: DatabaseError.self) { try row.decode(Int.self, at: index) }
            }
            #expect(throws: DatabaseError.self) { try row.decode(Double.self, at: 1) }
            #expect(throws: DatabaseError.self) { try row.decode(String.self, at: 3) }
            do {
                _ = try row.decode(String.self, at: 0)
                Issue.record("NULL read as String")
            } catch let error as DatabaseError {
                #expect(error.resultCode == .SQLITE_MISMATCH)
                #expect(error.description.contains("found NULL"))
            }
        }
    }

    @Test func genericDecodeAndOptionals() throws {
        try withRow("SELECT NULL, 3, 'desktop', 'laptop'") { (row: Row) throws in
            #expect(try row.decode(Int?.self, at: 0) == nil)
            #expect(try row.decode(Int?.self, at: 1) == 3)
            #expect(try row.decode(Kind.self, at: 2) == .desktop)
            #expect(throws: DatabaseError.self) { try row.decode(Kind.self, at: 3) }
            let generic: Int64 = try row.decode(at: 1)
            #expect(generic == 3)
        }
    }

    /// A raw-representable enum reads its raw value from the column (text or integer, as its raw
    /// value type reads), and the case with it; an optional one reads NULL as nil.
    @Test func rawRepresentableEnumsReadTheirRawValue() throws {
        try withRow("SELECT 'device', 2, 2.0, NULL, 'yes'") { (row: Row) throws in
            #expect(try row.decode(Kind.self, at: 0) == .device)
            #expect(try row.decode(Kind?.self, at: 0) == .device)
            #expect(try row.decode(Kind?.self, at: 3) == nil)
            #expect(try row.decode(Level.self, at: 1) == .high)
            #expect(try row.decode(Level.self, at: 2) == .high)  // an integral real, as Int reads it
            #expect(try row.decode(Level?.self, at: 3) == nil)
            #expect(try row.decode(Flag.self, at: 4) == .on)
        }
    }

    /// Each refusal is SQLITE_MISMATCH naming the column, the type and what the column holds.
    @Test(arguments: [
        (0, "Kind", "could not read column 0 (a) as Kind: found TEXT"),
        (1, "Kind", "could not read column 1 (b) as Kind: found INTEGER"),
        (2, "Kind", "could not read column 2 (c) as Kind: found NULL"),
        (2, "Level", "could not read column 2 (c) as Level: found NULL"),
        (1, "Level", "could not read column 1 (b) as Level: found INTEGER"),
        (3, "Level", "could not read column 3 (d) as Level: found REAL"),
        (0, "Level?", "could not read column 0 (a) as Optional<Level>: found TEXT"),
        (1, "Kind?", "could not read column 1 (b) as Optional<Kind>: found INTEGER"),
    ])
    func rawRepresentableEnumsRefuseOtherValues(index: Int, type: String, message: String) throws {
        try withRow("SELECT 'laptop' AS a, 7 AS b, NULL AS c, 1.5 AS d") { (row: Row) throws in
            let error = try #require(throws: DatabaseError.self) {
                switch type {
                case "Kind": _ = try row.decode(Kind.self, at: index)
                case "Kind?": _ = try row.decode(Kind?.self, at: index)
                case "Level": _ = try row.decode(Level.self, at: index)
                default: _ = try row.decode(Level?.self, at: index)
                }
            }
            #expect(error.resultCode == .SQLITE_MISMATCH)
            #expect(error.message == message)
        }
    }
}
