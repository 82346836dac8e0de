/// A structure derived from a table's rows and kept by `AFTER INSERT` triggers — a search index, the
/// ``ChangeLog``, ``SectionCounts`` — described so that a ``BulkInsert`` can build it in bulk instead.
///
/// ```swift
/// let titles = DerivedStructure(insertTriggers: ["films_titles_insert"]) { rowsAfter in
///     "INSERT INTO films_titles(title, id) SELECT title, id FROM films WHERE id > \(rowsAfter) ORDER BY title, id;"
/// }
/// ```
public struct DerivedStructure: Sendable {
    /// The triggers that add to the structure as rows are inserted: dropped while rows are inserted in
    /// bulk, created again after ``buildSQL`` ran.
    public var insertTriggers: [String]
    /// The SQL that adds to the structure what ``insertTriggers`` would have added for the rows whose
    /// rowid is above its argument (the rows inserted in bulk).
    public var buildSQL: @Sendable (_ rowsAfter: Int64) -> String

    /// Describes a derived structure by its insert triggers and its bulk build.
    ///
    /// - Parameters:
    ///   - insertTriggers: the names of the triggers, as `sqlite_master` lists them.
    ///   - buildSQL: the SQL for the rows whose rowid is above its argument.
    public init(insertTriggers: [String], buildSQL: @escaping @Sendable (_ rowsAfter: Int64) -> String) {
        self.insertTriggers = insertTriggers
        self.buildSQL = buildSQL
    }
}
