#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Row counts of a table grouped by a section expression, kept current by triggers in the writing
/// transaction: what a fetched-results controller reads for the sections of a whole table, a few rows
/// instead of a `GROUP BY` over every row, which grows with the table (W5). The same tables, names
/// and calls on both engines, their SQL generated in each one's dialect.
///
/// Two tables hold them: `store_counted_sections(table_name, section)` lists the counted pairs, and
/// `store_section_counts(table_name, section, key, count)` has one row per distinct value (`key`) of
/// the section expression (`section`, its SQL text). Like the change log, the counts are maintained
/// by triggers, so every writer keeps them — any process or tool, even the `sqlite3` shell or `psql`
/// — and a rollback takes its counts with it. A count that falls to 0 stays as a row that counts
/// nothing.
///
/// ```swift
/// // In a migration (or paste the SQL of installationSQL and countingSQL into an .sql file):
/// try SectionCounts.installCounting(forTable: "products", section: "type", in: db)
/// // Later, anywhere:
/// let counts = try SectionCounts.counts(forTable: "products", section: "type", in: db)  // [(key, count)]?
/// ```
///
/// **On PostgreSQL** the triggers are statement-level ones (PL/pgSQL, with transition tables): a
/// statement's rows are grouped once and each key's count changed by one `INSERT … ON CONFLICT DO
/// UPDATE`, in key order; row-level triggers would write a new version of the same counts row for
/// each row (Benchmarks/README, "W4 and W5 on PostgreSQL"). The upsert takes the counts row's lock
/// until the transaction ends, so at `READ COMMITTED` (the default) two transactions that count into
/// the same key take turns there and neither loses the other's count (a new key is inserted by one
/// and added to by the other); an update that moves no row to another section writes no count.
/// Keys are kept as text (`key`), with the type of the expression in the registry (`key_type`), and
/// read back as that type. `TRUNCATE` sets the table's counts to 0.
///
/// **Limits.** The section expression is SQL over the table's columns, deterministic, compared with
/// the `BINARY` collation on SQLite (a column declared `COLLATE NOCASE` would group differently),
/// by its text on PostgreSQL. On SQLite, rows deleted by `REPLACE` conflict resolution fire delete
/// triggers only when the writing connection has `PRAGMA recursive_triggers = ON` (SQLite's rule),
/// so writers that replace rows must turn it on or the counts overcount; each counted row write runs
/// two or three more statements (an index lookup each); the triggers name only the columns the
/// expression's words name, so that another column can be dropped. On PostgreSQL, writers into one
/// key wait for each other on its counts row until each commits; at `REPEATABLE READ` or
/// `SERIALIZABLE` the second one fails with a serialization failure (40001), to be retried; and two
/// transactions that write into the same keys in opposite orders (one section then another, and the
/// other way round) can deadlock (40P01).
///
/// Related documentation: <https://www.sqlite.org/lang_createtrigger.html>,
/// <https://www.postgresql.org/docs/15/sql-createtrigger.html>
public enum SectionCounts {
    /// The table of counts: `store_section_counts(table_name, section, key, count)`.
    public static let tableName = "store_section_counts"

    /// The table of counted (table, section expression) pairs.
    public static let registryTableName = "store_counted_sections"

    /// The SQL that creates the two tables in `dialect`, if they do not exist yet.
    public static func installationSQL(dialect: SQLDialect = .sqlite) -> String {
        switch dialect {
        case .sqlite:
            return """
                CREATE TABLE IF NOT EXISTS \(registryTableName) (
                    table_name TEXT NOT NULL,
                    section TEXT NOT NULL,
                    PRIMARY KEY (table_name, section)
                ) WITHOUT ROWID;
                CREATE TABLE IF NOT EXISTS \(tableName) (
                    table_name TEXT NOT NULL,
                    section TEXT NOT NULL,
                    key ANY,
                    count INTEGER NOT NULL
                ) STRICT;
                CREATE UNIQUE INDEX IF NOT EXISTS \(tableName)_by_key ON \(tableName)(table_name, section, key);

                """
        case .postgreSQL:
            // NULLS NOT DISTINCT: the NULL key is one key, which `ON CONFLICT` finds (PostgreSQL 15).
            return """
                CREATE TABLE IF NOT EXISTS \(registryTableName) (
                    table_name text NOT NULL,
                    section text NOT NULL,
                    key_type text NOT NULL,
                    PRIMARY KEY (table_name, section)
                );
                CREATE TABLE IF NOT EXISTS \(tableName) (
                    table_name text NOT NULL,
                    section text NOT NULL,
                    key text COLLATE "C",
                    count bigint NOT NULL,
                    CONSTRAINT \(tableName)_by_key UNIQUE NULLS NOT DISTINCT (table_name, section, key)
                );

                """
        }
    }

