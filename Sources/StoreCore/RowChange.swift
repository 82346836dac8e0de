/// One row event recorded in a change log (SQLiteStore's `ChangeLog`, PostgreSQLStore's
/// `PostgreSQLChangeLog`): a row of a tracked table was inserted, updated or deleted.
///
/// ```swift
/// for change in changes.changes where change.table == "products" {
///     print(change.sequence, change.kind, change.rowID)
/// }
/// ```
public struct RowChange: Sendable, Hashable {
    /// What happened to a row.
    ///
    /// The raw values are the ones stored in the log's `kind` column.
    public enum Kind: Int, Sendable, Hashable, CaseIterable {
        /// The row was inserted (or an UPDATE gave a row this rowid).
        case insert = 1
        /// The row was updated in place, keeping its rowid.
        case update = 2
        /// The row was deleted (or an UPDATE moved it away from this rowid).
        case delete = 3
    }

    /// The position of the event in the log, never reused. SQLite's grows in commit order;
    /// PostgreSQL's in the order writers made the events, which concurrent transactions may commit
    /// in another order (its readers follow snapshots, not this number).
    public let sequence: Int64
    /// The name of the table the row belongs to, as given to the log's `trackingSQL(forTable:)`.
    public let table: String
    /// The rowid of the row (its `INTEGER PRIMARY KEY`, when it has one).
    public let rowID: Int64
    /// What happened to the row.
    public let kind: Kind

    /// Creates a row event.
    public init(sequence: Int64, table: String, rowID: Int64, kind: Kind) {
        self.sequence = sequence
        self.table = table
        self.rowID = rowID
        self.kind = kind
    }
}
