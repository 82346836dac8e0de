import Entities
import FetchedResults
import Foundation
import SQLiteStore

/// A bookshelf: books in an SQLite file, which may hold other owners' tables too (a catalog's).
///
/// ```swift
/// let shelf = try Bookshelf(path: "books.sqlite")
/// let dune = try shelf.add(Book(title: "Dune", author: "Frank Herbert", year: 1965, tags: "sf"))
/// let byAuthor = try shelf.books(Bookshelf.byAuthor())   // sections A, B, …
/// ```
public final class Bookshelf: Sendable {
    /// The connection.
    public let queue: DatabaseQueue

    /// Opens the shelf at `path`, applying the bookshelf's pending migrations (and, with
    /// `alongside`, other owners' sets kept in the same file, such as the catalog's).
    ///
    /// - Throws: ``MigrationError`` when the file's bookshelf set is newer or changed;
    ///   `SchemaDifference` when the books table is not what ``Book``'s declaration says; ``DatabaseError``.
    public init(path: String, alongside otherSets: [MigrationSet] = []) throws {
        queue = try DatabaseQueue(path: path)
        try BookshelfMigrations.schema.migrate(queue, alongside: otherSets)
    }

    // MARK: - Writing

    /// Saves a new book and returns it with its id.
    ///
    /// - Throws: ``Book/Invalid`` for a bad field; ``DatabaseError`` (`SQLITE_CONSTRAINT_UNIQUE` for a
    ///   taken title).
    @discardableResult
    public func add(_ book: Book) throws -> Book {
        var saved = book
        try queue.write { db in try saved.insert(db) }
        return saved
    }

    /// Replaces a saved book's fields.
    ///
    /// - Throws: `EntityError.notFound` when no book has its id.
    public func update(_ book: Book) throws {
        try queue.write { db in try book.update(db) }
    }

    /// Deletes the book with this id and returns it.
    @discardableResult
    public func delete(id: Int64) throws -> Book {
        try queue.write { db in try Book.delete(id: id, db) }
    }

    /// Adds the books of a file (JSON, JSON lines, CSV or TSV, by its extension: `title`, `author`,
    /// `year`, `tags`) in one transaction, skipping titles already on the shelf.
    ///
    /// - Returns: how many were added and how many skipped.
    /// - Throws: `EntityFileError` naming the file, line, column and field of a bad book; nothing is
    ///   added then.
    @discardableResult
    public func seed(contentsOf path: String) throws -> ImportReport {
        try Book.seedFile(path, into: queue)
    }

    // MARK: - Reading

    /// Books by author, then title, in sections by the author's initial (folded: `É` under `E`),
    /// optionally only those published from `year` on.
    public static func byAuthor(publishedSince year: Int? = nil) -> FetchRequest<Book> {
        FetchRequest<Book>(
            predicate: year.map { year in #Predicate<Book> { $0.year >= year } },
            sortDescriptors: [SortDescriptor(\.author), SortDescriptor(\.title)],
            sectionKeyPath: \Book.author)
    }

    /// The books that match `text`, by title: every term found in the title, author or tags (ignoring
    /// case, diacritics and width, in any script, from one character on) or, for a number, the year.
    ///
    /// ```swift
    /// try shelf.books(matching: "村上 1987")   // Norwegian Wood
    /// ```
    public func books(matching text: String) throws -> [Book] {
        try books(FetchRequest<Book>(sortDescriptors: [SortDescriptor(\.title)], searchText: text)).fetchedObjects
    }

    /// The result of `request`, fetched.
    public func books(_ request: FetchRequest<Book>) throws -> FetchedResultsController<Book> {
        let controller = FetchedResultsController(request: request, reader: queue)
        try controller.performFetch()
        return controller
    }

    /// The result of `request`, tracking every commit to the file from any process: call
    /// `applyPendingChanges()` (or iterate `changeSets(from:)` of a `ChangeMonitor`) for change sets.
    /// It reads through the shelf's one connection: a file is opened once per process.
    public func trackedBooks(_ request: FetchRequest<Book>) throws -> FetchedResultsController<Book> {
        let controller = FetchedResultsController(request: request, reader: queue)
        try controller.startTracking()
        return controller
    }
}
