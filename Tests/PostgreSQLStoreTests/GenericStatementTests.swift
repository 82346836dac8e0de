import PostgreSQLStore
import SQLiteStore
import StoreCore
import Testing

/// Code written once for both engines (`some SQLConnection`) runs statements as it reads rows:
/// `execute(sql:arguments:)`, as `fetchAll(sql:arguments:_:)` and `scalar(_:sql:arguments:)` take
/// them, and as each engine's own connection spells it.
@Suite struct GenericStatementTests {
    /// Creates a table, adds rows with and without arguments, and reads them back, all generically.
    static func notes(_ db: some SQLConnection) throws -> [String] {
        try db.execute(sql: "CREATE TABLE note(id \(db.dialect.integerPrimaryKey), text TEXT NOT NULL)")
        try db.execute(sql: "INSERT INTO note(id, text) VALUES (1, 'plain')")
        try db.execute(sql: "INSERT INTO note(id, text) VALUES (?, ?)", arguments: [2, "Café ?"])
        try db.execute(sql: "UPDATE note SET text = text || ? WHERE id = ?", arguments: ["!", 1])
        #expect(try db.scalar(Int.self, sql: "SELECT count(*) FROM note WHERE id > ?", arguments: [0]) == 2)
        return try db.fetchAll(sql: "SELECT text FROM note ORDER BY id") { try $0.decode(String.self, at: 0) }
    }

    @Test(arguments: Engine.allCases) func executeTakesArgumentsAsReadsDo(engine: Engine) throws {
        #expect(try engine.withFreshDatabase { db in try Self.notes(db) } == ["plain!", "Café ?"])
    }
}
