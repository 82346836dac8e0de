import Foundation
import SQLiteStore
import Testing

/// A database file in a fresh temporary directory, with a tracked table `items(id, name)`; the directory
/// is deleted when the fixture is released.
final class TrackedDatabase {
    let directory: URL
    let path: String
    let queue: DatabaseQueue

    init(retention: Int = ChangeLog.defaultRetention) throws {
        directory = FileManager.default.temporaryDirectory.appending(path: "observe-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        path = directory.appending(path: "store.sqlite").path
        queue = try DatabaseQueue(path: path)
        try queue.write { db in
            try db.execute(sql: "CREATE TABLE items (id INTEGER PRIMARY KEY, name TEXT NOT NULL)")
            try ChangeLog.install(retaining: retention, db)
            try ChangeLog.installTracking(forTable: "items", db)
        }
    }

    deinit {
        try? queue.close()
        try? FileManager.default.removeItem(at: directory)
    }

    /// Runs one statement in its own transaction.
    func write(_ sql: String, _ arguments: StatementArguments = []) throws {
        try queue.write { db in try db.execute(sql: sql, arguments: arguments) }
    }

    /// The log's current position.
    func sequence() throws -> Int64 {
        try queue.read { db in try ChangeLog.currentSequence(db) }
    }
}

/// `(table, rowID, kind)` of each event, for compact expectations.
func summary(_ changes: [RowChange]) -> [String] {
    changes.map { "\($0.kind) \($0.table) \($0.rowID)" }
}
