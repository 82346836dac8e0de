import Foundation
import SQLiteStore
import TestSupport
import Testing

/// SQL functions written in Swift: typed arguments and results, values of every storage class,
/// errors, replacement, removal, determinism, and their lifetime.
/// SQLite-only: SQL functions registered on SQLite connections.
struct FunctionTests {
    @Test func aTypedFunctionReadsItsArgumentsAndStoresItsResult() throws {
        let queue = try DatabaseQueue(path: ":memory:")
        try queue.write { db in
            try db.createFunction("repeat_text") { (text: String, times: Int) in String(repeating: text, count: times) }
            try db.createFunction("describe") { (value: Int?) in value.map { "some \($0)" } ?? "none" }
            try db.createFunction("half") { (value: Double) -> Double? in value == 0 ? nil : value / 2 }
            #expect(try db.scalar(String.self, sql: "SELECT repeat_text('ab', 3)") == "ababab")
            #expect(try db.scalar(String.self, sql: "SELECT repeat_text(?, ?)", arguments: ["東京", 2]) == "東京東京")
            #expect(try db.scalar(String.self, sql: "SELECT describe(NULL)") == "none")
            #expect(try db.scalar(String.self, sql: "SELECT describe(7)") == "some 7")
            #expect(try db.scalar(Double.self, sql: "SELECT half(3)") == 1.5)
            #expect(try db.fetchOne(sql: "SELECT half(0) IS NULL") { try $0.decode(Bool.self, at: 0) } == true)
        }
    }

    @Test func everyStorageClassPassesThroughUnchanged() throws {
        let queue = try DatabaseQueue(path: ":memory:")
        let values: [DatabaseValue] = [
            .null, .integer(.min), .integer(42), .real(-0.25), .text(""), .text("a\0b ü 👍"), .blob(Data()), .blob(Data([0, 1, 255])),
        ]
        try queue.write { db in
            try db.createFunction("identity", argumentCount: 1) { $0[0] }
            try db.createFunction("count_arguments", argumentCount: -1) { .integer(Int64($0.count)) }
            for value in values {
                let back = try db.fetchOne(sql: "SELECT identity(?), typeof(identity(?))", arguments: [value, value]) { row in
                    (row.databaseValue(at: 0), try row.decode(String.self, at: 1))
                }
                #expect(back?.0 == value, "\(value)")
                #expect(back?.1 == ["null", "integer", "integer", "real", "text", "text", "blob", "blob"][values.firstIndex(of: value)!])
            }
            #expect(try db.scalar(Int.self, sql: "SELECT count_arguments()") == 0)
            #expect(try db.scalar(Int.self, sql: "SELECT count_arguments(1, 'a', NULL)") == 3)
        }
    }

    @Test func anArgumentOfAnotherTypeAndAThrownErrorFailTheStatement() throws {
        struct Refused: Error, CustomStringConvertible { var description: String { "refused by the function" } }
        let queue = try DatabaseQueue(path: ":memory:")
        try queue.write { db in
            try db.createFunction("length_of") { (text: String) in text.count }
            try db.createFunction("refuse") { (_: Int) -> Int in throw Refused() }
            let wrongType = #expect(throws: DatabaseError.self) { try db.execute(sql: "SELECT length_of(NULL)") }
            #expect(wrongType?.message == "length_of(): argument 1 is NULL, not a String")
            let thrown = #expect(throws: DatabaseError.self) { try db.execute(sql: "SELECT refuse(1)") }
            #expect(thrown?.message == "refused by the function")
            #expect(thrown?.resultCode == .SQLITE_ERROR)
        }
    }

    @Test func aFunctionIsReplacedAndRemoved() throws {
        let queue = try DatabaseQueue(path: ":memory:")
        try queue.write { db in
            try db.createFunction("answer") { () in 1 }
            try db.createFunction("answer") { () in 2 }
            try db.createFunction("answer") { (value: Int) in value * 10 }
            #expect(try db.scalar(Int.self, sql: "SELECT answer()") == 2)
            #expect(try db.scalar(Int.self, sql: "SELECT answer(4)") == 40)
            try db.removeFunction("answer", argumentCount: 0)
            #expect(throws: DatabaseError.self) { try db.execute(sql: "SELECT answer()") }
            #expect(try db.scalar(Int.self, sql: "SELECT answer(5)") == 50)
            try db.removeFunction("never_defined", argumentCount: 1)
        }
    }

    @Test func onlyADeterministicFunctionMayIndexAnExpression() throws {
        let queue = try DatabaseQueue(path: ":memory:")
        try queue.write { db in
            try db.execute(sql: "CREATE TABLE films(title TEXT)")
            try db.createFunction("initial") { (title: String) in String(title.prefix(1)) }
            try db.createFunction("initial_now", isDeterministic: false) { (title: String) in String(title.prefix(1)) }
            try db.execute(sql: "CREATE INDEX films_by_initial ON films(initial(title))")
            try db.execute(sql: "INSERT INTO films VALUES ('Alien'), ('Brazil')")
            #expect(try db.scalar(String.self, sql: "SELECT title FROM films WHERE initial(title) = 'B'") == "Brazil")
            let refused = #expect(throws: DatabaseError.self) {
                try db.execute(sql: "CREATE INDEX films_by_initial_now ON films(initial_now(title))")
            }
            #expect(refused?.message.contains("non-deterministic") == true)
        }
    }

    @Test func theConnectionReleasesItsFunctionsWhenItCloses() throws {
        final class Captured: Sendable {}
        weak var released: Captured?
        try {
            let captured = Captured()
            released = captured
            let queue = try DatabaseQueue(path: ":memory:")
            try queue.write { db in try db.createFunction("captures") { () in _ = captured; return 1 } }
            #expect(try queue.read { db in try db.scalar(Int.self, sql: "SELECT captures()") } == 1)
        }()
        #expect(released == nil)
    }
}
