/// The monitor thread's view of the database: the last `data_version` and `schema_version` it saw, and
/// the log position it read up to.
///
/// Every read is a short transaction of its own: between reads the connection holds no lock, so
/// writers and checkpoints never wait for the monitor.
struct LogReader {
    private var dataVersion: Int64
    private var schemaVersion: Int64
    /// The highest log position read.
    private(set) var sequence: Int64

    /// Reads the starting point.
    init(_ db: Database) throws {
        // data_version first: a commit landing between the two reads is then both in `sequence` and
        // seen as new by the next check (a harmless extra read), never in neither.
        dataVersion = try Self.dataVersion(db)
        (schemaVersion, sequence) = try db.inTransaction(.deferred) {
            (try Self.schemaVersion(db), try ChangeLog.currentSequence(db))
        }
    }

    /// The current `data_version` when another connection, in this process or another, committed
    /// since the last successful ``read(_:after:limit:acknowledging:)``; nil when nothing committed.
    ///
    /// Related SQLite documentation: <https://www.sqlite.org/pragma.html#pragma_data_version>
    func newDataVersion(_ db: Database) throws -> Int64? {
        let version = try Self.dataVersion(db)
        return version == dataVersion ? nil : version
    }

    /// The events after `cursor`, marked ``DatabaseChanges/Gap/schemaChanged`` when the schema changed
    /// since the previous read (or the log is gone). Once it succeeds, the commits up to `dataVersion`
    /// count as read.
    mutating func read(
        after cursor: Int64, limit: Int, acknowledging dataVersion: Int64?, _ db: Database
    ) throws -> DatabaseChanges {
        let (schema, changes) = try db.inTransaction(.deferred) { () throws -> (Int64, DatabaseChanges?) in
            let schema = try Self.schemaVersion(db)
            guard try ChangeLog.isInstalled(db) else { return (schema, nil) }
            return (schema, try ChangeLog.changes(after: cursor, limit: limit, db))
        }
        var result = changes ?? DatabaseChanges(fromSequence: cursor, toSequence: cursor, changes: [], gap: .schemaChanged)
        if schema != schemaVersion {
            schemaVersion = schema
            result.gap = result.gap ?? .schemaChanged
        }
        sequence = max(sequence, result.toSequence)
        if let dataVersion { self.dataVersion = dataVersion }
        return result
    }

    private static func dataVersion(_ db: Database) throws -> Int64 {
        try db.scalar(Int64.self, sql: "PRAGMA data_version") ?? 0
    }

    private static func schemaVersion(_ db: Database) throws -> Int64 {
        try db.scalar(Int64.self, sql: "PRAGMA schema_version") ?? 0
    }
}
