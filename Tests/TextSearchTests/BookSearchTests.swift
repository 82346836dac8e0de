import SQLiteStore
import TestSupport
import Testing
import TextSearch

/// An embedder's entity, defined only here: books, searched on title and author, with the index
/// structures installed from ``SearchDescription/installSQL``. Searches against the brute-force
/// reference (folding by ``FoldingReference``), through inserts, updates and deletes.
struct BookSearchTests {
    static let seed: UInt64 = 0xB00C

    struct Book: Equatable {
        var id: Int64
        var title: String
        var author: String
    }

    static func description(suffixLength: Int?) -> SearchDescription {
        SearchDescription(
            table: "books", textColumns: ["title_folded", "author_folded"], numberColumns: ["year"],
            suffixLength: suffixLength.map(SuffixLength.init))
    }

    static let createTable = """
        CREATE TABLE books (
            id INTEGER PRIMARY KEY, title TEXT NOT NULL, title_folded TEXT NOT NULL,
            author TEXT NOT NULL, author_folded TEXT NOT NULL, year INTEGER NOT NULL
        ) STRICT;
        """

    /// Random books, random searches, random changes: the executor's pages, counts and conditions
    /// equal the reference's, for suffix lengths 3 (terms longer than it are checked on rows) and 8,
    /// and without a suffix index.
    @Test(arguments: [3, 8, nil] as [Int?])
    func searchesEqualTheReference(suffixLength: Int?) throws {
        let directory = try TemporaryDirectory()
        let queue = try DatabaseQueue(path: directory.path())
        let books = Self.description(suffixLength: suffixLength)
        try queue.write { db in try db.execute(sql: Self.createTable + books.installSQL) }
        var random = SplitMix64(seed: Self.seed)
        var rows: [Int64: (book: Book, year: Int)] = [:]
        var nextID: Int64 = 1
        var failures = 0
        for round in 0..<25 where failures == 0 {
            try queue.write { db in
                for _ in 0..<12 {
                    switch random.next() % 5 {
                    case 0 where !rows.isEmpty:
                        let id = rows.keys.sorted()[Int(random.next() % UInt64(rows.count))]
                        try db.execute(sql: "DELETE FROM books WHERE id = ?", arguments: [id])
                        rows[id] = nil
                    case 1 where !rows.isEmpty:
                        let id = rows.keys.sorted()[Int(random.next() % UInt64(rows.count))]
                        let title = RandomTexts.text(&random)
                        try db.execute(
                            sql: "UPDATE books SET title = ?, title_folded = ? WHERE id = ?",
                            arguments: [title, TextFolding.fold(title), id])
                        rows[id]!.book.title = title
                    default:
                        let book = Book(id: nextID, title: RandomTexts.text(&random), author: RandomTexts.text(maxPieces: 2, &random))
                        let year = 1990 + Int(random.next() % 4)
                        try db.execute(
                            sql: "INSERT INTO books VALUES (?, ?, ?, ?, ?, ?)",
                            arguments: [book.id, book.title, TextFolding.fold(book.title), book.author, TextFolding.fold(book.author), year])
                        rows[book.id] = (book, year)
                        nextID += 1
                    }
                }
            }
            let queries = (0..<20).map { index in
                index % 4 == 0 ? String(1990 + Int(random.next() % 4)) : RandomTexts.text(maxPieces: 2, &random)
                    + (random.next() % 3 == 0 ? " " + RandomTexts.text(maxPieces: 1, &random) : "")
            }
            try FoldingReference.prepare(rows.values.flatMap { [$0.book.title, $0.book.author] } + queries.flatMap { SearchQuery($0).terms.map(\.text) })
            for text in queries where failures == 0 {
                let query = SearchQuery(text)
                let expected = rows.values.filter { row in
                    query.terms.allSatisfy { term in
                        let folded = Array(FoldingReference.folded(term.text).utf8)
                        return [row.book.title, row.book.author].contains { Self.contains(Array(FoldingReference.folded($0).utf8), folded) }
                            || term.number == Double(row.year)
                    }
                }.map(\.book.id).sorted()
                let context = "seed \(Self.seed) suffix length \(String(describing: suffixLength)) round \(round): \(String(reflecting: text))"
                let (page, count, viaCondition) = try queue.read { db in
                    let page = try books.page(
                        query, order: SearchOrder(sql: "books.id"), limit: 1_000, selection: "books.id", db) { try $0.decode(Int64.self, at: 0) }
                    let condition = try books.condition(for: query, alias: "b", db)
                    let ids = try db.fetchAll(
                        sql: "SELECT b.id FROM books b WHERE \(condition.sql) ORDER BY b.id", arguments: condition.arguments
                    ) { try $0.decode(Int64.self, at: 0) }
                    return (page, try books.count(query, db), ids)
                }
                if page.records != expected || page.totalCount != expected.count || count != expected.count || viaCondition != expected {
                    failures += 1
                    Issue.record("expected \(expected); page \(page.records) total \(page.totalCount), count \(count), condition \(viaCondition) — \(context)")
                }
            }
        }
    }

