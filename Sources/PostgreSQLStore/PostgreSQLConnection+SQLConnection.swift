import StoreCore

// PostgreSQL's connection as StoreCore's engine-neutral one: SQL written with `?` placeholders gets
// them numbered `$1`, `$2`… (SQLDialect.numberingPlaceholders).
extension PostgreSQLConnection: SQLConnection {
    public var dialect: SQLDialect { .postgreSQL }

    public func execute(sql: String, values: [DatabaseValue]) throws {
        try execute(sql: SQLDialect.postgreSQL.numberingPlaceholders(sql), arguments: values)
    }

    public func forEachRow(sql: String, values: [DatabaseValue], _ body: (_ columnNames: [String], _ row: [DatabaseValue]) throws -> Void) throws {
        try forEachRow(sql: SQLDialect.postgreSQL.numberingPlaceholders(sql), arguments: values, body)
    }

    /// A writing transaction runs at READ COMMITTED; a reading one at REPEATABLE READ, READ ONLY.
    public func inTransaction<T>(writing: Bool, _ body: () throws -> T) throws -> T {
        try inTransaction(readOnly: !writing, body)
    }

    /// The tables of the first schema of the connection's `search_path`.
    public func tableNames() throws -> [String] {
        try fetchAll(
            sql: "SELECT tablename::text FROM pg_tables WHERE schemaname = current_schema() ORDER BY tablename COLLATE \"C\""
        ) { row in
            guard case .text(let name) = row[0] else { return "" }
            return name
        }
    }

    public func columnNames(ofTable table: String) throws -> [String] {
        try fetchAll(
            sql: """
                SELECT column_name::text FROM information_schema.columns
                WHERE table_schema = current_schema() AND table_name = $1 ORDER BY ordinal_position
                """,
            arguments: [.text(table)]
        ) { row in
            guard case .text(let name) = row[0] else { return "" }
            return name
        }
    }
}
