/// A structure derived from a table's rows and kept by `AFTER INSERT` triggers — a search index, the
/// ``ChangeLog``, `SectionCounts` — described so that a ``BulkInsert`` can build it in bulk instead.
///
/// ```swift
/// let titles = DerivedStructure(insertTriggers: ["films_titles_insert"]) { rowsAfter in
///     "INSERT INTO films_titles(title, id) SELECT title, id FROM films WHERE id > \(rowsAfter) ORDER BY title, id;"
/// }
/// ```
public struct DerivedStructure: Sendable {
    /// The triggers that add to the structure as rows are inserted: dropped while rows are inserted in
    /// bulk, created again after ``build`` ran.
    public var insertTriggers: [String]
    /// Adds to the structure what ``insertTriggers`` would have added for the rows whose rowid is above
    /// its first argument (the rows inserted in bulk), through the connection of the bulk insert.
    public var build: @Sendable (_ rowsAfter: Int64, _ db: Database) throws -> Void

    /// Describes a derived structure by its insert triggers and the SQL of its bulk build.
    ///
    /// - Parameters:
    ///   - insertTriggers: the names of the triggers, as `sqlite_master` lists them.
    ///   - buildSQL: the SQL for the rows whose rowid is above its argument.
    public init(insertTriggers: [String], buildSQL: @escaping @Sendable (_ rowsAfter: Int64) -> String) {
        self.init(insertTriggers: insertTriggers) { rowsAfter, db in try db.execute(sql: buildSQL(rowsAfter)) }
    }

    /// Describes a derived structure by its insert triggers and a bulk build that may compute in Swift
    /// (``Database/createFunction(_:isDeterministic:_:)`` for an SQL function, or statements of its own).
    ///
    /// ```swift
    /// let words = DerivedStructure(insertTriggers: ["films_words_insert"]) { rowsAfter, db in
    ///     try db.createFunction("first_word") { (title: String) in String(title.split(separator: " ").first ?? "") }
    ///     try db.execute(sql: "INSERT INTO films_words(word, id) SELECT first_word(title), id FROM films WHERE id > \(rowsAfter)")
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - insertTriggers: the names of the triggers, as `sqlite_master` lists them.
    ///   - build: adds to the structure, through the given connection, for the rows whose rowid is
    ///     above its first argument.
    public init(insertTriggers: [String], build: @escaping @Sendable (_ rowsAfter: Int64, _ db: Database) throws -> Void) {
        self.insertTriggers = insertTriggers
        self.build = build
    }
}
