import Bookshelf
import Catalog
import Entities
import FetchedResults
import Foundation
import SQLiteStore
import Testing

/// A fresh folder for one test's databases, removed afterwards.
final class Folder: Sendable {
    let url: URL
    init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("bookshelf-tests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }
    deinit { try? FileManager.default.removeItem(at: url) }
    func path(_ name: String = "books.sqlite") -> String { url.appendingPathComponent(name).path }
}

struct BookshelfTests {
    let folder: Folder
    init() throws { folder = try Folder() }

    static var seedFile: String { Bundle.module.url(forResource: "books", withExtension: "json")!.path }

    static func sets(_ db: Database) throws -> [String] {
        try db.fetchAll(sql: "SELECT DISTINCT migration_set FROM schema_migrations ORDER BY 1") { try $0.decode(String.self, at: 0) }
    }

    // MARK: - Migrations

    @Test func itsMigrationsAloneInAFile() throws {
        let shelf = try Bookshelf(path: folder.path())
        #expect(try shelf.queue.read { db in try Self.sets(db) } == [BookshelfMigrations.identity])
        #expect(try shelf.queue.read { db in try Book.fetchCount(db) } == 0)
        // Reopening applies nothing and refuses nothing.
        _ = try Bookshelf(path: folder.path())
    }

    @Test func itsMigrationsBesideTheCatalogsInOneFile() throws {
        let path = folder.path("shared.sqlite")
        let catalog = try CatalogStore(path: path, migrationSets: [BookshelfMigrations.set])
        try catalog.insert(Product(type: .device, name: "iPod", yearIntroduced: 2001, introPrice: 399))
        let shelf = try Bookshelf(path: path, alongside: [CatalogMigrations.set])
        try shelf.add(Book(title: "Dune", author: "Frank Herbert", year: 1965))
        #expect(try shelf.queue.read { db in try Self.sets(db) } == [CatalogMigrations.identity, BookshelfMigrations.identity].sorted())
        // Each owner opens the shared file knowing only its own set, and finds its rows.
        #expect(try Bookshelf(path: path).queue.read { db in try Book.fetchAll(db).map(\.title) } == ["Dune"])
        #expect(try CatalogStore(path: path).fetchAll(Product.self).map(\.name) == ["iPod"])
    }

    // MARK: - Writing

    @Test func insertUpdateDelete() throws {
        let shelf = try Bookshelf(path: folder.path())
        var dune = try shelf.add(Book(title: "  Dune ", author: "Frank Herbert", year: 1965, tags: "sf"))
        #expect(dune.id == 1 && dune.title == "Dune")
        dune.year = 1966
        try shelf.update(dune)
        #expect(try shelf.queue.read { db in try Book.fetchOne(id: 1, db) } == dune)
        #expect(try shelf.delete(id: 1) == dune)
        #expect(throws: EntityError.notFound(table: "books", id: 1)) { try shelf.delete(id: 1) }
    }

    @Test func refusedBooksWriteNothing() throws {
        let shelf = try Bookshelf(path: folder.path())
        try shelf.add(Book(title: "Dune", author: "Frank Herbert", year: 1965))
        #expect(throws: Book.Invalid(field: "author")) { try shelf.add(Book(title: "Untitled", author: " ", year: 2000)) }
        #expect(throws: Book.Invalid(field: "year")) { try shelf.add(Book(title: "Future", author: "X", year: 9999)) }
        #expect(throws: DatabaseError.self) { try shelf.add(Book(title: "Dune", author: "Someone Else", year: 2000)) }
        #expect(try shelf.queue.read { db in try Book.fetchAll(db).map(\.title) } == ["Dune"])
    }

    @Test func seedingFromAJSONFileAddsEachTitleOnce() throws {
        let shelf = try Bookshelf(path: folder.path())
        #expect(try shelf.seed(contentsOf: Self.seedFile) == ImportReport(inserted: 7))
        #expect(try shelf.seed(contentsOf: Self.seedFile) == ImportReport(skipped: 7))
        #expect(try shelf.queue.read { db in try Book.fetchCount(db) } == 7)
    }

    // MARK: - Fetching

    @Test func aPredicateSortAndSectionsByAuthorInitial() throws {
        let shelf = try Bookshelf(path: folder.path())
        try shelf.seed(contentsOf: Self.seedFile)
        let controller = try shelf.books(Bookshelf.byAuthor(publishedSince: 1900))
        // Folded initials of the authors, in folded order; Rousseau's Émile (1762) is filtered out.
        #expect(controller.sections.map(\.name) == ["A", "F", "J", "S", "U", "夏"])
        #expect(try controller.fetchedObjects.map(\.author) == [
            "Albert Camus", "Frank Herbert", "Jorge Luis Borges", "Stanisław Lem", "Ursula K. Le Guin", "夏目漱石",
        ])
        let all = try shelf.books(Bookshelf.byAuthor())
        #expect(all.sections.map(\.numberOfObjects) == [1, 1, 2, 1, 1, 1])
        #expect(try all.object(at: ItemPath(section: 2, row: 0)).title == "Émile")
    }

    // MARK: - Live changes

    @Test func aTrackingControllerReceivesChangeSetsFromAnotherProcess() throws {
        let shelf = try Bookshelf(path: folder.path())
        try shelf.seed(contentsOf: Self.seedFile)
        let request = Bookshelf.byAuthor()
        let controller = try shelf.trackedBooks(request)
        let before = try #require(controller.trackedSnapshot)

        let writer = Process()
        writer.executableURL = Self.productsDirectory.appendingPathComponent("bookshelf-writer")
        writer.arguments = [folder.path(), "add", "Neuromancer", "William Gibson", "1984", "retitle", "1", "Dune Messiah", "delete", "6"]
        try writer.run()
        writer.waitUntilExit()
        #expect(writer.terminationStatus == 0)

        let changeSet = try controller.applyPendingChanges()
        let fresh = try shelf.books(request).snapshot()
        #expect(try before.applying(changeSet) == fresh)
        #expect(controller.trackedSnapshot == fresh)
        #expect(Set(changeSet.changes.map(\.id)) == [8, 1, 6])
        #expect(controller.sections.map(\.name) == ["A", "F", "J", "S", "U", "W", "夏"])
        #expect(controller.trackingStatistics?.incrementalUpdates == 1)
    }

    /// The folder of the built products, found from the test runner's path.
    static var productsDirectory: URL {
        var url = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
        while url.pathComponents.count > 1 {
            url.deleteLastPathComponent()
            if FileManager.default.fileExists(atPath: url.appendingPathComponent("bookshelf-writer").path) { return url }
        }
        return URL(fileURLWithPath: FileManager.default.currentDirectoryPath).appendingPathComponent(".build/debug")
    }
}
