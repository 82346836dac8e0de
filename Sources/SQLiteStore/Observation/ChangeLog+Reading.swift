// MARK: - Reading and pruning the log

extension ChangeLog {
    /// The position of the last entry ever logged, or 0 when nothing was logged.
    ///
    /// Read it in the same transaction as a snapshot of the data: the snapshot then includes every
    /// event up to this position, and ``changes(after:limit:_:)`` with it gives what follows.
    ///
    /// - Throws: ``DatabaseError`` when the log is not installed.
    public static func currentSequence(_ db: Database) throws -> Int64 {
        // sqlite_sequence keeps the highest seq ever used, even when pruning emptied the log.
        let logged = try db.scalar(Int64.self, sql: "SELECT max(seq) FROM \(tableName)") ?? 0
        let used = try db.scalar(Int64.self, sql: "SELECT seq FROM sqlite_sequence WHERE name = ?", arguments: [tableName]) ?? 0
        return max(logged, used)
    }

    /// The highest position removed by pruning: a reader that saw only up to a lower one missed events.
    public static func prunedThrough(_ db: Database) throws -> Int64 {
        try db.scalar(Int64.self, sql: "SELECT pruned_through FROM \(horizonTableName) WHERE id = 1") ?? 0
    }

    /// The events logged after `sequence`, read in one transaction.
    ///
    /// The result is incomplete (``DatabaseChanges/Gap/fellBehind``) when pruning removed events after
    /// `sequence`, or when there are more than `limit` of them; its ``DatabaseChanges/changes`` is then
    /// empty and ``DatabaseChanges/toSequence`` is the log's current position.
    ///
    /// - Complexity: O(log n + k) for k new events: `seq` is the table's rowid.
    /// - Throws: ``DatabaseError`` when the log is not installed or cannot be read.
    public static func changes(after sequence: Int64, limit: Int = 100_000, _ db: Database) throws -> DatabaseChanges {
        try db.inTransaction(.deferred) {
            let current = try currentSequence(db)
            if try prunedThrough(db) > sequence {
                return DatabaseChanges(fromSequence: sequence, toSequence: max(current, sequence), changes: [], gap: .fellBehind)
            }
            let changes = try db.fetchAll(
                sql: "SELECT seq, table_name, row_id, kind FROM \(tableName) WHERE seq > ? ORDER BY seq LIMIT ?",
                arguments: [sequence, limit + 1]
            ) { row in
                RowChange(
                    sequence: try row.decode(Int64.self, at: 0), table: try row.decode(String.self, at: 1),
                    rowID: try row.decode(Int64.self, at: 2),
                    kind: RowChange.Kind(rawValue: try row.decode(Int.self, at: 3)) ?? .update)
            }
            if changes.count > limit {
                return DatabaseChanges(fromSequence: sequence, toSequence: current, changes: [], gap: .fellBehind)
            }
            return DatabaseChanges(fromSequence: sequence, toSequence: max(sequence, changes.last?.sequence ?? sequence), changes: changes)
        }
    }

    /// Deletes all but the `count` most recent entries and moves the horizon past them.
    ///
    /// Writers prune automatically; call this to shrink the log further, e.g. after a bulk import.
    ///
    /// - Returns: the number of entries deleted.
    /// - Throws: ``DatabaseError`` when the log is not installed or the database cannot be written.
    @discardableResult
    public static func prune(keepingLatest count: Int, _ db: Database) throws -> Int {
        precondition(count >= 0, "cannot keep a negative number of entries")
        return try db.inTransaction(.immediate) {
            let through = try currentSequence(db) - Int64(count)
            guard through > 0 else { return 0 }
            try db.execute(
                sql: "UPDATE \(horizonTableName) SET pruned_through = ? WHERE id = 1 AND pruned_through < ?",
                arguments: [through, through])
            try db.execute(sql: "DELETE FROM \(tableName) WHERE seq <= ?", arguments: [through])
            return db.changesCount
        }
    }
}
