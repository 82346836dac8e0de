// Migrations: SQL files and Swift steps, one owner's set or several in one file.
import Catalog
import Foundation
import SQLiteStore

// snippet.hide
let directory = FileManager.default.temporaryDirectory.appendingPathComponent("migrations-\(UUID().uuidString)")
try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
let path = directory.appendingPathComponent("notes.sqlite").path
let fileText = "CREATE INDEX note_by_title ON note(title);"
// snippet.show

// snippet.set
let notes = MigrationSet(identity: "com.example.notes", migrations: [
    // SQL, written here…
    Migration(version: 1, name: "create_note", sql: "CREATE TABLE note(id INTEGER PRIMARY KEY, title TEXT NOT NULL)"),
    // …or read from a file named NNNN_description.sql (version 2, name "index_note_titles"),
    try Migration(fileName: "0002_index_note_titles.sql", sql: fileText),
    // …or Swift, given the Database inside the migration's transaction. Its checksum is the revision's.
    Migration(version: 3, name: "trim_titles", revision: "1") { db in
        let rows = try db.fetchAll(sql: "SELECT id, title FROM note") {
            (try $0.decode(Int64.self, at: 0), try $0.decode(String.self, at: 1))
        }
        for (id, title) in rows where title != title.trimmingCharacters(in: .whitespaces) {
            try db.execute(
                sql: "UPDATE note SET title = ? WHERE id = ?",
                arguments: [title.trimmingCharacters(in: .whitespaces), id])
        }
    },
])
// snippet.end

// snippet.alone
var configuration = Configuration()
let migrator = try Migrator(sets: [notes])
// Refuse another program's file, a newer one or a changed migration before anything is written.
configuration.prepareDatabase = { db in try migrator.validate(db) }
let queue = try DatabaseQueue(path: path, configuration: configuration)
let applied = try queue.writeWithoutTransaction { db in try migrator.migrate(db) }
print(applied.map { "\($0.set) \($0.version) \($0.name)" })   // com.example.notes 1 create_note, …
// snippet.end

// snippet.status
for status in try queue.read({ db in try migrator.status(db) }) {
    print(status.set, status.version, status.name, status.state)   // com.example.notes 1 create_note applied
}
// snippet.end

// snippet.hide
try queue.close()
// snippet.show

// snippet.beside
// The same set beside the catalog's, in the catalog's file: applied after the catalog's migrations.
let store = try CatalogStore(path: directory.appendingPathComponent("catalog.sqlite").path, migrationSets: [notes])
// snippet.end

// snippet.hide
let again = try store.migrate()
precondition(applied.count == 3 && again.isEmpty)
try FileManager.default.removeItem(at: directory)
