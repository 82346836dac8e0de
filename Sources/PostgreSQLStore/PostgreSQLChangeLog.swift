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
/// **Pruning.** The log grows until it is pruned: ``prune(before:_:)`` deletes what every reader at
/// a position (its followers' oldest) has read, ``prune(keepingLatest:_:)`` all but the latest entries
/// (a retention, as SQLite's log keeps); run either from a job on the primary. Pruning records the
/// highest transaction it removed entries of in `store_changes_horizon`, and a reader whose position
/// is older is told so (``PositionPruned``), never given an incomplete list: it fetches its results
/// again and follows the log from a new position.
///
/// **Limits.** A tracked table needs a `bigint` (or `integer`) key column, named to
/// ``trackingSQL(forTable:keyColumn:)``.
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
    ///
    /// - Throws: ``PostgreSQLError``; `PostgreSQLChangeLogSchema.MissingPosition`.
    public static func currentPosition(_ db: PostgreSQLConnection) throws -> Position {
        Position(snapshot: try PostgreSQLChangeLogSchema.position(try db.scalar(sql: PostgreSQLChangeLogSchema.currentPositionSQL)))
    }

    /// A reader's position is older than the log's pruning horizon: changes it has not read may be
    /// gone. Fetch the results again, and follow the log from the position of that fetch.
    public struct PositionPruned: Error, Sendable, Equatable, CustomStringConvertible {
        /// The reader's position.
        public let position: Position

        public var description: String {
            "the change log was pruned past this reader's position: fetch the results again and follow the log from a new position"
        }
    }

    /// The changes committed after `position` and visible now, in the order they were made, and the
    /// position after them, read by one statement: one snapshot, so the two agree, in a transaction
    /// or not.
    ///
    /// - Throws: ``PositionPruned`` when pruning may have removed changes after `position`;
    ///   ``PostgreSQLError``; `PostgreSQLChangeLogSchema.MissingPosition`.
    public static func changes(after position: Position, _ db: PostgreSQLConnection) throws -> (changes: [RowChange], position: Position) {
        let rows = try db.fetchAll(
            sql: SQLDialect.postgreSQL.numberingPlaceholders(PostgreSQLChangeLogSchema.changesSQL),
            arguments: [.text(position.snapshot)])
        if rows.first?.first != .integer(0) { throw PositionPruned(position: position) }
        let next = Position(snapshot: try PostgreSQLChangeLogSchema.position(rows.first?[5]))
        let changes = try rows.filter { $0[1] != .null }.map { row -> RowChange in
            guard case .integer(let sequence) = row[1], case .text(let table) = row[2], case .integer(let rowID) = row[3],
                case .integer(let kind) = row[4], let kind = RowChange.Kind(rawValue: Int(kind))
            else {
                throw PostgreSQLError(sqlState: PostgreSQLError.internalError, message: "\(tableName) holds an unreadable row: \(row)")
            }
            return RowChange(sequence: sequence, table: table, rowID: rowID, kind: kind)
        }
        return (changes, next)
    }

    // MARK: - Pruning

    /// The pruning horizon's table: the highest transaction id whose entries were pruned.
    public static let horizonTableName = PostgreSQLChangeLogSchema.horizonTableName

    /// Deletes the entries every reader at `position` or later has read (those of transactions
    /// finished before it), and moves the horizon past them: readers at older positions get
    /// ``PositionPruned``. Give the oldest position of the log's followers.
    ///
    /// - Returns: the number of entries deleted.
    /// - Throws: ``PostgreSQLError``.
    @discardableResult
    public static func prune(before position: Position, _ db: PostgreSQLConnection) throws -> Int {
        try prune(where: "xid < pg_snapshot_xmin($1::pg_snapshot)", arguments: [.text(position.snapshot)], db)
    }

    /// Deletes all but the `count` latest entries (by sequence number), and moves the horizon past
    /// them: a retention, for logs whose followers are not known. A follower that fell further behind
    /// gets ``PositionPruned``.
    ///
    /// - Returns: the number of entries deleted.
    /// - Throws: ``PostgreSQLError``.
    @discardableResult
    public static func prune(keepingLatest count: Int, _ db: PostgreSQLConnection) throws -> Int {
        precondition(count >= 0, "cannot keep a negative number of entries")
        return try prune(where: "seq <= (SELECT max(seq) FROM \(tableName)) - $1", arguments: [.integer(Int64(count))], db)
    }

    /// Deletes the entries `condition` selects and raises the horizon to the highest transaction id
    /// among them, in one statement. An entry of a transaction still running is not visible to it,
    /// so it stays; a reader that has not seen it has an older position than any pruned transaction.
    private static func prune(where condition: String, arguments: [DatabaseValue], _ db: PostgreSQLConnection) throws -> Int {
        let deleted = try db.scalar(
            sql: """
                WITH pruned AS (DELETE FROM \(tableName) WHERE \(condition) RETURNING xid),
                moved AS (
                    UPDATE \(horizonTableName)
                    SET pruned_through = greatest(pruned_through, (SELECT max(xid::text::numeric) FROM pruned)::text::xid8)
                    WHERE id = 1 AND EXISTS (SELECT FROM pruned)
                )
                SELECT count(*) FROM pruned
                """,
            arguments: arguments)
        guard case .integer(let count) = deleted else { return 0 }
        return Int(count)
    }
}
