import Testing
@testable import SQLiteStore

/// The typed reads of `Row`: the concrete overloads (Int64, Int, Double, String), the inlinable generic
/// ones, and raw-representable enums, on the values they accept and the ones they refuse.
struct RowDecodeTests {
    enum Kind: String, DatabaseValueConvertible {
        case device, desktop
    }

    func withRow(_ sql: String, _ body: (Row) throws -> Void) throws {
        let queue = try DatabaseQueue.inMemory()
        try queue.read { db in
            _ = try db.fetchOne(sql: sql) { row in try body(row) }
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
}
