import PostgreSQLSearch
import PostgreSQLStore
import SQLiteStore
import TextSearch

extension CatalogStore {
    /// The most problems ``check()`` reports from `PRAGMA integrity_check`.
    static let integrityProblemLimit = 100

    /// Checks the whole database: `PRAGMA integrity_check` (every page), then, if the file is sound,
    /// each entity's FTS5 index against its table, a recount of its folded texts and other search
    /// structures from the texts they are derived from (`SearchDescription.indexProblems(foldedFrom:_:)`),
    /// and a recount of the section counts (`SectionCounts.problems(_:)`). Damage that stops one of
    /// these (an index whose pages do not decode) is reported as that structure's problem.
    ///
    /// ```swift
    /// let problems = try store.check()   // [] when everything is sound
    /// ```
    ///
    /// The integrity check and the recount each read one snapshot; the FTS5 check is a command SQLite
    /// runs as a write, so it takes the write lock for its duration (it changes nothing).
    ///
    /// On a server, which checks its own pages and indexes (`pg_amcheck`), each entity's search
    /// structures (`PostgreSQLTextSearch.check(_:)`: its indexes and triggers there, its gram and
    /// substring counts recounted from the rows), then the recount of the section counts, in one read
    /// on the primary (`PostgreSQLCluster.readOnPrimary(_:)`), never on a replica.
    ///
    /// - Returns: one line per problem; empty when there is none.
    /// - Throws: `DatabaseError` when the file cannot be read at all, or cannot be written (the FTS5
    ///   check runs as a write); `PostgreSQLError` when the server cannot be read.
    public func check() throws -> [String] {
        guard let database = file else {
            let problems = { (db: any SQLConnection) in
                try EntityKind.allCases.flatMap { try PostgreSQLTextSearch($0.searchDescription).check(db) } + SectionCounts.problems(db)
            }
            // On the primary: a replica would cancel a read of every row that holds back its replay.
            if let cluster = writer as? PostgreSQLCluster { return try cluster.readOnPrimary(problems) }
            return try writer.read { db in try problems(db) }
        }
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
        for entity in EntityKind.allCases {
            let table = entity.searchDescription.fullTextTable
            problems += try Self.damageReported(as: table) {
                try database.write { db in try db.fullTextIndexProblem(table) }.map { [$0] } ?? []
            }
        }
        for entity in EntityKind.allCases {
            let search = entity.searchDescription
            problems += try Self.damageReported(as: search.table) {
                try database.read { db in
                    // A folded column is named after its source: `name_folded` holds `name` folded.
                    let sources = search.textColumns.map { String($0.dropLast("_folded".count)) }
                    return try search.indexProblems(foldedFrom: sources, db)
                }
            }
        }
        problems += try Self.damageReported(as: SectionCounts.tableName) { try database.read(SectionCounts.problems) }
        return problems
    }

    /// What `part` of the check finds; damage that stops it (`SQLITE_CORRUPT`, an index's pages that
    /// do not decode) is a problem of `structure`, not a failure of the check.
    private static func damageReported(as structure: String, _ part: () throws -> [String]) throws -> [String] {
        do {
            return try part()
        } catch let error as DatabaseError where ResultCode.SQLITE_CORRUPT ~= error.resultCode {
            return ["\(structure): \(error.message) (\(error.resultCode.name))"]
        }
    }
}