    /// Building the structures in bulk from rows already there (``SearchDescription/buildSQL``) gives
    /// what the triggers give when the same rows arrive one by one.
    @Test func bulkBuildEqualsTheTriggers() throws {
        let directory = try TemporaryDirectory()
        let books = Self.description(suffixLength: 5)
        var random = SplitMix64(seed: Self.seed)
        let inserts = (1...300).map { id in
            let (title, author) = (RandomTexts.text(&random), RandomTexts.text(maxPieces: 2, &random))
            return SQLFragment(
                sql: "INSERT INTO books VALUES (?, ?, ?, ?, ?, ?);",
                arguments: [id, title, TextFolding.fold(title), author, TextFolding.fold(author), 2000])
        }
        func contents(_ db: Database) throws -> [String] {
            try db.fetchAll(sql: "SELECT suffix || ' ' || id FROM books_suffixes ORDER BY 1") { try $0.decode(String.self, at: 0) }
                + db.fetchAll(sql: "SELECT gram || ' ' || count FROM books_gram_counts WHERE count > 0 ORDER BY 1") { try $0.decode(String.self, at: 0) }
                + db.fetchAll(sql: "SELECT rowid FROM books_search WHERE books_search MATCH 'ﾃﾞ' OR books_search MATCH 'デジタ' ORDER BY 1") {
                    String(try $0.decode(Int64.self, at: 0))
                }
        }
        let byTriggers = try DatabaseQueue(path: directory.path("triggers.sqlite"))
        let inBulk = try DatabaseQueue(path: directory.path("bulk.sqlite"))
        let viaTriggers = try byTriggers.write { db in
            try db.execute(sql: Self.createTable + books.installSQL)
            for insert in inserts { try db.execute(sql: insert.sql, arguments: insert.arguments) }
            return try contents(db)
        }
        let viaBulk = try inBulk.write { db in
            try db.execute(sql: Self.createTable)
            for insert in inserts { try db.execute(sql: insert.sql, arguments: insert.arguments) }
            try db.execute(sql: books.installSQL)
            return try contents(db)
        }
        #expect(viaTriggers.count > 1_000)
        #expect(viaTriggers == viaBulk)
        // And uninstalling leaves only the table.
        let left = try inBulk.write { db in
            try db.execute(sql: books.uninstallSQL)
            return try db.fetchAll(sql: "SELECT name FROM sqlite_master WHERE name LIKE 'books%' ORDER BY name") { try $0.decode(String.self, at: 0) }
        }
        #expect(left == ["books"])
    }

    static func contains(_ haystack: [UInt8], _ needle: [UInt8]) -> Bool {
        if needle.isEmpty { return true }
        guard needle.count <= haystack.count else { return false }
        return (0...(haystack.count - needle.count)).contains { haystack[$0..<($0 + needle.count)].elementsEqual(needle) }
    }
}
