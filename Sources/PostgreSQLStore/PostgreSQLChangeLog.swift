import StoreCore

/// A log of the rows inserted, updated and deleted in tracked tables, kept by triggers on the
/// primary, that readers on any machine follow from a position, woken by `NOTIFY` on commit.
///
/// ```swift
/// try db.execute(sql: PostgreSQLChangeLog.installationSQL)               // in a migration
/// try db.execute(sql: PostgreSQLChangeLog.trackingSQL(forTable: "note"))
/// var position = try PostgreSQLChangeLog.currentPosition(db)
/// // Later, on any connection (a replica's too), after a notification:
/// let (changes, next) = try PostgreSQLChangeLog.changes(after: position, db)
/// position = next
/// ```
///
/// **Positions are snapshots, not sequence numbers.** Writers take log sequence numbers when they
/// write, but commit in any order: reading `WHERE seq > last` misses a change whose writer took a
/// lower number and committed after the reader last read (it is not yet visible then, and below
/// `last` afterwards). A position here is a transaction snapshot (`pg_current_snapshot()`): the
/// changes after it are those whose transaction it did not see and the reader's snapshot does
/// (`pg_visible_in_snapshot`), so a late commit is read once, the next time, and none twice.
///
/// **Notifications.** Each writing transaction sends one notification on ``channel`` when it commits
/// (PostgreSQL folds a transaction's identical notifications). Replicas cannot `LISTEN`: listen on
/// the primary (``PostgreSQLCluster/changeNotifications()``), read the changes anywhere.
///
/// **Limits.** A tracked table needs a `bigint` (or `integer`) key column, named to
/// ``trackingSQL(forTable:keyColumn:)``. The log is not pruned yet: delete old rows with a job.
///
/// Related PostgreSQL documentation: <https://www.postgresql.org/docs/15/functions-info.html#FUNCTIONS-PG-SNAPSHOT>
public enum PostgreSQLChangeLog {
    /// The log table: `store_changes(seq, xid, table_name, row_id, kind)`.
    public static let tableName = PostgreSQLChangeLogSchema.tableName
    /// The notification channel a commit that changed tracked rows notifies.
    public static let channel = PostgreSQLChangeLogSchema.channel

    /// Creates the log table, its index by transaction and the trigger function, if not there yet.
    public static let installationSQL = PostgreSQLChangeLogSchema.installationSQL

    /// The trigger that logs every row inserted, updated or deleted in `table`, by its key column.
    /// An update that changes the key is logged as a delete and an insert.
    public static func trackingSQL(forTable table: String, keyColumn: String = "id") -> String {
        PostgreSQLChangeLogSchema.trackingSQL(forTable: table, keyColumn: keyColumn)
    }

    /// Where a reader stands in the log: a transaction snapshot, in `pg_snapshot`'s text form
    /// (`xmin:xmax:xip,…`).
    public struct Position: Sendable, Hashable {
        /// The snapshot's text.
        public let snapshot: String

        /// The position of this snapshot text.
        public init(snapshot: String) { self.snapshot = snapshot }
    }

    /// The position now: every change committed so far is before it.
    public static func currentPosition(_ db: PostgreSQLConnection) throws -> Position {
        guard case .text(let snapshot) = try db.scalar(sql: PostgreSQLChangeLogSchema.currentPositionSQL) else {
            throw PostgreSQLError(sqlState: PostgreSQLError.internalError, message: "pg_current_snapshot() gave no snapshot")
        }
        return Position(snapshot: snapshot)
    }

    /// The changes committed after `position` and visible now, in the order they were made, and the
    /// position after them: one REPEATABLE READ transaction, so the two agree.
    ///
    /// - Throws: ``PostgreSQLError``.
    public static func changes(after position: Position, _ db: PostgreSQLConnection) throws -> (changes: [RowChange], position: Position) {
        let read = {
            let next = try currentPosition(db)
            let changes = try db.fetchAll(
                sql: SQLDialect.postgreSQL.numberingPlaceholders(PostgreSQLChangeLogSchema.changesSQL),
                arguments: [.text(position.snapshot), .text(position.snapshot)]
            ) { row -> RowChange in
                guard case .integer(let sequence) = row[0], case .text(let table) = row[1], case .integer(let rowID) = row[2],
                    case .integer(let kind) = row[3], let kind = RowChange.Kind(rawValue: Int(kind))
                else {
                    throw PostgreSQLError(sqlState: PostgreSQLError.internalError, message: "\(tableName) holds an unreadable row: \(row)")
                }
                return RowChange(sequence: sequence, table: table, rowID: rowID, kind: kind)
            }
            return (changes, next)
        }
        return db.isInsideTransaction ? try read() : try db.inTransaction(readOnly: true, read)
    }
}
