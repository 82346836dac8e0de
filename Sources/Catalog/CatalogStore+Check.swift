import SQLiteStore
import TextSearch

extension CatalogStore {
    /// The most problems ``check()`` reports from `PRAGMA integrity_check`.
    static let integrityProblemLimit = 100

    /// Checks the whole database: `PRAGMA integrity_check` (every page), then, if the file is sound,
    /// each entity's FTS5 index against its table, and a recount of its folded texts and other search
    /// structures from the texts they are derived from (`SearchDescription.indexProblems(foldedFrom:_:)`).
    ///
    /// ```swift
    /// let problems = try store.check()   // [] when everything is sound
    /// ```
    ///
    /// The integrity check and the recount each read one snapshot; the FTS5 check is a command SQLite
    /// runs as a write, so it takes the write lock for its duration (it changes nothing).
    ///
    /// - Returns: one line per problem; empty when there is none.
    /// - Throws: `DatabaseError` when the file cannot be read at all.
    public func check() throws -> [String] {
        var integrity: [String] = []
        do {
            try database.read { db in integrity = try db.integrityProblems(limit: Self.integrityProblemLimit) }
        } catch let error as DatabaseError where ResultCode.SQLITE_CORRUPT ~= error.resultCode && !integrity.isEmpty {
            // Damage that stops the check after it reported problems also fails the read's COMMIT:
            // what it reported stands.
        }
        // Past damage to the file itself, what the indexes say cannot be trusted.
        guard integrity.isEmpty else { return integrity }
        var problems: [String] = []
        for entity in Entity.allCases {
            let table = entity.searchDescription.fullTextTable
            if let problem = try database.write({ db in try db.fullTextIndexProblem(table) }) { problems.append(problem) }
        }
        problems += try database.read { db in
            try Entity.allCases.flatMap { entity in
                let search = entity.searchDescription
                // A folded column is named after its source: `name_folded` holds `name` folded.
                let sources = search.textColumns.map { String($0.dropLast("_folded".count)) }
                return try search.indexProblems(foldedFrom: sources, db)
            }
        }
        return problems
    }
}