    /// The SQL that counts the rows of `table` by `section` from now on: its triggers
    /// (``countingTriggersSQL(forTable:columns:section:dialect:)``), the counts of the rows already
    /// there (``recountingSQL(forTable:section:dialect:)``), and its entry in the registry.
    ///
    /// ```swift
    /// print(SectionCounts.countingSQL(forTable: "products", columns: ["id", "type", "name"], section: "type"))
    /// ```
    ///
    /// The tables must exist first (``installationSQL(dialect:)``).
    public static func countingSQL(forTable table: String, columns: [String], section: String, dialect: SQLDialect = .sqlite) -> String {
        let tableLiteral = SQLText.literal(table)
        let sectionLiteral = SQLText.literal(section)
        let registration = switch dialect {
        case .sqlite:
            "INSERT OR IGNORE INTO \(registryTableName)(table_name, section) VALUES (\(tableLiteral), \(sectionLiteral));\n"
        case .postgreSQL:
            // The expression's type, from a row of NULLs (an empty table has no other).
            """
            INSERT INTO \(registryTableName)(table_name, section, key_type)
                SELECT \(tableLiteral), \(sectionLiteral), pg_typeof(\(section))::text FROM (SELECT) AS one LEFT JOIN \(SQLText.identifier(table)) ON FALSE
                ON CONFLICT (table_name, section) DO UPDATE SET key_type = excluded.key_type;

            """
        }
        return countingTriggersSQL(forTable: table, columns: columns, section: section, dialect: dialect)
            + recountingSQL(forTable: table, section: section, dialect: dialect) + registration
    }

    /// The SQL that counts every row of `table` by `section` again, in one statement after the
    /// counts are cleared: what ``countingSQL(forTable:columns:section:dialect:)`` runs for the rows
    /// already there, and what a bulk load runs after loading an empty table with the triggers off
    /// (`bulkLoadSQL(forTable:_:)`). Rows are grouped by their key, as the triggers group them.
    public static func recountingSQL(forTable table: String, section: String, dialect: SQLDialect = .sqlite) -> String {
        let tableLiteral = SQLText.literal(table)
        let sectionLiteral = SQLText.literal(section)
        return """
            DELETE FROM \(tableName) WHERE table_name = \(tableLiteral) AND section = \(sectionLiteral);
            INSERT INTO \(tableName)(table_name, section, key, count)
                SELECT \(tableLiteral), \(sectionLiteral), \(key(section, dialect)), count(*) FROM \(SQLText.identifier(table)) GROUP BY \(key(section, dialect));

            """
    }

    /// The SQL of the triggers that keep the counts of the rows of `table` by `section`.
    ///
    /// ```swift
    /// print(SectionCounts.countingTriggersSQL(forTable: "products", columns: ["id", "type", "name"], section: "type"))
    /// ```
    ///
    /// On SQLite, three `AFTER` triggers, for each row, evaluate the row's key: when `section` is one
    /// of the `columns` (the table's, as `PRAGMA table_info` lists them), the trigger's `new` or `old`
    /// value of it; otherwise `section` over a row made from those values of the columns it names (its
    /// words), so that it is written exactly as a query over the table would be. (A `BEFORE` trigger
    /// would run even for a row that `OR IGNORE` then leaves alone.) On PostgreSQL, one PL/pgSQL
    /// function and four statement-level triggers (insert, update and delete with their transition
    /// tables, and truncate), which group the statement's rows by the text of `section` (see
    /// ``SectionCounts``).
    public static func countingTriggersSQL(
        forTable table: String, columns: [String], section: String, dialect: SQLDialect = .sqlite
    ) -> String {
        switch dialect {
        case .sqlite: sqliteTriggersSQL(forTable: table, columns: columns, section: section)
        case .postgreSQL: postgreSQLTriggersSQL(forTable: table, section: section)
        }
    }

