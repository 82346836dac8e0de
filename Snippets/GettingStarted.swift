// Getting started: open a file, give it a schema, write, read, and fetch a sectioned result.
import FetchedResults
import Foundation
import SQLiteStore

// snippet.hide
let directory = FileManager.default.temporaryDirectory.appendingPathComponent("getting-started-\(UUID().uuidString)")
try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
let path = directory.appendingPathComponent("notes.sqlite").path
// snippet.show

// snippet.open
// One writer and concurrent readers, in WAL mode, with foreign keys on and a 5 s busy timeout.
let database = try DatabasePool(path: path)
// snippet.end

// snippet.migrate
let schema = MigrationSet(identity: "com.example.notes", migrations: [
    Migration(version: 1, name: "create_note", sql: """
        CREATE TABLE note(id INTEGER PRIMARY KEY, title TEXT NOT NULL, folder TEXT NOT NULL);
        CREATE INDEX note_by_folder_title ON note(folder, title, id);
        """),
])
_ = try database.writeWithoutTransaction { db in try Migrator(sets: [schema]).migrate(db) }
// snippet.end

// snippet.write
try database.write { db in   // one IMMEDIATE transaction: all or nothing
    for (title, folder) in [("Groceries", "Home"), ("Plumber", "Home"), ("Quarterly report", "Work")] {
        try db.execute(sql: "INSERT INTO note(title, folder) VALUES (?, ?)", arguments: [title, folder])
    }
}
let count = try database.read { db in try db.scalar(Int.self, sql: "SELECT count(*) FROM note") }
// snippet.end

// snippet.entity
struct Note: FetchableEntity {
    var id: Int64?
    var title: String
    var folder: String

    static let tableName = "note"
    static let selection = "id, title, folder"
    var rowID: Int64? { id }

    init(row: Row) throws {
        id = try row.decode(Int64.self, at: 0)
        title = try row.decode(String.self, at: 1)
        folder = try row.decode(String.self, at: 2)
    }

    static func column(for keyPath: PartialKeyPath<Note>) -> EntityColumn? {
        switch keyPath {
        case \Note.title: EntityColumn("title")
        case \Note.folder: EntityColumn("folder")
        default: nil
        }
    }
}
// snippet.end

// snippet.fetch
let request = FetchRequest<Note>(
    predicate: #Predicate { !$0.title.contains("report") || $0.folder == "Work" },
    sortDescriptors: [SortDescriptor(\.folder), SortDescriptor(\.title)],
    sectionKeyPath: \Note.folder,
    batchSize: 50)
let controller = FetchedResultsController(request: request, reader: database)
try controller.performFetch()
for section in controller.sections {
    print(section.name, section.numberOfObjects)           // Home 2, Work 1
}
let note = try controller.object(at: ItemPath(section: 1, row: 0))   // Quarterly report
// snippet.end

// snippet.hide
precondition(count == 3 && note.title == "Quarterly report")
try FileManager.default.removeItem(at: directory)
