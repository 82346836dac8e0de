// Mapping a type by hand: a Swift type, its table, and how each key path reads in SQL, written out.
import FetchedResults
import Foundation
import SQLiteStore

// snippet.hide
let directory = FileManager.default.temporaryDirectory.appendingPathComponent("mapping-a-type-by-hand-\(UUID().uuidString)")
try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
let queue = try DatabaseQueue(path: directory.appendingPathComponent("albums.sqlite").path)
// snippet.show

// snippet.table
let schema = MigrationSet(identity: "com.example.music", migrations: [
    Migration(version: 1, name: "create_album", sql: """
        CREATE TABLE album (
            id INTEGER PRIMARY KEY,
            title TEXT NOT NULL,
            title_folded TEXT NOT NULL,          -- lowercased, without diacritics: what sorts and searches
            year INTEGER NOT NULL
        ) STRICT;
        CREATE INDEX album_by_title ON album(title_folded, id);
        """),
])
_ = try queue.writeWithoutTransaction { db in try Migrator(sets: [schema]).migrate(db) }
// snippet.end

// snippet.entity
struct Album: FetchableEntity, Hashable {
    var id: Int64?
    var title: String
    var year: Int

    static let tableName = "album"
    /// The columns `init(row:)` reads, in this order.
    static let selection = "id, title, year"
    var rowID: Int64? { id }

    init(id: Int64? = nil, title: String, year: Int) {
        self.id = id
        self.title = title
        self.year = year
    }

    init(row: Row) throws {
        id = try row.decode(Int64.self, at: 0)
        title = try row.decode(String.self, at: 1)
        year = try row.decode(Int.self, at: 2)
    }

    /// The one place where key paths become SQL: what a predicate compares, what a sort descriptor
    /// orders by, what a section groups by.
    static func column(for keyPath: PartialKeyPath<Album>) -> EntityColumn? {
        switch keyPath {
        case \Album.id: EntityColumn("id")
        case \Album.title: EntityColumn("title", sortedBy: "title_folded", sectionedBy: "upper(substr(title_folded, 1, 1))")
        case \Album.year: EntityColumn("year", sectionedBy: "year / 10 * 10")
        default: nil
        }
    }

    /// Section names from section values: decades read "1990s".
    static func sectionName(for value: DatabaseValue, keyPath: PartialKeyPath<Album>) -> String {
        if keyPath == \Album.year, case .integer(let decade) = value { return "\(decade)s" }
        return value.description
    }

    /// The folded form stored in `title_folded` and compared by searches.
    static func fold(_ text: String) -> String {
        text.folding(options: [.caseInsensitive, .diacriticInsensitive, .widthInsensitive], locale: nil)
    }
}
// snippet.end

// snippet.filter
/// Albums whose folded title holds every word of a text: a filter a request ANDs with its predicate.
struct TitleWords: RowSource {
    typealias Entity = Album
    var text: String

    func condition(_ db: any SQLConnection) throws -> SQLFragment {
        let words = text.split(whereSeparator: \.isWhitespace).map { Album.fold(String($0)) }
        guard !words.isEmpty else { return .alwaysTrue }
        return SQLFragment(
            joining: words.map { SQLFragment(sql: "instr(title_folded, ?) > 0", arguments: [$0]) }, separator: " AND ")
    }
}
// snippet.end

// snippet.save
func insert(_ album: Album, _ db: Database) throws {
    try db.execute(
        sql: "INSERT INTO album(title, title_folded, year) VALUES (?, ?, ?)",
        arguments: [album.title, Album.fold(album.title), album.year])
}
try queue.write { db in
    for album in [Album(title: "Kind of Blue", year: 1959), Album(title: "Abbey Road", year: 1969), Album(title: "Remain in Light", year: 1980)] {
        try insert(album, db)
    }
}
// snippet.end

// snippet.fetch
var request = FetchRequest<Album>(
    predicate: #Predicate { $0.year >= 1960 },
    sortDescriptors: [SortDescriptor(\.year)],
    sectionKeyPath: \Album.year)
request.filter = TitleWords(text: "r")              // AND-ed with the predicate
let controller = FetchedResultsController(request: request, reader: queue)
try controller.performFetch()
print(controller.sections.map(\.name))              // ["1960s", "1980s"]
// snippet.end

// snippet.hide
precondition(controller.sections.map(\.name) == ["1960s", "1980s"])
try FileManager.default.removeItem(at: directory)
