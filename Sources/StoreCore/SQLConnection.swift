/// The calls both engines' connections answer, for code written once for both (the ``Migrator``):
/// statements with `?` placeholders bound to `DatabaseValue`s, rows read back as `DatabaseValue`s
/// (which SQLiteStore's `Row` reads for either engine), transactions, and the names of tables and
/// columns.
///
/// ```swift
/// func noteCount(_ db: some SQLConnection) throws -> Int64 {
///     let rows = try db.fetchRows(sql: "SELECT count(*) FROM note WHERE text <> ?", values: [.text("")])
///     guard case .integer(let count) = rows.first?.first else { return 0 }
///     return count
/// }
/// ```
///
/// SQLiteStore's `Database` and PostgreSQLStore's `PostgreSQLConnection` conform. The SQL is written
/// as SQLite reads it, with what differs spelled by ``dialect`` (PostgreSQL's `$n` placeholders are
/// numbered from the `?`s by the connection). A connection is used by one thread at a time.
public protocol SQLConnection: AnyObject {
    /// How the engine spells what differs.
    var dialect: SQLDialect { get }

    /// Whether a transaction is open.
    var isInsideTransaction: Bool { get }

    /// Runs `sql`: without values, any number of statements; with values, one statement whose `?`
    /// placeholders they are bound to, in order.
    func execute(sql: String, values: [DatabaseValue]) throws

    /// Runs one statement whose `?` placeholders `values` are bound to, and calls `body` with the
    /// names of its columns and each row's values, in order. The arrays are valid only during the call
    /// (the engine may reuse them from row to row).
    func forEachRow(sql: String, values: [DatabaseValue], _ body: (_ columnNames: [String], _ row: [DatabaseValue]) throws -> Void) throws

    /// Runs `body` in a transaction: committed when it returns, rolled back when it throws. A
    /// `writing` one holds the engine's write lock from its start on SQLite (IMMEDIATE); a reading
    /// one sees one snapshot.
    func inTransaction<T>(writing: Bool, _ body: () throws -> T) throws -> T

    /// The names of the tables of the connection's schema (SQLite's own left out), sorted.
    func tableNames() throws -> [String]

    /// The names of the columns of `table`, in order; empty when there is no such table.
    func columnNames(ofTable table: String) throws -> [String]

    /// Adds the rows `nextRow` gives until it returns nil to `table`, each giving the values of
    /// `columns` in order, in the caller's transaction if any: the engine's bulk load. PostgreSQL's
    /// connection sends them with one `COPY … FROM STDIN`, which a throw of `nextRow` aborts (nothing
    /// of it is added); the default runs one `INSERT` a row. A throw of `nextRow` is thrown.
    ///
    /// - Returns: the number of rows added.
    @discardableResult
    func copy(into table: String, columns: [String], nextRow: () throws -> [DatabaseValue]?) throws -> Int
}

extension SQLConnection {
    /// The rows of one statement, each as its columns' values.
    public func fetchRows(sql: String, values: [DatabaseValue]) throws -> [[DatabaseValue]] {
        var rows: [[DatabaseValue]] = []
        try forEachRow(sql: sql, values: values) { _, row in rows.append(row) }
        return rows
    }

    /// Adds `rows` to `table`, each giving the values of `columns` in order: the engine's bulk load
    /// (``copy(into:columns:nextRow:)``).
    ///
    /// - Returns: the number of rows added.
    @discardableResult
    public func copy(into table: String, columns: [String], rows: some Sequence<[DatabaseValue]>) throws -> Int {
        var rows = rows.makeIterator()
        return try copy(into: table, columns: columns) { rows.next() }
    }

    /// One `INSERT` a row.
    @discardableResult
    public func copy(into table: String, columns: [String], nextRow: () throws -> [DatabaseValue]?) throws -> Int {
        let placeholders = Array(repeating: "?", count: columns.count).joined(separator: ", ")
        let sql = "INSERT INTO \(table)(\(columns.joined(separator: ", "))) VALUES (\(placeholders))"
        var count = 0
        while let row = try nextRow() {
            try execute(sql: sql, values: row)
            count += 1
        }
        return count
    }
}
