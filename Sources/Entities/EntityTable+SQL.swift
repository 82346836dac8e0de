import PostgreSQLSearch
import SQLiteStore

// Every statement that creates or changes a declared entity's table is written in this file, in the
// SQL of a dialect (StoreCore's `SQLDialect`): SQLite's STRICT table with `id` its rowid, or
// PostgreSQL's table with an identity `id`, text columns in byte order (`COLLATE "C"`), and its
// PL/pgSQL change log.
extension EntityTable {
    /// The SQL that creates the table, its indexes, the counts of its sectioned indexes' sections
    /// (`SectionCounts`), its change tracking and its search structures, on an empty database (the
    /// first migration of ``EntitySchema``).
    public func createSQL(dialect: SQLDialect = .sqlite) -> String {
        var lines = ["    id " + dialect.integerPrimaryKey]
        for column in columns { lines.append("    " + Self.columnSQL(column, dialect: dialect)) }
        var sql = "CREATE TABLE \(name) (\n" + lines.joined(separator: ",\n") + "\n)\(dialect.strictTableSuffix);\n"
        for index in indexes { sql += createIndexSQL(index, dialect: dialect) }
        sql += sectionCountingSQL(dialect: dialect)
        if tracksChanges {
            switch dialect {
            case .sqlite: sql += ChangeLog.installationSQL() + ChangeLog.trackingSQL(forTable: name)
            case .postgreSQL: sql += PostgreSQLChangeLogSchema.installationSQL + ";\n" + PostgreSQLChangeLogSchema.trackingSQL(forTable: name)
            }
        }
        if let search {
            switch dialect {
            case .sqlite: sql += search.installSQL
            case .postgreSQL: sql += PostgreSQLTextSearch(search).installSQL
            }
        }
        return sql
    }

    /// The SQL that counts the rows by each sectioned index's section expression (`SectionCounts`),
    /// named as the controller's requests name it on the engine; only by those that name one of
    /// `names` when given; empty without such a section.
    func sectionCountingSQL(dialect: SQLDialect, naming names: Set<String>? = nil) -> String {
        let sections = countedSections.filter { section in names.map { !SQLText.words(section).isDisjoint(with: $0) } ?? true }
        guard !sections.isEmpty else { return "" }
        return SectionCounts.installationSQL(dialect: dialect) + sections.map { section in
            SectionCounts.countingSQL(
                forTable: name, columns: ["id"] + columns.map(\.name), section: dialect.renamingFunctions(section), dialect: dialect)
        }.joined()
    }

    /// A column's definition: `name TYPE [NOT NULL] [UNIQUE] [DEFAULT v] [CHECK (…)] [REFERENCES …]`.
    static func columnSQL(_ column: Column, dialect: SQLDialect) -> String {
        let definition = column.definition
        var sql = "\(SQLText.identifier(column.name)) \(columnType(definition.type ?? .any, dialect: dialect))"
        // Text compares, sorts and is indexed by its bytes on PostgreSQL as on SQLite (its BINARY
        // collation), whatever the database's locale: requests need no COLLATE of their own.
        if dialect == .postgreSQL, columnType(definition.type ?? .any, dialect: dialect) == dialect.columnType(.text) { sql += " COLLATE \"C\"" }
        if !definition.isOptional { sql += " NOT NULL" }
        if definition.isUnique { sql += " UNIQUE" }
        if let defaultValue = definition.defaultValue { sql += " DEFAULT " + literal(defaultValue, dialect: dialect) }
        if let check = definition.sqlCheck { sql += " CHECK (\(check))" }
        if let reference = column.reference {
            sql += " REFERENCES \(reference.table)(id) ON DELETE \(reference.onDelete.rawValue)"
        }
        return sql
    }

    /// A column type as the dialect declares it. PostgreSQL has no `ANY` column (SQLite's STRICT
    /// column of any storage class): such a column is `text` there.
    static func columnType(_ type: ColumnType, dialect: SQLDialect) -> String {
        switch type {
        case .text: dialect.columnType(.text)
        case .integer: dialect.columnType(.integer)
        case .real: dialect.columnType(.real)
        case .blob: dialect.columnType(.blob)
        case .any: dialect == .sqlite ? ColumnType.any.rawValue : dialect.columnType(.text)
        }
    }

    /// `CREATE INDEX IF NOT EXISTS …`: run again by a migration step on a database that has it, it
    /// does nothing. On PostgreSQL an expression other than a column is parenthesised, its functions
    /// named as PostgreSQL names them (`SQLDialect.renamingFunctions(_:)`).
    func createIndexSQL(_ index: Index, dialect: SQLDialect) -> String {
        let expressions = index.expressions.map { expression in
            guard dialect == .postgreSQL, !expression.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "_" || $0 == "\"" }) else { return expression }
            return "(" + dialect.renamingFunctions(expression) + ")"
        }
        return "CREATE INDEX IF NOT EXISTS \(index.name) ON \(name)(\(expressions.joined(separator: ", ")));\n"
    }

    /// `ALTER TABLE … ADD COLUMN …`.
    static func addColumnSQL(_ column: Column, table: String, dialect: SQLDialect) -> String {
        "ALTER TABLE \(table) ADD COLUMN \(columnSQL(column, dialect: dialect));\n"
    }

    /// `ALTER TABLE … RENAME COLUMN … TO …` (both engines spell it alike).
    static func renameColumnSQL(_ old: String, to new: String, table: String) -> String {
        "ALTER TABLE \(table) RENAME COLUMN \(SQLText.identifier(old)) TO \(SQLText.identifier(new));\n"
    }

    /// A value as an SQL literal of the dialect (they differ for blobs only).
    static func literal(_ value: DatabaseValue, dialect: SQLDialect = .sqlite) -> String {
        switch value {
        case .null: "NULL"
        case .integer(let integer): String(integer)
        case .real(let real): "\(real)"
        case .text(let text): SQLText.literal(text)
        case .blob(let data):
            switch dialect {
            case .sqlite: "X'" + hex(data) + "'"
            case .postgreSQL: "'\\x" + hex(data) + "'::bytea"
            }
        }
    }

    /// The bytes in hexadecimal, two digits each.
    private static func hex(_ data: some Collection<UInt8>) -> String {
        data.map { byte in (byte < 16 ? "0" : "") + String(byte, radix: 16) }.joined()
    }

    /// The column's type as SQLite's `PRAGMA table_xinfo` reports it for a table this file created.
    static func reportedType(_ column: Column) -> String { (column.definition.type ?? .any).rawValue }
}
