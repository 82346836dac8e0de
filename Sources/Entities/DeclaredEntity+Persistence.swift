import SQLiteStore

/// Writing and reading declared entities, in the caller's transaction: `db` is the connection a
/// `DatabaseQueue.write` or `read` closure receives.
extension DeclaredEntity {
    /// Validates the entity, saves it as a new row and sets its ``DeclaredEntity/id``.
    ///
    /// ```swift
    /// try queue.write { db in try film.insert(db) }
    /// ```
    ///
    /// - Throws: what a check throws for an invalid attribute; `DatabaseError` (such as
    ///   `SQLITE_CONSTRAINT_UNIQUE`) when the row cannot be written.
    public mutating func insert(_ db: Database) throws {
        let valid = try validated()
        try db.cachedStatement(sql: Self.declaration.insertSQL())
            .execute(arguments: StatementArguments(values: Self.declaration.storedValues(of: valid)))
        self = valid
        id = db.lastInsertedRowID
    }

    /// Validates the entity and saves it as a new row unless that would break a uniqueness constraint
    /// (another row has its unique name, say): how seeding twice adds nothing the second time.
    ///
    /// - Returns: whether it was saved; its ``DeclaredEntity/id`` is set then.
    /// - Throws: what a check throws; `DatabaseError` for any other failure.
    @discardableResult
    public mutating func insertUnlessConflicting(_ db: Database) throws -> Bool {
        let valid = try validated()
        try db.cachedStatement(sql: Self.declaration.insertSQL(skippingConflicts: true))
            .execute(arguments: StatementArguments(values: Self.declaration.storedValues(of: valid)))
        guard db.changesCount == 1 else { return false }
        self = valid
        id = db.lastInsertedRowID
        return true
    }

    /// Validates the entity and replaces the stored attributes of its row.
    ///
    /// - Throws: ``EntityError/notSaved(table:)`` without an id, ``EntityError/notFound(table:id:)`` when no
    ///   row has it; what a check throws; `DatabaseError`.
    public func update(_ db: Database) throws {
        guard let id else { throw EntityError.notSaved(table: Self.tableName) }
        let valid = try validated()
        try db.cachedStatement(sql: Self.declaration.updateSQL())
            .execute(arguments: StatementArguments(values: Self.declaration.storedValues(of: valid) + [.integer(id)]))
        guard db.changesCount == 1 else { throw EntityError.notFound(table: Self.tableName, id: id) }
    }

    /// Deletes the row with this id and returns the entity it held.
    ///
    /// - Throws: ``EntityError/notFound(table:id:)`` when there is none; `DatabaseError`.
    @discardableResult
    public static func delete(id: Int64, _ db: Database) throws -> Self {
        guard let entity = try fetchOne(id: id, db) else { throw EntityError.notFound(table: tableName, id: id) }
        try db.cachedStatement(sql: "DELETE FROM \(tableName) WHERE id = ?").execute(arguments: [id])
        return entity
    }

    /// The entity with this id, if any.
    public static func fetchOne(id: Int64, _ db: Database) throws -> Self? {
        try db.fetchOne(sql: "SELECT \(selection) FROM \(tableName) WHERE id = ?", arguments: [id]) { try Self(row: $0) }
    }

    /// Every entity, by id.
    public static func fetchAll(_ db: Database) throws -> [Self] {
        try db.fetchAll(sql: "SELECT \(selection) FROM \(tableName) ORDER BY id") { try Self(row: $0) }
    }

    /// The number of stored entities.
    public static func fetchCount(_ db: Database) throws -> Int {
        try db.scalar(Int.self, sql: "SELECT count(*) FROM \(tableName)") ?? 0
    }

    /// Whether no entity is stored: one row looked for, where ``fetchCount(_:)-(Database)`` counts them all.
    public static func isEmpty(_ db: Database) throws -> Bool {
        try db.scalar(Int.self, sql: "SELECT EXISTS (SELECT 1 FROM \(tableName))") == 0
    }
}

