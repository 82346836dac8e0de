/// A durable, cross-process log of the rows inserted, updated and deleted in tracked tables.
///
/// The log is a table, `store_changes(seq, table_name, row_id, kind)`, filled by `AFTER INSERT`,
/// `AFTER UPDATE` and `AFTER DELETE` triggers on each tracked table. Because the triggers run inside
/// the writer's transaction, the log is exactly as durable as the data: a rollback, a failed statement
/// or a process killed mid-transaction leaves no entry, and every committed change has one, whichever
/// process or tool (even the `sqlite3` shell) wrote it. `seq` is `AUTOINCREMENT`, so positions only
/// grow and are never reused; several commits are read together with `WHERE seq > ?`.
///
/// Install the log and tracking from a migration, so that every process writing the file runs the
/// triggers:
///
/// ```swift
/// // In a migration (or paste the generated SQL into an NNNN_track_changes.sql file):
/// try ChangeLog.install(db)
/// try ChangeLog.installTracking(forTable: "products", db)
/// // Later, anywhere:
/// let changes = try ChangeLog.changes(after: lastSeenSequence, db)
/// ```
///
/// **Bounded size.** A trigger on the log itself prunes it as writers append: every 256th entry
/// deletes the entries older than the last `retention` (``defaultRetention`` by default), so the log
/// keeps between `retention` and `retention + 255` entries at an amortised cost of one sequential
/// delete per entry. ``prune(keepingLatest:_:)`` prunes on demand. Pruning records the highest
/// position it removed in `store_changes_horizon`; a reader whose last position is below it learns
/// that it fell behind (``DatabaseChanges/Gap/fellBehind``) instead of silently missing events.
///
/// **Limits.** Tracked tables must be rowid tables (not `WITHOUT ROWID`). An UPDATE that changes a
/// rowid is logged as a delete of the old rowid and an insert of the new one. Rows deleted by `REPLACE`
/// conflict resolution fire delete triggers only when the writing connection has
/// `PRAGMA recursive_triggers = ON` (SQLite's rule), so they are logged only then; the replacing row
/// is always logged. Dropping or altering tables is not a row event: readers learn of it from
/// `PRAGMA schema_version` (see ``ChangeMonitor``).
///
/// Related SQLite documentation: <https://www.sqlite.org/lang_createtrigger.html>,
/// <https://www.sqlite.org/autoinc.html>
public enum ChangeLog {
    /// The log table: `store_changes(seq INTEGER PRIMARY KEY AUTOINCREMENT, table_name, row_id, kind)`.
    public static let tableName = "store_changes"

    /// The one-row table holding the highest log position removed by pruning.
    public static let horizonTableName = "store_changes_horizon"

    /// The number of entries the automatic pruning keeps by default.
    public static let defaultRetention = 10_000

    /// The SQL that creates the log, its horizon and its pruning trigger, if they do not exist yet.
    ///
    /// - Parameter retention: the number of most recent entries writers keep (at least 1).
    public static func installationSQL(retaining retention: Int = defaultRetention) -> String {
        precondition(retention >= 1, "the change log must keep at least one entry")
        return """
            CREATE TABLE IF NOT EXISTS \(tableName) (
                seq INTEGER PRIMARY KEY AUTOINCREMENT,
                table_name TEXT NOT NULL,
                row_id INTEGER NOT NULL,
                kind INTEGER NOT NULL CHECK (kind IN (1, 2, 3))
            );
            CREATE TABLE IF NOT EXISTS \(horizonTableName) (
                id INTEGER PRIMARY KEY CHECK (id = 1),
                pruned_through INTEGER NOT NULL
            );
            INSERT OR IGNORE INTO \(horizonTableName)(id, pruned_through) VALUES (1, 0);
            CREATE TRIGGER IF NOT EXISTS \(pruningTrigger(retaining: retention));

            """
    }

    /// The name of the trigger that prunes the log.
    static let pruningTriggerName = "\(tableName)_prune"

    /// The pruning trigger's definition after `CREATE TRIGGER` (and `IF NOT EXISTS`).
    static func pruningTrigger(retaining retention: Int) -> String {
        """
        \(pruningTriggerName) AFTER INSERT ON \(tableName)
        WHEN new.seq % 256 = 0 AND new.seq > \(retention) BEGIN
            UPDATE \(horizonTableName) SET pruned_through = new.seq - \(retention)
                WHERE id = 1 AND pruned_through < new.seq - \(retention);
            DELETE FROM \(tableName) WHERE seq <= new.seq - \(retention);
        END
        """
    }

    /// The SQL of the three triggers that log every row event of `table`.
    ///
    /// ```swift
    /// print(ChangeLog.trackingSQL(forTable: "products"))  // for a migration file
    /// ```
    ///
    /// The log must exist before the triggers first fire (``installationSQL(retaining:)``).
    public static func trackingSQL(forTable table: String) -> String {
        let name = SQLText.literal(table)
        let log = "INSERT INTO \(tableName)(table_name, row_id, kind)"
        return """
            CREATE TRIGGER IF NOT EXISTS \(SQLText.identifier(insertTriggerName(forTable: table))) AFTER INSERT ON \(SQLText.identifier(table)) BEGIN
                \(log) VALUES (\(name), new.rowid, \(RowChange.Kind.insert.rawValue));
            END;
            CREATE TRIGGER IF NOT EXISTS \(SQLText.identifier("\(tableName)_\(table)_update")) AFTER UPDATE ON \(SQLText.identifier(table)) BEGIN
                \(log) SELECT \(name), old.rowid, \(RowChange.Kind.delete.rawValue) WHERE old.rowid IS NOT new.rowid;
                \(log) VALUES (\(name), new.rowid,
                    CASE WHEN old.rowid IS new.rowid THEN \(RowChange.Kind.update.rawValue) ELSE \(RowChange.Kind.insert.rawValue) END);
            END;
            CREATE TRIGGER IF NOT EXISTS \(SQLText.identifier("\(tableName)_\(table)_delete")) AFTER DELETE ON \(SQLText.identifier(table)) BEGIN
                \(log) VALUES (\(name), old.rowid, \(RowChange.Kind.delete.rawValue));
            END;

            """
    }

    /// Creates the log if needed (``installationSQL(retaining:)``).
    ///
    /// Run it in a migration's transaction, before ``installTracking(forTable:_:)``.
    ///
    /// - Throws: ``DatabaseError`` when the database cannot be written.
    public static func install(retaining retention: Int = defaultRetention, _ db: Database) throws {
        try db.execute(sql: installationSQL(retaining: retention))
    }

    /// Installs the log if needed and the triggers that log the row events of `table`.
    ///
    /// - Throws: ``DatabaseError`` with `SQLITE_ERROR` when `table` does not exist or is a
    ///   `WITHOUT ROWID` table, or when the database cannot be written.
    public static func installTracking(forTable table: String, _ db: Database) throws {
        // Fails for a missing table, and for a WITHOUT ROWID table, which has no rowid to log.
        try db.execute(sql: "SELECT rowid FROM \(SQLText.identifier(table)) LIMIT 0")
        try install(db)
        try db.execute(sql: trackingSQL(forTable: table))
    }

    /// Whether the log exists in the database.
    public static func isInstalled(_ db: Database) throws -> Bool {
        let count = try db.scalar(
            Int.self, sql: "SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name IN (?, ?)",
            arguments: [tableName, horizonTableName]) ?? 0
        return count == 2
    }
}
