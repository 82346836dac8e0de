/// Row counts of a table grouped by a section expression, kept current by triggers in the writing
/// transaction: what a fetched-results controller reads for the sections of a whole table, a few rows
/// instead of a `GROUP BY` over every row, which grows with the table (W5).
///
/// Two tables hold them: `store_counted_sections(table_name, section)` lists the counted pairs, and
/// `store_section_counts(table_name, section, key, count)` has one row per distinct value (`key`) of
/// the section expression (`section`, its SQL text). Like the ``ChangeLog``, the counts are maintained
/// by triggers, so every writer keeps them — any process or tool, even the `sqlite3` shell — and a
/// rollback takes its counts with it. A count that falls to 0 stays as a row that counts nothing.
///
/// ```swift
/// // In a migration (or paste the SQL of installationSQL and countingSQL into an .sql file):
/// try SectionCounts.installCounting(forTable: "products", section: "type", in: db)
/// // Later, anywhere:
/// let counts = try SectionCounts.counts(forTable: "products", section: "type", in: db)  // [(key, count)]?
/// ```
///
/// **Limits.** The section expression is SQL over the table's columns, deterministic, compared with
/// the `BINARY` collation (a column declared `COLLATE NOCASE` would group differently). Rows deleted by
/// `REPLACE` conflict resolution fire delete triggers only when the writing connection has
/// `PRAGMA recursive_triggers = ON` (SQLite's rule), so writers that replace rows must turn it on or the
/// counts overcount. Each counted row write runs two or three more statements (an index lookup each).
///
/// Related SQLite documentation: <https://www.sqlite.org/lang_createtrigger.html>
public enum SectionCounts {
    /// The table of counts: `store_section_counts(table_name, section, key, count)`.
    public static let tableName = "store_section_counts"

    /// The table of counted (table, section expression) pairs.
    public static let registryTableName = "store_counted_sections"

    /// The SQL that creates the two tables, if they do not exist yet.
    public static let installationSQL = """
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

    /// The SQL that counts the rows of `table` by `section` from now on: its three triggers
    /// (``countingTriggersSQL(forTable:columns:section:)``), the counts of the rows already there, and
    /// its entry in the registry.
    ///
    /// ```swift
    /// print(SectionCounts.countingSQL(forTable: "products", columns: ["id", "type", "name"], section: "type"))
    /// ```
    ///
    /// The tables must exist first (``installationSQL``).
    public static func countingSQL(forTable table: String, columns: [String], section: String) -> String {
        let tableLiteral = ChangeLog.literal(table)
        let sectionLiteral = ChangeLog.literal(section)
        return countingTriggersSQL(forTable: table, columns: columns, section: section) + """
            DELETE FROM \(tableName) WHERE table_name = \(tableLiteral) AND section = \(sectionLiteral);
            INSERT INTO \(tableName)(table_name, section, key, count)
                SELECT \(tableLiteral), \(sectionLiteral), \(section), count(*) FROM \(ChangeLog.identifier(table)) GROUP BY \(section);
            INSERT OR IGNORE INTO \(registryTableName)(table_name, section) VALUES (\(tableLiteral), \(sectionLiteral));

            """
    }

    /// The SQL of the three triggers that keep the counts of the rows of `table` by `section`.
    ///
    /// ```swift
    /// print(SectionCounts.countingTriggersSQL(forTable: "products", columns: ["id", "type", "name"], section: "type"))
    /// ```
    ///
    /// `columns` are the table's columns (as `PRAGMA table_info` lists them). The triggers, all
    /// `AFTER` ones, evaluate the row's key: when `section` is one of the columns, the trigger's
    /// `new` or `old` value of it; otherwise `section` over a row of the columns made from those
    /// values, so that it is written exactly as a query over the table would be. (A `BEFORE` trigger
    /// would run even for a row that `OR IGNORE` then leaves alone.)
    public static func countingTriggersSQL(forTable table: String, columns: [String], section: String) -> String {
        let tableLiteral = ChangeLog.literal(table)
        let sectionLiteral = ChangeLog.literal(section)
        let counted = "table_name = \(tableLiteral) AND section = \(sectionLiteral)"
        let prefix = triggerPrefix(forTable: table, section: section)
        func key(of row: String) -> String {
            // A plain column's key is its value, without a row made of every column (SQLite parses
            // each trigger whole when it reads the schema).
            if let column = columns.first(where: { $0 == section || ChangeLog.identifier($0) == section }) {
                return "\(row).\(ChangeLog.identifier(column))"
            }
            let values = columns.map { "\(row).\(ChangeLog.identifier($0)) AS \(ChangeLog.identifier($0))" }
            return "(SELECT \(section) FROM (SELECT \(values.joined(separator: ", "))))"
        }
        let add = """
                INSERT INTO \(tableName)(table_name, section, key, count)
                    SELECT \(tableLiteral), \(sectionLiteral), \(key(of: "new")), 0
                    WHERE NOT EXISTS (SELECT 1 FROM \(tableName) WHERE \(counted) AND key IS \(key(of: "new")));
                UPDATE \(tableName) SET count = count + 1 WHERE \(counted) AND key IS \(key(of: "new"));
            """
        let remove = "    UPDATE \(tableName) SET count = count - 1 WHERE \(counted) AND key IS \(key(of: "old"));"
        return """
            CREATE TRIGGER IF NOT EXISTS \(ChangeLog.identifier(insertTriggerName(forTable: table, section: section))) AFTER INSERT ON \(ChangeLog.identifier(table)) BEGIN
            \(add)
            END;
            CREATE TRIGGER IF NOT EXISTS \(ChangeLog.identifier(prefix + "_delete")) AFTER DELETE ON \(ChangeLog.identifier(table)) BEGIN
            \(remove)
            END;
            CREATE TRIGGER IF NOT EXISTS \(ChangeLog.identifier(prefix + "_update")) AFTER UPDATE ON \(ChangeLog.identifier(table)) BEGIN
            \(remove)
            \(add)
            END;

