import SQLiteStore

/// The SQL dialect a schema is generated in. Every statement that creates or changes a declared
/// entity's table is written in this file, from a dialect, so that another engine is one more case.
public enum SchemaDialect: Sendable {
    /// SQLite: `STRICT` tables, `INTEGER PRIMARY KEY` as the rowid.
    case sqlite
}

extension EntityTable {
    /// The SQL that creates the table, its indexes, its change tracking and its search structures, on
    /// an empty database (the first migration of ``EntitySchema``).
    public func createSQL(dialect: SchemaDialect = .sqlite) -> String {
        var lines = ["    id INTEGER PRIMARY KEY"]
        for column in columns { lines.append("    " + Self.columnSQL(column, dialect: dialect)) }
        var sql = "CREATE TABLE \(name) (\n" + lines.joined(separator: ",\n") + "\n) STRICT;\n"
        for index in indexes { sql += Self.createIndexSQL(index, table: name, dialect: dialect) }
        if tracksChanges { sql += ChangeLog.installationSQL() + ChangeLog.trackingSQL(forTable: name) }
        if let searchInstallSQL { sql += searchInstallSQL }
        return sql
    }

    /// A column's definition: `name TYPE [NOT NULL] [UNIQUE] [DEFAULT v] [CHECK (…)] [REFERENCES …]`.
    static func columnSQL(_ column: Column, dialect: SchemaDialect) -> String {
        let definition = column.definition
        var sql = "\(column.name) \((definition.type ?? .any).rawValue)"
        if !definition.isOptional { sql += " NOT NULL" }
        if definition.isUnique { sql += " UNIQUE" }
        if let defaultValue = definition.defaultValue { sql += " DEFAULT " + literal(defaultValue) }
        if let check = definition.sqlCheck { sql += " CHECK (\(check))" }
        if let reference = column.reference {
            sql += " REFERENCES \(reference.table)(id) ON DELETE \(reference.onDelete.rawValue)"
        }
        return sql
    }

    /// `CREATE INDEX IF NOT EXISTS …`: run again by a migration step on a file that has it, it does nothing.
    static func createIndexSQL(_ index: Index, table: String, dialect: SchemaDialect) -> String {
        "CREATE INDEX IF NOT EXISTS \(index.name) ON \(table)(\(index.expressions.joined(separator: ", ")));\n"
    }

    /// `ALTER TABLE … ADD COLUMN …`.
    static func addColumnSQL(_ column: Column, table: String, dialect: SchemaDialect) -> String {
        "ALTER TABLE \(table) ADD COLUMN \(columnSQL(column, dialect: dialect));\n"
    }

    /// `ALTER TABLE … RENAME COLUMN … TO …`.
    static func renameColumnSQL(_ old: String, to new: String, table: String, dialect: SchemaDialect) -> String {
        "ALTER TABLE \(table) RENAME COLUMN \(old) TO \(new);\n"
    }

    /// A value as an SQL literal.
    static func literal(_ value: DatabaseValue) -> String {
        switch value {
        case .null: "NULL"
        case .integer(let integer): String(integer)
        case .real(let real): "\(real)"
        case .text(let text): ChangeLog.literal(text)
        case .blob(let data): "X'" + data.map { byte in (byte < 16 ? "0" : "") + String(byte, radix: 16) }.joined() + "'"
        }
    }

    /// The column's type as SQLite's `PRAGMA table_xinfo` reports it for a table this file created.
    static func reportedType(_ column: Column) -> String { (column.definition.type ?? .any).rawValue }
}