    private static func sqliteTriggersSQL(forTable table: String, columns: [String], section: String) -> String {
        let tableLiteral = SQLText.literal(table)
        let sectionLiteral = SQLText.literal(section)
        let counted = "table_name = \(tableLiteral) AND section = \(sectionLiteral)"
        let prefix = triggerPrefix(forTable: table, section: section)
        func key(of row: String) -> String {
            // A plain column's key is its value, without a row made of every column (SQLite parses
            // each trigger whole when it reads the schema).
            if let column = columns.first(where: { $0 == section || SQLText.identifier($0) == section }) {
                return "\(row).\(SQLText.identifier(column))"
            }
            // Only those: SQLite refuses to drop a column that a trigger names.
            let named = SQLText.words(section)
            let values = columns.filter { SQLText.words($0).isSubset(of: named) }
                .map { "\(row).\(SQLText.identifier($0)) AS \(SQLText.identifier($0))" }
            return values.isEmpty ? "(\(section))" : "(SELECT \(section) FROM (SELECT \(values.joined(separator: ", "))))"
        }
        let add = """
                INSERT INTO \(tableName)(table_name, section, key, count)
                    SELECT \(tableLiteral), \(sectionLiteral), \(key(of: "new")), 0
                    WHERE NOT EXISTS (SELECT 1 FROM \(tableName) WHERE \(counted) AND key IS \(key(of: "new")));
                UPDATE \(tableName) SET count = count + 1 WHERE \(counted) AND key IS \(key(of: "new"));
            """
        let remove = "    UPDATE \(tableName) SET count = count - 1 WHERE \(counted) AND key IS \(key(of: "old"));"
        return """
            CREATE TRIGGER IF NOT EXISTS \(SQLText.identifier(insertTriggerName(forTable: table, section: section))) AFTER INSERT ON \(SQLText.identifier(table)) BEGIN
            \(add)
            END;
            CREATE TRIGGER IF NOT EXISTS \(SQLText.identifier(prefix + "_delete")) AFTER DELETE ON \(SQLText.identifier(table)) BEGIN
            \(remove)
            END;
            CREATE TRIGGER IF NOT EXISTS \(SQLText.identifier(prefix + "_update")) AFTER UPDATE ON \(SQLText.identifier(table)) BEGIN
            \(remove)
            \(add)
            END;

            """
    }

    private static func postgreSQLTriggersSQL(forTable table: String, section: String) -> String {
        let tableLiteral = SQLText.literal(table)
        let sectionLiteral = SQLText.literal(section)
        let quotedTable = SQLText.identifier(table)
        let function = SQLText.identifier(postgreSQLFunctionName(forTable: table, section: section))
        let key = key(section, .postgreSQL)
        // Each key's change, added to its row in key order (so that two statements lock the rows they
        // share in the same order), or a row made for a new key.
        func upsert(_ changes: String) -> String {
            """
                    INSERT INTO \(tableName)(table_name, section, key, count)
                        SELECT \(tableLiteral), \(sectionLiteral), key, change FROM (\(changes)) AS changes ORDER BY key
                        ON CONFLICT (table_name, section, key) DO UPDATE SET count = \(tableName).count + excluded.count;
            """
        }
        func trigger(_ event: String, _ referencing: String) -> String {
            let name = SQLText.identifier(postgreSQLTriggerName(forTable: table, section: section, event: event))
            return """
                CREATE OR REPLACE TRIGGER \(name) AFTER \(event.uppercased()) ON \(quotedTable)
                    \(referencing)FOR EACH STATEMENT EXECUTE FUNCTION \(function)();

                """
        }
        let moved = "SELECT key, sum(change) AS change FROM (SELECT \(key) AS key, 1 AS change FROM new_rows "
            + "UNION ALL SELECT \(key), -1 FROM old_rows) AS moved GROUP BY 1 HAVING sum(change) <> 0"
        return """
            CREATE OR REPLACE FUNCTION \(function)() RETURNS trigger LANGUAGE plpgsql AS $$
            BEGIN
                IF TG_OP = 'INSERT' THEN
            \(upsert("SELECT \(key) AS key, count(*) AS change FROM new_rows GROUP BY 1"))
                ELSIF TG_OP = 'DELETE' THEN
            \(upsert("SELECT \(key) AS key, -count(*) AS change FROM old_rows GROUP BY 1"))
                ELSIF TG_OP = 'UPDATE' THEN
            \(upsert(moved))
                ELSE
                    UPDATE \(tableName) SET count = 0 WHERE table_name = \(tableLiteral) AND section = \(sectionLiteral);
                END IF;
                RETURN NULL;
            END
            $$;

            """
            + trigger("insert", "REFERENCING NEW TABLE AS new_rows ")
            + trigger("update", "REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows ")
            + trigger("delete", "REFERENCING OLD TABLE AS old_rows ")
            + trigger("truncate", "")
    }

