import Foundation
import PostgreSQLStore
import SQLiteStore
import StoreCore
import TestSupport
import Testing

/// A `Row` of PostgreSQL's values decodes as the same values read from a SQLite file: each column of a
/// row stored in both engines is read as every library type, and both engines give the same value or
/// both refuse it.
@Suite struct RowValuesTests {
    enum Kind: String, DatabaseValueConvertible { case device, desktop }
    enum Level: Int, DatabaseValueConvertible { case low = 1, high = 2 }

    /// The columns: PostgreSQL's type for each, and the values stored in them (NULL among them).
    static let columns: [(type: String, values: [DatabaseValue])] = [
        ("bigint", [.integer(0), .integer(1), .integer(2), .integer(-7), .integer(Int64.max), .null]),
        ("double precision", [.real(0), .real(2.5), .real(-1e300), .real(7), .real(1), .null]),
        ("text", [.text(""), .text("device"), .text("Café 携帯"), .text("1"), .text("desktop"), .null]),
        ("bytea", [.blob(Data()), .blob(Data([0, 1, 255])), .blob(Data("device".utf8)), .blob(Data([7])), .blob(Data()), .null]),
        ("boolean", [.integer(0), .integer(1), .integer(1), .integer(0), .integer(1), .null]),
    ]

    /// Every read of the column at `index`, each as its value's description or "refused".
    static func reads(_ row: Row, at index: Int) -> [String] {
        func read<T: DatabaseValueConvertible>(_ type: T.Type) -> String {
            (try? String(describing: row.decode(T.self, at: index))) ?? "refused"
        }
        return [
            read(Int64.self), read(Int.self), read(Int32.self), read(Double.self), read(String.self), read(Bool.self),
            read(Data.self), read(Date.self), read(DatabaseValue.self), read(Kind.self), read(Level.self),
            read(Int64?.self), read(Double?.self), read(String?.self), read(Bool?.self), read(Kind?.self),
            (try? String(row.decode(Int64.self, at: index))) ?? "refused",
            (try? String(row.decode(Int.self, at: index))) ?? "refused",
            (try? String(row.decode(Double.self, at: index))) ?? "refused",
            (try? row.decode(String.self, at: index)) ?? "refused",
            String(row.isNull(at: index)), row.databaseValue(at: index).description,
        ]
    }

    @Test func rowsOfValuesDecodeAsRowsOfAFile() throws {
        let schema = try TestSchema()
        let server = try schema.connect()
        defer { server.close() }
        let directory = try TemporaryDirectory()
        let file = try DatabaseQueue(path: directory.path())
        defer { try? file.close() }

        let names = Self.columns.indices.map { "c\($0)" }
        let rowCount = Self.columns[0].values.count
        try server.execute(
            sql: "CREATE TABLE t(n integer, " + zip(names, Self.columns).map { "\($0) \($1.type)" }.joined(separator: ", ") + ")",
            values: [])
        try file.write { db in try db.execute(sql: "CREATE TABLE t(n, " + names.joined(separator: ", ") + ")") }
        let insert = "INSERT INTO t VALUES (?, " + names.map { _ in "?" }.joined(separator: ", ") + ")"
        for rowIndex in 0..<rowCount {
            let values = [DatabaseValue.integer(Int64(rowIndex))] + Self.columns.map { $0.values[rowIndex] }
            try server.execute(sql: insert, values: values)
            try file.write { db in try db.execute(sql: insert, values: values) }
        }

        let select = "SELECT " + names.joined(separator: ", ") + " FROM t ORDER BY n"
        func allReads(_ db: some SQLConnection) throws -> [[String]] {
            var reads: [[String]] = []
            try db.forEachRow(sql: select) { row in
                #expect(row.count == names.count)
                for index in 0..<row.count { reads.append(Self.reads(row, at: index)) }
            }
            return reads
        }
        let fromServer = try allReads(server)
        let fromFile = try file.read { db in try allReads(db) }
        #expect(fromServer.count == names.count * rowCount)
        for (index, (serverReads, fileReads)) in zip(fromServer, fromFile).enumerated() {
            #expect(serverReads == fileReads, "row \(index / names.count), column \(names[index % names.count])")
        }
    }

    @Test func aRowOfValuesReadsColumnsByNameAndNamesThemInErrors() throws {
        let schema = try TestSchema()
        let server = try schema.connect()
        defer { server.close() }
        try server.forEachRow(sql: "SELECT 7 AS Count, 'x' AS label") { row in
            #expect(row["count"] as Int == 7)
            #expect(try row.decode(String.self, named: "LABEL") == "x")
            #expect(throws: DatabaseError.self) { try row.decode(Int.self, named: "missing") }
            do {
                _ = try row.decode(Int.self, at: 1)
                Issue.record("text read as Int")
            } catch let error as DatabaseError {
                #expect(error.resultCode == .SQLITE_MISMATCH)
                #expect(error.description.contains("column 1 (label)"))
            }
        }
    }
}