            """
    }

    /// The name of the trigger that counts the rows inserted into `table` by `section`.
    static func insertTriggerName(forTable table: String, section: String) -> String {
        triggerPrefix(forTable: table, section: section) + "_insert"
    }

    /// Whether the counts' tables (``installationSQL``) are in the database.
    static func isInstalled(_ db: Database) throws -> Bool {
        try db.scalar(
            Int.self, sql: "SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name IN (?, ?)",
            arguments: [tableName, registryTableName]) == 2
    }

    /// The start of the names of the triggers counting the rows of `table` by `section`.
    static func triggerPrefix(forTable table: String, section: String) -> String {
        "\(tableName)_\(table)_\(FNV1a.hexadecimal(section))"
    }

    /// Creates the tables if needed and counts the rows of `table` by `section` from now on.
    ///
    /// Run it in a migration's transaction.
    ///
    /// - Throws: ``DatabaseError`` when `table` does not exist, `section` is not valid SQL over it, or
    ///   the database cannot be written.
    public static func installCounting(forTable table: String, section: String, in db: Database) throws {
        let columns = try db.fetchAll(sql: "SELECT name FROM pragma_table_info(?) ORDER BY cid", arguments: [table]) {
            try $0.decode(String.self, at: 0)
        }
        guard !columns.isEmpty else {
            throw DatabaseError(resultCode: .SQLITE_ERROR, message: "no such table: \(table)")
        }
        try db.execute(sql: installationSQL)
        try db.execute(sql: countingSQL(forTable: table, columns: columns, section: section))
    }

    /// Where the counts differ from a recount of the rows, one line per counted (table, section) pair
    /// that differs, naming up to three of its keys with the count kept and the recount; empty when
    /// every count is right (or the counts are not installed).
    ///
    /// ```swift
    /// let problems = try SectionCounts.problems(db)  // ["store_section_counts: products by type: …"]
    /// ```
    ///
    /// - Throws: ``DatabaseError`` when the database cannot be read.
    public static func problems(_ db: Database) throws -> [String] {
        guard try isInstalled(db) else { return [] }
        let pairs = try db.fetchAll(sql: "SELECT table_name, section FROM \(registryTableName) ORDER BY 1, 2") {
            (table: try $0.decode(String.self, at: 0), section: try $0.decode(String.self, at: 1))
        }
        return try pairs.compactMap { pair in
            let kept = try db.fetchAll(
                sql: "SELECT key, count FROM \(tableName) WHERE table_name = ? AND section = ? AND count != 0",
                arguments: [pair.table, pair.section]
            ) { ($0.databaseValue(at: 0), try $0.decode(Int.self, at: 1)) }
            let recounted = try db.fetchAll(
                sql: "SELECT \(pair.section), count(*) FROM \(ChangeLog.identifier(pair.table)) GROUP BY 1"
            ) { ($0.databaseValue(at: 0), try $0.decode(Int.self, at: 1)) }
            let keptCounts = Dictionary(kept, uniquingKeysWith: +)
            let recounts = Dictionary(recounted, uniquingKeysWith: +)
            let wrong = Set(keptCounts.keys).union(recounts.keys).filter { keptCounts[$0] != recounts[$0] }
                .sorted { $0.description < $1.description }
            guard !wrong.isEmpty else { return nil }
            let examples = wrong.prefix(3).map { "key \($0) counts \(keptCounts[$0] ?? 0), recounted \(recounts[$0] ?? 0)" }
            return "\(tableName): \(pair.table) by \(pair.section): \(wrong.count) wrong count\(wrong.count == 1 ? "" : "s") ("
                + examples.joined(separator: "; ") + ")"
        }
    }

    /// The counts of the rows of `table` by `section`, in the order of the key (`BINARY`, NULL first
    /// ascending), without the keys that count nothing; nil when that pair is not counted.
    ///
    /// - Throws: ``DatabaseError`` when the database cannot be read.
    public static func counts(
        forTable table: String, section: String, descending: Bool = false, in db: Database
    ) throws -> [(key: DatabaseValue, count: Int)]? {
        guard try isInstalled(db) else { return nil }
        let arguments: StatementArguments = [table, section]
        guard try db.scalar(
            Int.self, sql: "SELECT count(*) FROM \(registryTableName) WHERE table_name = ? AND section = ?",
            arguments: arguments) == 1
        else { return nil }
        return try db.fetchAll(
            sql: "SELECT key, count FROM \(tableName) WHERE table_name = ? AND section = ? AND count > 0 "
                + "ORDER BY key \(descending ? "DESC" : "ASC")",
            arguments: arguments
        ) { row in (key: row.databaseValue(at: 0), count: try row.decode(Int.self, at: 1)) }
    }
}
