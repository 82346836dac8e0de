// SQLite's connection as StoreCore's engine-neutral one: what the Migrator (and other code written
// for both engines) runs on.
extension Database: SQLConnection {
    public var dialect: SQLDialect { .sqlite }

    public func execute(sql: String, values: [DatabaseValue]) throws {
        try execute(sql: sql, arguments: StatementArguments(values: values))
    }

    public func forEachRow(sql: String, values: [DatabaseValue], _ body: (_ columnNames: [String], _ row: [DatabaseValue]) throws -> Void) throws {
        let statement = try cachedStatement(sql: sql)
        let columnNames = statement.columnNames
        var rowValues: [DatabaseValue] = []
        try statement.forEachRow(arguments: StatementArguments(values: values)) { row in
            rowValues.removeAll(keepingCapacity: true)
            for index in 0..<row.count { rowValues.append(row.databaseValue(at: index)) }
            try body(columnNames, rowValues)
        }
    }

    /// A writing transaction is IMMEDIATE (it takes the write lock at once); a reading one DEFERRED.
    public func inTransaction<T>(writing: Bool, _ body: () throws -> T) throws -> T {
        try inTransaction(writing ? .immediate : .deferred, body)
    }

    public func tableNames() throws -> [String] {
        try fetchAll(
            sql: "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\' ORDER BY name"
        ) { try $0.decode(String.self, at: 0) }
    }

    public func columnNames(ofTable table: String) throws -> [String] {
        try fetchAll(sql: "SELECT name FROM pragma_table_info(?)", arguments: [table]) { try $0.decode(String.self, at: 0) }
    }
}

extension Migration {
    /// Creates a Swift migration for SQLite: `apply` runs with the migration's `Database`, inside its
    /// transaction. Run on another engine, it throws `SQLITE_MISUSE` (write one for both with
    /// `init(version:name:revision:applyOnAnyEngine:)`).
    ///
    /// - Parameters:
    ///   - version: the version within its set.
    ///   - name: a description, as a file's name would give it.
    ///   - revision: what the checksum is computed from, in place of the code: an applied migration
    ///     whose revision changed is refused like a changed SQL file.
    ///   - apply: the step, run with the migration's `Database` inside its transaction.
    public init(version: Int, name: String, revision: String, apply: @escaping @Sendable (Database) throws -> Void) {
        self.init(version: version, name: name, revisionChecksum: Self.checksum(ofRevision: revision), apply: apply)
    }

    /// Creates a Swift migration for SQLite from the checksum of its revision, computed before: the
    /// migration that `init(version:name:revision:apply:)` would make with that revision, without
    /// building the revision in every process that opens a database.
    ///
    /// ```swift
    /// // Migration.checksum(ofRevision: Book.searchDescription.installSQL), checked by a test:
    /// let search = Migration(version: 3, name: "search_books", revisionChecksum: "0f1e2d3c4b5a6978") { db in
    ///     try db.execute(sql: Book.searchDescription.installSQL)
    /// }
    /// ```
    public init(
        version: Int, name: String, revisionChecksum: String, apply: @escaping @Sendable (Database) throws -> Void
    ) {
        self.init(version: version, name: name, revisionChecksum: revisionChecksum, applyOnAnyEngine: { connection in
            guard let db = connection as? Database else {
                throw DatabaseError(resultCode: .SQLITE_MISUSE, message: "migration \(version) (\(name)) runs on SQLite only")
            }
            try apply(db)
        })
    }
}