    /// The key of a row as the counts table holds it: the value of `section` on SQLite, its text on
    /// PostgreSQL.
    private static func key(_ section: String, _ dialect: SQLDialect) -> String {
        switch dialect {
        case .sqlite: section
        case .postgreSQL: "(\(section))::text"
        }
    }

    /// The name of the trigger that counts the rows inserted into `table` by `section` (SQLite).
    package static func insertTriggerName(forTable table: String, section: String) -> String {
        triggerPrefix(forTable: table, section: section) + "_insert"
    }

    /// The name of PostgreSQL's trigger for `event` (`insert`, `update`, `delete`, `truncate`) counting
    /// the rows of `table` by `section`: without the table's name, which a trigger's name need not
    /// repeat, so that it stays within PostgreSQL's 63 bytes.
    package static func postgreSQLTriggerName(forTable table: String, section: String, event: String) -> String {
        "\(tableName)_\(FNV1a.hexadecimal(section))_\(event)"
    }

    /// The name of PostgreSQL's function counting the rows of `table` by `section`: named by the hash
    /// of both, so that it stays within PostgreSQL's 63 bytes (a longer name is cut, and two sections
    /// of a long-named table would share one function).
    package static func postgreSQLFunctionName(forTable table: String, section: String) -> String {
        "\(tableName)_\(FNV1a.hexadecimal(SQLText.identifier(table) + "." + section))"
    }

    /// The SQL that stops counting the rows of `table` by `section`: it drops the triggers (and
    /// PostgreSQL's function) of ``countingTriggersSQL(forTable:columns:section:dialect:)``, the
    /// counts and the registry's entry. What a migration runs before the expression changes.
    package static func uncountingSQL(forTable table: String, section: String, dialect: SQLDialect) -> String {
        let quotedTable = SQLText.identifier(table)
        let triggers = switch dialect {
        case .sqlite:
            ["insert", "delete", "update"].map {
                "DROP TRIGGER IF EXISTS \(SQLText.identifier(triggerPrefix(forTable: table, section: section) + "_" + $0));\n"
            }.joined()
        case .postgreSQL:
            ["insert", "update", "delete", "truncate"].map {
                "DROP TRIGGER IF EXISTS \(SQLText.identifier(postgreSQLTriggerName(forTable: table, section: section, event: $0))) ON \(quotedTable);\n"
            }.joined()
                + "DROP FUNCTION IF EXISTS \(SQLText.identifier(postgreSQLFunctionName(forTable: table, section: section)))();\n"
        }
        let counted = "table_name = \(SQLText.literal(table)) AND section = \(SQLText.literal(section))"
        return triggers + "DELETE FROM \(tableName) WHERE \(counted);\nDELETE FROM \(registryTableName) WHERE \(counted);\n"
    }

    /// Whether the counts' tables (``installationSQL(dialect:)``) are in the database.
    package static func isInstalled(_ db: any SQLConnection) throws -> Bool {
        let sql = switch db.dialect {
        case .sqlite: "SELECT count(*) = 2 FROM sqlite_master WHERE type = 'table' AND name IN (?, ?)"
        case .postgreSQL: "SELECT to_regclass(?) IS NOT NULL AND to_regclass(?) IS NOT NULL"
        }
        let installed = try db.fetchRows(sql: sql, values: [.text(tableName), .text(registryTableName)]).first?.first
        return installed == .integer(1)
    }

