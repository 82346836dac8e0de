import SQLiteStore

/// A bulk load into an empty PostgreSQL table builds each index once from every row, after the
/// `COPY`, rather than inserting each row into each index as it arrives: 2-10× less time per index
/// (W1b on PostgreSQL), and the B-tree indexes built by parallel workers where the server allows
/// them (`max_parallel_maintenance_workers`).
///
/// The indexes are built one after another in the load's own transaction, on its connection: no
/// other connection sees rows before they commit, so building them at once on several would mean
/// committing the rows first, into a table of their own swapped in at the end (its triggers,
/// identity, foreign keys and grants moved with it), and a failure half-way would leave committed
/// rows to clean up. In one transaction, a failure leaves the table as it was, and no reader ever
/// sees it half-loaded.
enum PostgreSQLBulkLoad {
    /// Runs `load` with the indexes of `table` dropped, then creates them again as they were: every
    /// index but those of the primary key and unique constraints that another table's foreign key
    /// references, which stay. `load` may build them itself once its rows are in, by calling its
    /// argument (to do other work meanwhile); else they are built after it. In the caller's
    /// transaction: a failure leaves the table as it was. A unique constraint a loaded row breaks
    /// fails when it is made again, naming the values.
    static func withIndexesBuiltAfter(
        table: String, _ db: some SQLConnection, _ load: (_ buildIndexes: () throws -> Void) throws -> Void
    ) throws {
        let rebuilt = try db.fetchRows(sql: indexesSQL, values: [.text(table), .text(table)]).map { row -> (drop: String, create: String) in
            guard case .text(let drop) = row[0], case .text(let create) = row[1] else { preconditionFailure("pg_catalog gave no definition") }
            return (drop, create)
        }
        for index in rebuilt { try db.execute(sql: index.drop, values: []) }
        var built = false
        func build() throws {
            guard !built else { return }
            built = true
            for index in rebuilt { try db.execute(sql: index.create, values: []) }
        }
        try load(build)
        try build()
    }

    /// The statements that drop and create again each index of the table named by both `?`: the
    /// constraints first (made again first, so that the primary key precedes other indexes).
    private static let indexesSQL = """
        SELECT format('ALTER TABLE %s DROP CONSTRAINT %I', c.conrelid::regclass, c.conname),
            format('ALTER TABLE %s ADD CONSTRAINT %I %s', c.conrelid::regclass, c.conname, pg_get_constraintdef(c.oid)), 1
        FROM pg_constraint AS c
        WHERE c.conrelid = to_regclass(?) AND c.contype IN ('p', 'u')
            AND NOT EXISTS (SELECT FROM pg_constraint AS f WHERE f.contype = 'f' AND f.conindid = c.conindid)
        UNION ALL
        SELECT format('DROP INDEX %s', i.indexrelid::regclass), pg_get_indexdef(i.indexrelid), 2
        FROM pg_index AS i
        WHERE i.indrelid = to_regclass(?) AND NOT EXISTS (SELECT FROM pg_constraint AS c WHERE c.conindid = i.indexrelid)
        ORDER BY 3
        """
}
