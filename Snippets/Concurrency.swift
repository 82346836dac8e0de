// Concurrency: a pool of readers beside one writer, async access, and cancelling a stale search.
import Foundation
import SQLiteStore

// snippet.hide
let directory = FileManager.default.temporaryDirectory.appendingPathComponent("concurrency-\(UUID().uuidString)")
try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
let path = directory.appendingPathComponent("notes.sqlite").path
let schema = MigrationSet(identity: "com.example.notes", migrations: [
    Migration(version: 1, name: "create_note", sql: "CREATE TABLE note(id INTEGER PRIMARY KEY, text TEXT NOT NULL)"),
])
// snippet.show

// snippet.pool
let pool = try DatabasePool(path: path)
// snippet.hide
_ = try pool.writeWithoutTransaction { db in try Migrator(sets: [schema]).migrate(db) }
// snippet.show
func add(_ text: String, to pool: DatabasePool) async throws -> [String] {
    try await pool.write { db in
        try db.execute(sql: "INSERT INTO note(text) VALUES (?)", arguments: [text])
    }
    return try await pool.read { db in
        try db.fetchAll(sql: "SELECT text FROM note ORDER BY id") { try $0.decode(String.self, at: 0) }
    }
}
// snippet.end

// snippet.cancel
@MainActor final class NoteSearch {
    let pool: DatabasePool
    private var search: Task<Void, Never>?

    init(pool: DatabasePool) { self.pool = pool }

    func textDidChange(_ text: String) {
        search?.cancel()                       // the stale query stops within microseconds
        search = Task {
            let found = try? await pool.read { db in
                try db.fetchAll(sql: "SELECT text FROM note WHERE instr(text, ?) ORDER BY text LIMIT 50",
                                arguments: [text]) { try $0.decode(String.self, at: 0) }
            }
            if let found { show(found) }       // a cancelled search throws CancellationError: nothing shown
        }
    }

    func show(_ texts: [String]) { print(texts) }
}
// snippet.end

// snippet.hide
let added = try await add("hello", to: pool)
precondition(added == ["hello"])
try? FileManager.default.removeItem(at: directory)