    /// The start of the names of SQLite's triggers counting the rows of `table` by `section`; also
    /// the name PostgreSQL's function counting them had before it was named by a hash
    /// (``postgreSQLFunctionName(forTable:section:)``), which a server counted then still has, unused.
    package static func triggerPrefix(forTable table: String, section: String) -> String {
        "\(tableName)_\(table)_\(FNV1a.hexadecimal(section))"
    }

    /// Creates the tables if needed and counts the rows of `table` by `section` from now on, in the
    /// connection's dialect.
    ///
    /// Run it in a migration's transaction.
    ///
    /// - Throws: the engine's error when `table` does not exist, `section` is not valid SQL over it, or
    ///   the database cannot be written.
    public static func installCounting(forTable table: String, section: String, in db: any SQLConnection) throws {
        let columns = try db.columnNames(ofTable: table)
        try db.execute(sql: installationSQL(dialect: db.dialect), values: [])
        // With no columns (no such table), the SQL names the table alone, and the engine says it is missing.
        try db.execute(sql: countingSQL(forTable: table, columns: columns.isEmpty ? ["id"] : columns, section: section, dialect: db.dialect), values: [])
    }

    /// The counted (table, section) pairs of `table` (every table's when nil), in order.
    package static func countedSections(ofTable table: String? = nil, _ db: any SQLConnection) throws -> [(table: String, section: String)] {
        guard try isInstalled(db) else { return [] }
        let rows = try db.fetchRows(
            sql: "SELECT table_name, section FROM \(registryTableName)\(table == nil ? "" : " WHERE table_name = ?") ORDER BY 1, 2",
            values: table.map { [.text($0)] } ?? [])
        return rows.compactMap { row in
            guard case .text(let table) = row[0], case .text(let section) = row[1] else { return nil }
            return (table, section)
        }
    }

    /// Where the counts differ from a recount of the rows, one line per counted (table, section) pair
    /// that differs, naming up to three of its keys with the count kept and the recount; empty when
    /// every count is right (or the counts are not installed).
    ///
    /// ```swift
    /// let problems = try SectionCounts.problems(db)  // ["store_section_counts: products by type: …"]
    /// ```
    ///
    /// - Throws: the engine's error when the database cannot be read.
    public static func problems(_ db: any SQLConnection) throws -> [String] {
        try countedSections(db).compactMap { pair in
            let kept = try db.fetchRows(
                sql: "SELECT key, count FROM \(tableName) WHERE table_name = ? AND section = ? AND count != 0",
                values: [.text(pair.table), .text(pair.section)])
            let recounted = try db.fetchRows(
                sql: "SELECT \(key(pair.section, db.dialect)), count(*) FROM \(SQLText.identifier(pair.table)) GROUP BY 1", values: [])
            func counts(_ rows: [[DatabaseValue]]) -> [DatabaseValue: Int] {
                Dictionary(rows.map { row in
                    guard case .integer(let count) = row[1] else { return (row[0], 0) }
                    return (row[0], Int(count))
                }, uniquingKeysWith: +)
            }
            let keptCounts = counts(kept)
            let recounts = counts(recounted)
            let wrong = Set(keptCounts.keys).union(recounts.keys).filter { keptCounts[$0] != recounts[$0] }
                .sorted { $0.description < $1.description }
            guard !wrong.isEmpty else { return nil }
            let examples = wrong.prefix(3).map { "key \($0) counts \(keptCounts[$0] ?? 0), recounted \(recounts[$0] ?? 0)" }
            return "\(tableName): \(pair.table) by \(pair.section): \(wrong.count) wrong count\(wrong.count == 1 ? "" : "s") ("
                + examples.joined(separator: "; ") + ")"
        }
    }

    /// The counts of the rows of `table` by `section`, in the order of the key (`BINARY`, NULL first
    /// ascending; on PostgreSQL, numbers by value and text by its bytes), without the keys that count
    /// nothing; nil when that pair is not counted. Two statements: whether the counts are installed,
    /// then the pair's registration and counts.
    ///
    /// - Throws: the engine's error when the database cannot be read.
    public static func counts(
        forTable table: String, section: String, descending: Bool = false, in db: any SQLConnection
    ) throws -> [(key: DatabaseValue, count: Int)]? {
        guard try isInstalled(db) else { return nil }
        if let counts = try registeredCounts(forTable: table, section: section, descending: descending, db) { return counts }
        // A store made before generated SQL quoted columns counts a column's sections under its bare
        // name (`type` for `"type"`).
        let bare = String(section.dropFirst().dropLast()).replacing("\"\"", with: "\"")
        guard section.count > 2, SQLText.identifier(bare) == section else { return nil }
        return try registeredCounts(forTable: table, section: bare, descending: descending, db)
    }