/// The same calls on any engine's connection (a `PostgreSQLCluster`'s, say): each statement returns
/// what SQLite's connection state tells (`RETURNING id`), and rows are read as SQLite's are
/// (`SQLConnection.fetchAll(sql:arguments:_:)`), so that an entity decodes alike on both. SQLite's
/// `Database` takes the overloads above, with their cached statements.
extension DeclaredEntity {
    /// Validates the entity, saves it as a new row and sets its ``DeclaredEntity/id``.
    public mutating func insert(_ db: some SQLConnection) throws {
        let valid = try validated()
        let ids = try db.fetchRows(sql: Self.declaration.insertSQL() + " RETURNING id", values: Self.declaration.storedValues(of: valid))
        self = valid
        id = Self.firstID(ids)
    }

    /// Validates the entity and saves it as a new row unless that would break a uniqueness constraint.
    ///
    /// - Returns: whether it was saved; its ``DeclaredEntity/id`` is set then.
    @discardableResult
    public mutating func insertUnlessConflicting(_ db: some SQLConnection) throws -> Bool {
        let valid = try validated()
        let ids = try db.fetchRows(
            sql: Self.declaration.insertSQL(skippingConflicts: true) + " RETURNING id", values: Self.declaration.storedValues(of: valid))
        guard let id = Self.firstID(ids) else { return false }
        self = valid
        self.id = id
        return true
    }

    /// Validates the entity and replaces the stored attributes of its row.
    ///
    /// - Throws: ``EntityError/notSaved(table:)``, ``EntityError/notFound(table:id:)``; what a check
    ///   throws; the engine's error.
    public func update(_ db: some SQLConnection) throws {
        guard let id else { throw EntityError.notSaved(table: Self.tableName) }
        let valid = try validated()
        let ids = try db.fetchRows(
            sql: Self.declaration.updateSQL() + " RETURNING id", values: Self.declaration.storedValues(of: valid) + [.integer(id)])
        guard ids.count == 1 else { throw EntityError.notFound(table: Self.tableName, id: id) }
    }

    /// Deletes the row with this id and returns the entity it held.
    @discardableResult
    public static func delete(id: Int64, _ db: some SQLConnection) throws -> Self {
        guard let entity = try fetchOne(id: id, db) else { throw EntityError.notFound(table: tableName, id: id) }
        try db.execute(sql: "DELETE FROM \(tableName) WHERE id = ?", values: [.integer(id)])
        return entity
    }

    /// The entity with this id, if any.
    public static func fetchOne(id: Int64, _ db: some SQLConnection) throws -> Self? {
        try db.fetchOne(sql: "SELECT \(selection) FROM \(tableName) WHERE id = ?", arguments: [id]) { try Self(row: $0) }
    }

    /// The entity with this id, if any, read in a writing transaction for a change made from its
    /// values: no other writer changes its row until the transaction ends (`SQLDialect.lockingReadSuffix`).
    public static func fetchOneForUpdate(id: Int64, _ db: some SQLConnection) throws -> Self? {
        try db.fetchOne(
            sql: "SELECT \(selection) FROM \(tableName) WHERE id = ?" + db.dialect.lockingReadSuffix, arguments: [id]
        ) { try Self(row: $0) }
    }

    /// Every entity, by id.
    public static func fetchAll(_ db: some SQLConnection) throws -> [Self] {
        try db.fetchAll(sql: "SELECT \(selection) FROM \(tableName) ORDER BY id") { try Self(row: $0) }
    }

    /// The number of stored entities.
    public static func fetchCount(_ db: some SQLConnection) throws -> Int {
        try db.scalar(Int.self, sql: "SELECT count(*) FROM \(tableName)") ?? 0
    }

    /// Whether no entity is stored.
    public static func isEmpty(_ db: some SQLConnection) throws -> Bool {
        try db.scalar(Int.self, sql: "SELECT CASE WHEN EXISTS (SELECT 1 FROM \(tableName)) THEN 1 ELSE 0 END") == 0
    }

    /// The id of the first row `RETURNING id` gave, if any.
    private static func firstID(_ rows: [[DatabaseValue]]) -> Int64? {
        guard case .integer(let id) = rows.first?.first else { return nil }
        return id
    }
}
