// Live changes: a controller that follows every commit, from this process or any other.
import Catalog
import FetchedResults
import Foundation
import SQLiteStore

// snippet.hide
let directory = FileManager.default.temporaryDirectory.appendingPathComponent("live-changes-\(UUID().uuidString)")
try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
let path = directory.appendingPathComponent("notes.sqlite").path
// snippet.show

// snippet.install
// The change log's triggers, installed by a migration so that every writer of the file runs them.
let notes = MigrationSet(identity: "com.example.notes", migrations: [
    Migration(version: 1, name: "create_note", sql: "CREATE TABLE note(id INTEGER PRIMARY KEY, title TEXT NOT NULL)"),
    Migration(version: 2, name: "track_notes", revision: "1") { db in
        try ChangeLog.installTracking(forTable: "note", db)
    },
])
let queue = try DatabaseQueue(path: path)
_ = try queue.writeWithoutTransaction { db in try Migrator(sets: [notes]).migrate(db) }
// snippet.end

// snippet.entity
struct Note: FetchableEntity {
    var id: Int64?
    var title: String
    static let tableName = "note"
    static let selection = "id, title"
    var rowID: Int64? { id }
    init(row: Row) throws {
        id = try row.decode(Int64.self, at: 0)
        title = try row.decode(String.self, at: 1)
    }
    static func column(for keyPath: PartialKeyPath<Note>) -> EntityColumn? {
        keyPath == \Note.title ? EntityColumn("title") : nil
    }
}
// snippet.end

// snippet.track
let controller = FetchedResultsController(
    request: FetchRequest<Note>(sortDescriptors: [SortDescriptor(\.title)]), reader: queue)
try controller.startTracking()                      // the result as ids, and the log's position

// Any connection, any process:
let writer = try DatabaseQueue(path: path)
try writer.write { db in
    try db.execute(sql: "INSERT INTO note(title) VALUES ('Beta'), ('Alpha')")
}
let changeSet = try controller.applyPendingChanges()
print(changeSet)                                    // insert section 0 (), insert 2 at 0.0, insert 1 at 0.1
// snippet.end

// snippet.follow
/// Applies each commit as it happens, on the caller's actor, until the task is cancelled.
func follow(_ controller: FetchedResultsController<Note>, path: String) async throws {
    let monitor = try ChangeMonitor(path: path)
    defer { monitor.stop() }
    for try await changeSet in controller.changeSets(from: monitor) {
        // Deletions at old paths first, then insertions at new paths, as a table view's batch update.
        print(changeSet.deletedSections, changeSet.insertedSections, changeSet.changes)
    }
}
// snippet.end

// snippet.hide
precondition(changeSet.changes.count == 2 && controller.numberOfObjects == 2)
try FileManager.default.removeItem(at: directory)
