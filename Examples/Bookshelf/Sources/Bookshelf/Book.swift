import Entities
import Foundation
import SQLiteStore
import TextSearch

/// A book on the shelf: the example embedder's own entity.
public struct Book: Codable, Hashable, Sendable {
    /// The row id; nil until the book is saved.
    public var id: Int64?
    /// The title, unique on the shelf.
    public var title: String
    /// Who wrote it.
    public var author: String
    /// The year it was first published.
    public var year: Int
    /// Words the reader files it under, separated by spaces (`sf classic`).
    public var tags: String

    /// Creates a book.
    public init(id: Int64? = nil, title: String, author: String, year: Int, tags: String = "") {
        self.id = id
        self.title = title
        self.author = author
        self.year = year
        self.tags = tags
    }

    /// Why a book is refused.
    public struct Invalid: Error, Equatable, CustomStringConvertible {
        /// The field at fault.
        public var field: String
        /// An error for `field`.
        public init(field: String) { self.field = field }
        public var description: String { "invalid \(field)" }
    }
}

extension Book: DeclaredEntity {
    /// The book, declared once: everything the library does with books follows from this, its table
    /// included (``BookshelfMigrations``).
    public static let declaration = EntityDeclaration<Book>(
        table: "books", template: Book(title: "", author: "", year: 0), folding: TextFolding.fold,
        attributes: [
            .text(
                "title", \.title, folded: true, searched: true, sections: .initial, check: { try nonEmpty($0, "title") },
                unique: true),
            .text("author", \.author, folded: true, searched: true, sections: .initial, check: { try nonEmpty($0, "author") }),
            .value("year", \.year, searchedAsNumber: true, check: { year in
                guard (-3000...3000).contains(year) else { throw Invalid(field: "year") }
                return year
            }),
            .text("tags", \.tags, folded: true, searched: true),
        ],
        // Books by author, then title, in sections by the author's initial: `byAuthor()`'s order.
        indexes: [EntityIndex(\.author, \.title, sectionedBy: \.author)])

    private static func nonEmpty(_ text: String, _ field: String) throws -> String {
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !trimmed.isEmpty else { throw Invalid(field: field) }
        return trimmed
    }
}

extension Book: SearchableEntity {
    /// What a search of books looks in, derived from the declaration's searched attributes: the folded
    /// title, author and tags, and the year as a number; a `FetchRequest`'s `searchText` filters by it.
    /// Its index structures are created with the table (``BookshelfMigrations``).
    public static let searchDescription = declaration.searchDescription()
}