    /// The counts of ``counts(forTable:section:descending:in:)`` for `section` as registered.
    private static func registeredCounts(
        forTable table: String, section: String, descending: Bool, _ db: any SQLConnection
    ) throws -> [(key: DatabaseValue, count: Int)]? {
        let direction = descending ? "DESC" : "ASC"
        let (keyType, order) = switch db.dialect {
        case .sqlite: ("NULL", "c.key \(direction)")
        case .postgreSQL:
            ("r.key_type", "c.key IS NULL \(descending ? "ASC" : "DESC"), "
                + "CASE WHEN r.key_type IN (\(numericTypes.map(SQLText.literal).joined(separator: ", "))) THEN c.key::numeric END \(direction), "
                + "c.key \(direction)")
        }
        // One row of NULLs for a pair counted with no key counting anything.
        let rows = try db.fetchRows(
            sql: """
                SELECT \(keyType), c.key, c.count FROM \(registryTableName) AS r
                LEFT JOIN \(tableName) AS c ON c.table_name = r.table_name AND c.section = r.section AND c.count > 0
                WHERE r.table_name = ? AND r.section = ? ORDER BY \(order)
                """,
            values: [.text(table), .text(section)])
        guard !rows.isEmpty else { return nil }
        return rows.compactMap { row in
            guard case .integer(let count) = row[2] else { return nil }
            guard case .text(let type) = row[0], case .text(let text) = row[1] else { return (row[1], Int(count)) }
            return (key(text, type: type), Int(count))
        }
    }

    /// PostgreSQL's types of numbers, whose keys are read as numbers and ordered by value.
    private static let numericTypes = ["smallint", "integer", "bigint", "real", "double precision", "numeric"]

    /// A PostgreSQL key's text read as the value of its expression's type, as a query of the
    /// expression reads it: numbers as integers or reals, `bytea` as a blob, booleans as 0 and 1.
    private static func key(_ text: String, type: String) -> DatabaseValue {
        switch type {
        case "smallint", "integer", "bigint": Int64(text).map { .integer($0) } ?? .text(text)
        case "real", "double precision", "numeric": Double(text).map { .real($0) } ?? .text(text)
        case "boolean": .integer(text == "true" ? 1 : 0)
        case "bytea":
            .blob(Data(stride(from: 2, to: text.utf8.count, by: 2).compactMap { start in
                let digits = text.utf8.dropFirst(start).prefix(2)
                return UInt8(String(decoding: digits, as: UTF8.self), radix: 16)
            }))
        default: .text(text)
        }
    }

    /// The SQL a bulk load into an empty `table` on PostgreSQL runs around it for the table's counts:
    /// `before` turns their triggers off, `after` counts every row in one statement per counted
    /// section (``recountingSQL(forTable:section:dialect:)``) and turns them on again. Both empty when
    /// no section of the table is counted. (SQLite's `BulkInsert` counts the rows it adds itself.)
    package static func bulkLoadSQL(forTable table: String, _ db: any SQLConnection) throws -> (before: String, after: String) {
        let sections = try countedSections(ofTable: table, db).map(\.section)
        let triggers = sections.flatMap { section in
            ["insert", "update", "delete", "truncate"].map {
                SQLText.identifier(postgreSQLTriggerName(forTable: table, section: section, event: $0))
            }
        }
        let quotedTable = SQLText.identifier(table)
        return (
            triggers.map { "ALTER TABLE \(quotedTable) DISABLE TRIGGER \($0);\n" }.joined(),
            sections.map { recountingSQL(forTable: table, section: $0, dialect: .postgreSQL) }.joined()
                + triggers.map { "ALTER TABLE \(quotedTable) ENABLE TRIGGER \($0);\n" }.joined()
        )
    }
}
