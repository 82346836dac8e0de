/// The SQL of PostgreSQLStore's change log (`PostgreSQLChangeLog`, which reads it): the log table,
/// its PL/pgSQL trigger function and a tracked table's trigger. Here, below both engines, so that
/// code written for both (Entities' generated schema) installs tracking without importing
/// PostgreSQLStore; SQLite's log is SQLiteStore's `ChangeLog`.
///
/// ```swift
/// try db.execute(sql: PostgreSQLChangeLogSchema.installationSQL + PostgreSQLChangeLogSchema.trackingSQL(forTable: "note"), values: [])
/// ```
public enum PostgreSQLChangeLogSchema {
    /// The log table: `store_changes(seq, xid, table_name, row_id, kind)`.
    public static let tableName = "store_changes"
    /// The pruning horizon: one row, `pruned_through`, the highest transaction id whose entries were
    /// pruned (`0` before any pruning).
    public static let horizonTableName = "store_changes_horizon"
    /// The notification channel a commit that changed tracked rows notifies.
    public static let channel = "store_changes"

    /// Creates the log table, its index by transaction, its pruning horizon and the trigger function,
    /// if not there yet.
    public static let installationSQL = """
        CREATE TABLE IF NOT EXISTS \(tableName) (
            seq bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
            xid xid8 NOT NULL DEFAULT pg_current_xact_id(),
            table_name text NOT NULL,
            row_id bigint NOT NULL,
            kind smallint NOT NULL CHECK (kind IN (1, 2, 3))
        );
        CREATE INDEX IF NOT EXISTS \(tableName)_xid ON \(tableName) (xid);
        CREATE TABLE IF NOT EXISTS \(horizonTableName) (
            id integer PRIMARY KEY CHECK (id = 1),
            pruned_through xid8 NOT NULL
        );
        INSERT INTO \(horizonTableName) VALUES (1, '0') ON CONFLICT DO NOTHING;
        CREATE OR REPLACE FUNCTION \(tableName)_record() RETURNS trigger LANGUAGE plpgsql AS $$
        DECLARE
            old_id bigint;
            new_id bigint;
        BEGIN
            IF TG_OP <> 'INSERT' THEN old_id := (to_jsonb(OLD) ->> TG_ARGV[0])::bigint; END IF;
            IF TG_OP <> 'DELETE' THEN new_id := (to_jsonb(NEW) ->> TG_ARGV[0])::bigint; END IF;
            IF TG_OP = 'UPDATE' AND old_id = new_id THEN
                INSERT INTO \(tableName)(table_name, row_id, kind) VALUES (TG_TABLE_NAME, new_id, 2);
            ELSE
                IF old_id IS NOT NULL THEN
                    INSERT INTO \(tableName)(table_name, row_id, kind) VALUES (TG_TABLE_NAME, old_id, 3);
                END IF;
                IF new_id IS NOT NULL THEN
                    INSERT INTO \(tableName)(table_name, row_id, kind) VALUES (TG_TABLE_NAME, new_id, 1);
                END IF;
            END IF;
            PERFORM pg_notify('\(channel)', '');
            RETURN NULL;
        END
        $$;
        """

    /// The trigger that logs every row inserted, updated or deleted in `table`, by its key column.
    /// An update that changes the key is logged as a delete and an insert.
    public static func trackingSQL(forTable table: String, keyColumn: String = "id") -> String {
        let quotedTable = SQLText.identifier(table)
        let trigger = triggerName(forTable: table)
        let key = "'" + keyColumn.replacing("'", with: "''") + "'"
        return """
            CREATE TRIGGER \(trigger) AFTER INSERT OR UPDATE OR DELETE ON \(quotedTable)
            FOR EACH ROW EXECUTE FUNCTION \(tableName)_record(\(key));
            """
    }

    /// The SQL that logs every row of `table` as inserted, in key order, in one statement, and
    /// notifies: for a bulk load into an empty table with its trigger (``trackingSQL(forTable:keyColumn:)``)
    /// disabled meanwhile (`ALTER TABLE … DISABLE TRIGGER` ``triggerName(forTable:)``), the entries the
    /// trigger would have made: 5× faster than the trigger row by row (W1b on PostgreSQL).
    public static func loggingEveryRowSQL(ofTable table: String, keyColumn: String = "id") -> String {
        let name = "'" + table.replacing("'", with: "''") + "'"
        return """
            INSERT INTO \(tableName)(table_name, row_id, kind) SELECT \(name), \(SQLText.identifier(keyColumn)), 1 FROM \(SQLText.identifier(table)) ORDER BY 2;
            SELECT pg_notify('\(channel)', '');
            """
    }

    /// Counts 1 when the connection's role owns the table named by its one `?` (or is a member of
    /// the owner's role), else 0: whether it may disable the table's trigger for a bulk load.
    public static let ownsTableSQL =
        "SELECT count(*) FROM pg_class WHERE oid = to_regclass(?) AND pg_has_role(relowner, 'USAGE')"

    /// The name of the trigger of ``trackingSQL(forTable:keyColumn:)`` on `table`, quoted.
    public static func triggerName(forTable table: String) -> String {
        SQLText.identifier(table + "_" + tableName)
    }

    /// The position now, as a snapshot's text: every change committed so far is before it.
    public static let currentPositionSQL = "SELECT pg_current_snapshot()::text"

    /// The changes committed after the snapshot position bound to its one `?` and visible now, in the
    /// order they were made, with the position after them: `pruned, seq, table_name, row_id, kind,
    /// position`, where `pruned` (true when the log was pruned past the position: changes may be
    /// missing) and `position` (``currentPositionSQL``'s, of the statement's snapshot) are in every
    /// row, the others NULL in the one row there is when nothing changed. One statement reads the horizon, the entries and the
    /// position, so that they agree in any transaction (a prune commits before all three or after),
    /// and a follower reads them in one round trip (W4 on PostgreSQL). The horizon is read by its key, not joined: a join with the never-analyzed one-row
    /// table was planned as thousands of rows, costly enough for PostgreSQL to compile the statement
    /// (JIT) at every read (W4 on PostgreSQL).
    public static let changesSQL = """
        WITH reader(snapshot) AS (SELECT ?::pg_snapshot)
        SELECT (SELECT pruned_through FROM \(horizonTableName) WHERE id = 1) >= pg_snapshot_xmin(reader.snapshot),
            seq, table_name, row_id, kind, pg_current_snapshot()::text
        FROM reader
        LEFT JOIN \(tableName)
            ON xid >= pg_snapshot_xmin(reader.snapshot) AND NOT pg_visible_in_snapshot(xid, reader.snapshot)
        ORDER BY seq
        """

    /// The number of columns of ``changesSQL``'s rows.
    public static let changesColumnCount = 6

    /// The position a row read by ``currentPositionSQL`` (its first column) or ``changesSQL`` (its
    /// last) holds.
    ///
    /// - Throws: ``MissingPosition`` when it holds none.
    public static func position(_ value: DatabaseValue?) throws -> String {
        guard case .text(let snapshot) = value else { throw MissingPosition() }
        return snapshot
    }

    /// The server gave no position where ``currentPositionSQL`` or ``changesSQL`` reads one.
    public struct MissingPosition: Error, Sendable, Equatable, CustomStringConvertible {
        public var description: String { "pg_current_snapshot() gave no snapshot" }
    }
}
