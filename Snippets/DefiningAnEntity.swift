// Defining an entity: declared once, with everything else derived from the declaration.
import Entities
import FetchedResults
import Foundation
import RecordFormats
import SQLiteStore
import TextSearch

// snippet.hide
let directory = FileManager.default.temporaryDirectory.appendingPathComponent("defining-an-entity-\(UUID().uuidString)")
try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
let queue = try DatabaseQueue(path: directory.appendingPathComponent("films.sqlite").path)
// snippet.show

// snippet.entity
struct Film: SearchableEntity, Hashable {
    var id: Int64?
    var title: String
    var director: String
    var year: Int

    struct Refused: Error { var field: String }

    static let declaration = EntityDeclaration<Film>(
        table: "films", template: Film(title: "", director: "", year: 0), folding: TextFolding.fold,
        attributes: [
            .text("title", \.title, folded: true, searched: true, sections: .initial, check: { title in
                let trimmed = title.trimmingCharacters(in: .whitespaces)
                guard !trimmed.isEmpty else { throw Refused(field: "title") }
                return trimmed
            }),
            .text("director", \.director, folded: true, searched: true, sections: .initial),
            .value("year", \.year, searchedAsNumber: true, check: { year in
                guard (1888...2100).contains(year) else { throw Refused(field: "year") }
                return year
            }),
        ])

    /// The search of the declared searched attributes, which `FetchRequest.searchText` selects by;
    /// its index is migration 2's.
    static let searchDescription = declaration.searchDescription(indexesShortTerms: false)
}
// snippet.end

// snippet.table
let schema = try MigrationSet(identity: "com.example.films", migrations: [
    // The table the declaration describes: `id`, a column per attribute, `<column>_folded` per folded text.
    Migration(version: 1, name: "create_films", sql: """
        CREATE TABLE films (
            id INTEGER PRIMARY KEY,
            title TEXT NOT NULL UNIQUE,
            title_folded TEXT NOT NULL,
            director TEXT NOT NULL,
            director_folded TEXT NOT NULL,
            year INTEGER NOT NULL
        ) STRICT;
        """),
    // Its search index and change tracking, as the library generates them.
    Migration(version: 2, name: "search_and_track_films", revision: "1") { db in
        try db.execute(sql: Film.searchDescription.installSQL)
        try ChangeLog.installTracking(forTable: Film.tableName, db)
    },
])
_ = try queue.writeWithoutTransaction { db in try Migrator(sets: [schema]).migrate(db) }
// snippet.end

// snippet.write
var solaris = Film(title: " Solaris ", director: "Andrei Tarkovsky", year: 1972)
try queue.write { db in
    try solaris.insert(db)                              // checked (trimmed), saved; solaris.id is set
    var stalker = Film(title: "Stalker", director: "Andrei Tarkovsky", year: 1979)
    try stalker.insert(db)
    var amelie = Film(title: "Le Fabuleux Destin d'Amélie Poulain", director: "Jean-Pierre Jeunet", year: 2001)
    try amelie.insert(db)
    solaris.year = 1973
    try solaris.update(db)
}
// snippet.end

// snippet.fetch
let request = FetchRequest<Film>(
    predicate: #Predicate { $0.year < 2000 },
    sortDescriptors: [SortDescriptor(\.year)],
    searchText: "tarkovsky",
    sectionKeyPath: \Film.director)
let controller = FetchedResultsController(request: request, reader: queue)
try controller.performFetch()
print(controller.sections.map(\.name))                  // ["A"]: directors by initial
print(try controller.fetchedObjects.map(\.title))       // ["Solaris", "Stalker"]
// snippet.end

// snippet.files
let output = try ByteOutput(replacing: directory.appendingPathComponent("films.csv").path)
let writer = RecordWriter(format: .csv, layout: Film.declaration.recordLayout, output: output)
for film in try queue.read({ db in try Film.fetchAll(db) }) { try writer.write(film) }
try writer.finish()
try output.commit()                                     // id,title,director,year
// snippet.end

// snippet.hide
let titles = try controller.fetchedObjects.map(\.title)
let saved = try queue.read { db in try Film.fetchOne(id: solaris.id!, db) }
precondition(controller.sections.map(\.name) == ["A"] && titles == ["Solaris", "Stalker"] && saved?.year == 1973)
precondition(Film.declaration.recordLayout.fieldNames == ["id", "title", "director", "year"])
try FileManager.default.removeItem(at: directory)
