// A tiny program for the crash tests of `ReliabilityTests`: it migrates a database with a migration
// long enough to be killed in the middle of, and says when it starts and ends.
//
//     reliability-fixture migrate PATH ROWS
//
// Migration 1 creates `kept`; migration 2 creates `bulk` and fills it with ROWS rows in one statement.
import Foundation
import SQLiteStore

let arguments = CommandLine.arguments
guard arguments.count == 4, arguments[1] == "migrate", let rows = Int(arguments[3]), rows > 0 else {
    FileHandle.standardError.write(Data("usage: reliability-fixture migrate PATH ROWS\n".utf8))
    exit(64)
}
do {
    let migrator = Migrator(migrations: [
        Migration(version: 1, name: "create_kept", sql: "CREATE TABLE kept(id INTEGER PRIMARY KEY, note TEXT NOT NULL)"),
        Migration(version: 2, name: "fill_bulk", sql: """
            CREATE TABLE bulk(id INTEGER PRIMARY KEY, payload BLOB NOT NULL);
            WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < \(rows))
            INSERT INTO bulk(id, payload) SELECT i, randomblob(200) FROM n;
            """),
    ])
    let queue = try DatabaseQueue(path: arguments[2])
    FileHandle.standardOutput.write(Data("migrating\n".utf8))
    let applied = try queue.writeWithoutTransaction { db in try migrator.migrate(db) }
    FileHandle.standardOutput.write(Data("applied \(applied.map(\.version))\n".utf8))
} catch {
    FileHandle.standardError.write(Data("reliability-fixture: \(error)\n".utf8))
    exit(1)
}
