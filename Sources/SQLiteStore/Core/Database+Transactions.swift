/// How a transaction takes its locks.
///
/// Related SQLite documentation: <https://www.sqlite.org/lang_transaction.html>
public enum TransactionKind: String, Sendable {
    /// Locks are taken when first needed: a read snapshot at the first read, the write lock at the
    /// first write (which can then fail with `SQLITE_BUSY` without waiting).
    case deferred = "DEFERRED"
    /// Takes the write lock at once, waiting up to the busy timeout for it. Use it for every write.
    case immediate = "IMMEDIATE"
    /// Like immediate; in WAL mode the same.
    case exclusive = "EXCLUSIVE"
}

extension Database {
    /// Runs `body` in a transaction: commits when it returns, rolls back when it throws.
    ///
    /// ```swift
    /// try db.inTransaction(.immediate) {
    ///     try db.execute(sql: "INSERT INTO t(name) VALUES (?)", arguments: ["a"])
    ///     try db.execute(sql: "INSERT INTO t(name) VALUES (?)", arguments: ["b"])
    /// }
    /// ```
    ///
    /// Inside a transaction already, `body` runs in a savepoint instead, so that its failure undoes
    /// only its own work.
    ///
    /// - Throws: what `body` throws (after rolling back), or ``DatabaseError`` when BEGIN or COMMIT fails.
    public func inTransaction<T>(_ kind: TransactionKind = .deferred, _ body: () throws -> T) throws -> T {
        if isInsideTransaction { return try inSavepoint(body) }
        try execute(sql: "BEGIN \(kind.rawValue) TRANSACTION")
        let result: T
        do {
            result = try body()
        } catch {
            rollbackIgnoringErrors()
            throw error
        }
        do {
            try execute(sql: "COMMIT TRANSACTION")
        } catch {
            // A failed COMMIT (SQLITE_BUSY, SQLITE_FULL…) may leave the transaction open: end it.
            rollbackIgnoringErrors()
            throw error
        }
        return result
    }

    /// Runs `body` in a savepoint: released when it returns, rolled back to (undoing only `body`'s work)
    /// when it throws. Savepoints nest.
    ///
    /// Related SQLite documentation: <https://www.sqlite.org/lang_savepoint.html>
    public func inSavepoint<T>(_ body: () throws -> T) throws -> T {
        savepointDepth += 1
        defer { savepointDepth -= 1 }
        let name = "store_savepoint_\(savepointDepth)"
        try execute(sql: "SAVEPOINT \(name)")
        let result: T
        do {
            result = try body()
        } catch {
            try? execute(sql: "ROLLBACK TO SAVEPOINT \(name)")
            try? execute(sql: "RELEASE SAVEPOINT \(name)")
            throw error
        }
        try execute(sql: "RELEASE SAVEPOINT \(name)")
        return result
    }

    private func rollbackIgnoringErrors() {
        if isInsideTransaction { try? execute(sql: "ROLLBACK TRANSACTION") }
    }
}
