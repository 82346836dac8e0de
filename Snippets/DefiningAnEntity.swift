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
            }, unique: true),
            .text("director", \.director, folded: true, searched: true, sections: .initial),
            .value("year", \.year, searchedAsNumber: true, check: { year in
                guard (1888...2100).contains(year) else { throw Refused(field: "year") }
                return year
            }, sqlCheck: "year BETWEEN 1888 AND 2100"),
        ],
        indexes: [EntityIndex(\.director, \.year, sectionedBy: \.director)])

    /// The search of the declared searched attributes, which `FetchRequest.searchText` selects by;
    /// its structures are created with the table.
    static let searchDescription = declaration.searchDescription(indexesShortTerms: false)
}
// snippet.end

// snippet.table
// The table, its folded columns, UNIQUE, CHECK, the index, change tracking and search structures are
// generated from the declaration as migration 1; later changes are steps (`.addingAttribute(…)`, …).
let schema = EntitySchema(identity: "com.example.films", tables: [EntityTable(Film.self)])
try schema.migrate(queue)       // and checks the table against the declaration, every open
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
let path = directory.appendingPathComponent("films.csv").path
try Film.exportFile(path, from: queue)                   // id,title,director,year
let report = try Film.importFile(path, into: queue)      // by the unique title: 0 inserted, 3 updated
// Files of any declared entities in one transaction, with the records stored so far every 1,000:
let sources = [try EntitySource(path: path, of: Film.self)]
let seeded = try EntityFiles.importSources(sources, conflicts: .skip, progress: { print("\($0) records…") }, into: queue)
print(seeded[Film.self])                                 // 0 inserted, 0 updated, 3 skipped
// snippet.end

// snippet.hide
let titles = try controller.fetchedObjects.map(\.title)
let saved = try queue.read { db in try Film.fetchOne(id: solaris.id!, db) }
precondition(controller.sections.map(\.name) == ["A"] && titles == ["Solaris", "Stalker"] && saved?.year == 1973)
precondition(Film.declaration.recordLayout.fieldNames == ["id", "title", "director", "year"])
precondition(report == ImportReport(updated: 3) && seeded[Film.self] == ImportReport(skipped: 3))
try FileManager.default.removeItem(at: directory)
