import PostgreSQLSearch
import SQLiteStore

/// The first difference between a declared entity and its table in a database, said in one line:
/// what opening a store reports when a declaration changed without a migration step that changes
/// the table.
public struct SchemaDifference: Error, Sendable, Equatable, CustomStringConvertible {
    /// The table.
    public let table: String
    /// The difference, after the table's name.
    public let reason: String

    /// A difference of `table`: `reason` says what it is.
    public init(table: String, reason: String) {
        self.table = table
        self.reason = reason
    }

    public var description: String { "table \(table) does not match its declaration: \(reason)" }
}

extension EntityTable {
    /// Checks the table in `db` against the declaration: it exists; it has each declared column, of
    /// its type, NULL or NOT NULL, with its DEFAULT, CHECK, UNIQUE and REFERENCES as declared, and no
    /// other column; it has each declared index; and, for a searchable entity, its search indexes
    /// the declared searched columns (SQLite's FTS5 table; PostgreSQL's trigram indexes): a store
    /// whose search is older needs `Migration.reinstallingSearch(of:version:)`. On PostgreSQL its
    /// grams index is this version's: an older version's needs
    /// `Migration.indexingSearchGrams(of:version:name:)`, a missing one a step that reinstalls the search.
    ///
    /// On PostgreSQL, which keeps a CHECK only in its own normalised form, a column's CHECK is
    /// compared by whether it has one; a DEFAULT by the value it gives.
    ///
    /// - Throws: ``SchemaDifference`` naming the first difference, in the declaration's order;
    ///   the engine's error.
    public func check(_ db: some SQLConnection) throws {
        func difference(_ reason: String) -> SchemaDifference { SchemaDifference(table: name, reason: reason) }
        let stored = try StoredTable(table: name, db)
        guard !stored.columns.isEmpty else { throw difference("the database has no such table (is its migration missing?)") }
        var byName: [String: StoredTable.Column] = [:]
        for column in stored.columns { byName[column.name] = column }
        let idType = db.dialect == .sqlite ? "INTEGER" : db.dialect.columnType(.integer)
        guard byName["id"]?.type.lowercased() == idType.lowercased() else { throw difference("it has no \(idType) column id") }
        for column in columns {
            let declared = "column \(column.name) (attribute \(column.attribute) of \(entityName))"
            guard let found = byName[column.name] else {
                throw difference("\(declared) is missing: add a migration step that adds it")
            }
            let type = db.dialect == .sqlite ? Self.reportedType(column) : Self.columnType(column.definition.type ?? .any, dialect: db.dialect)
            if found.type.lowercased() != type.lowercased() {
                throw difference("\(declared) is \(found.type) in the database, \(type) in the declaration")
            }
            if found.notNull == column.definition.isOptional {
                let nullable = { (notNull: Bool) in notNull ? "NOT NULL" : "nullable" }
                throw difference("\(declared) is \(nullable(found.notNull)) in the database, \(nullable(!column.definition.isOptional)) in the declaration")
            }
            let declaredCheck = column.definition.sqlCheck
            let expected = (
                defaultSQL: column.definition.defaultValue.map { Self.literal($0, dialect: db.dialect) },
                check: db.dialect == .sqlite ? declaredCheck : declaredCheck.map { _ in "…" },
                unique: column.definition.isUnique,
                reference: column.reference.map { "\($0.table)(id) ON DELETE \($0.onDelete.rawValue)" })
            let actual = (
                defaultSQL: found.defaultSQL,
                check: db.dialect == .sqlite ? stored.checks[column.name] : stored.checks[column.name].map { _ in "…" },
                unique: stored.uniqueColumns.contains(column.name), reference: stored.references[column.name])
            let named = { (kind: String, value: String?) in value.map { "\(kind) \($0)" } ?? "no \(kind)" }
            if actual.defaultSQL != expected.defaultSQL {
                throw difference("\(declared) has \(named("DEFAULT", actual.defaultSQL)) in the database, \(named("DEFAULT", expected.defaultSQL)) in the declaration")
            }
            if actual.check != expected.check {
                throw difference("\(declared) has \(named("CHECK", actual.check.map { "(\($0))" })) in the database, \(named("CHECK", expected.check.map { "(\($0))" })) in the declaration")
            }
            if actual.unique != expected.unique {
                let unique = { (isUnique: Bool) in isUnique ? "UNIQUE" : "not UNIQUE" }
                throw difference("\(declared) is \(unique(actual.unique)) in the database, \(unique(expected.unique)) in the declaration")
            }
            if actual.reference != expected.reference {
                throw difference("\(declared) has \(named("REFERENCES", actual.reference)) in the database, \(named("REFERENCES", expected.reference)) in the declaration")
            }
        }
        let declared = Set(columns.map(\.name) + ["id"])
        if let extra = stored.columns.first(where: { !declared.contains($0.name) }) {
            // A PostgreSQL search made before its grams were an index kept them in this column.
            if search != nil, db.dialect == .postgreSQL, extra.name == "search_grams" {
                throw difference("its search keeps its grams in column search_grams, as an older version did: add the step Migration.indexingSearchGrams(of:version:name:)")
            }
            throw difference("column \(extra.name) is not declared by \(entityName) (drop or rename it in a migration step, or declare it)")
        }
        if let missing = indexes.first(where: { !stored.indexNames.contains($0.name) }) {
            throw difference("index \(missing.name) is missing: add a migration step that adds it")
        }
        // The columns the FTS5 index holds on SQLite; the columns with a trigram index on PostgreSQL.
        if let search {
            let indexed = db.dialect == .sqlite
                ? try db.fetchAll(sql: "SELECT name FROM pragma_table_info(?)", arguments: [search.fullTextTable]) { try $0.decode(String.self, at: 0) }
                : PostgreSQLTextSearch(search).indexedTextColumns(columns: stored.columns.map(\.name), indexes: stored.indexNames)
            if indexed != search.textColumns {
                let said = { (columns: [String]) in columns.isEmpty ? "nothing" : columns.joined(separator: ", ") }
                throw difference("its search indexes \(said(indexed)) in the database, \(said(search.textColumns)) in the declaration: add the step Migration.reinstallingSearch(of:version:)")
            }
            if db.dialect == .postgreSQL {
                let server = PostgreSQLTextSearch(search)
                switch try server.gramsIndexState(db) {
                case .current: break
                case .older:
                    throw difference("its search's grams index is an older version's: add the step Migration.indexingSearchGrams(of:version:name:)")
                case .missing:
                    throw difference(
                        "its search's grams index \(server.gramsIndex) is missing: add a migration step that reinstalls its search (Migration.reinstallingSearch(of:version:))")
                }
            }
        }
    }
}

/// A table as the database holds it: its columns (type, NOT NULL, DEFAULT as an SQL literal), each
/// column's CHECK, its one-column UNIQUE constraints, its foreign keys and its indexes' names. On
/// SQLite, read from its pragmas and the table's SQL (which SQLite keeps as written, steps included);
/// on PostgreSQL, from `information_schema` and `pg_catalog`.
private struct StoredTable {
    struct Column {
        var name: String
        var type: String
        var notNull: Bool
        var defaultSQL: String?
    }

    var columns: [Column] = []
    var checks: [String: String] = [:]
    var uniqueColumns: Set<String> = []
    var references: [String: String] = [:]
    var indexNames: Set<String> = []

    init(table: String, _ db: some SQLConnection) throws {
        switch db.dialect {
        case .sqlite: try readSQLite(table, db)
        case .postgreSQL: try readPostgreSQL(table, db)
        }
    }

    private mutating func readSQLite(_ table: String, _ db: some SQLConnection) throws {
        columns = try db.fetchAll(sql: "SELECT name, type, \"notnull\", dflt_value FROM pragma_table_xinfo(?)", arguments: [table]) { row in
            Column(name: try row.decode(String.self, at: 0), type: try row.decode(String.self, at: 1), notNull: try row.decode(Bool.self, at: 2),
                   defaultSQL: try row.decode(String?.self, at: 3))
        }
        let sql = try db.scalar(String.self, sql: "SELECT sql FROM sqlite_schema WHERE type = 'table' AND name = ?", arguments: [table]) ?? ""
        for definition in Self.columnDefinitions(sql) {
            guard let name = definition.split(separator: " ").first.map({ String($0.filter { !"\"`[]".contains($0) }) }),
                  let check = Self.check(in: definition) else { continue }
            checks[name] = check
        }
        let indexes = try db.fetchAll(sql: "SELECT name FROM pragma_index_list(?) WHERE \"unique\" AND origin = 'u'", arguments: [table]) {
            try $0.decode(String.self, at: 0)
        }
        for index in indexes {
            let columns = try db.fetchAll(sql: "SELECT name FROM pragma_index_info(?)", arguments: [index]) { try $0.decode(String.self, at: 0) }
            if columns.count == 1 { uniqueColumns.insert(columns[0]) }
        }
        let keys = try db.fetchAll(sql: "SELECT \"from\", \"table\", \"to\", on_delete FROM pragma_foreign_key_list(?)", arguments: [table]) { row in
            (try row.decode(String.self, at: 0), "\(try row.decode(String.self, at: 1))(\(try row.decode(String.self, at: 2))) ON DELETE \(try row.decode(String.self, at: 3))")
        }
        for (column, reference) in keys { references[column] = reference }
        indexNames = Set(try db.fetchAll(sql: "SELECT name FROM pragma_index_list(?)", arguments: [table]) { try $0.decode(String.self, at: 0) })
    }

    private mutating func readPostgreSQL(_ table: String, _ db: some SQLConnection) throws {
        columns = try db.fetchAll(
            sql: """
                SELECT column_name::text, data_type::text, is_nullable::text = 'NO', column_default::text FROM information_schema.columns
                WHERE table_schema = current_schema() AND table_name = ? ORDER BY ordinal_position
                """,
            arguments: [table]
        ) { row in
            Column(name: try row.decode(String.self, at: 0), type: try row.decode(String.self, at: 1), notNull: try row.decode(Bool.self, at: 2),
                   defaultSQL: try row.decode(String?.self, at: 3))
        }
        // PostgreSQL keeps a default in its own form (`'abc'::text`): compared by the value it gives.
        for index in columns.indices {
            guard let expression = columns[index].defaultSQL else { continue }
            let value = try db.fetchRows(sql: "SELECT " + expression, values: []).first?.first ?? .null
            columns[index].defaultSQL = EntityTable.literal(value, dialect: .postgreSQL)
        }
        let constraints = try db.fetchAll(
            sql: """
                SELECT c.contype::text, a.attname::text, coalesce(f.relname::text, ''), c.confdeltype::text
                FROM pg_constraint c
                JOIN pg_class t ON t.oid = c.conrelid
                JOIN pg_attribute a ON a.attrelid = c.conrelid AND a.attnum = c.conkey[1]
                LEFT JOIN pg_class f ON f.oid = c.confrelid
                WHERE t.oid = to_regclass(quote_ident(current_schema()) || '.' || quote_ident(?))
                    AND cardinality(c.conkey) = 1 AND c.contype IN ('c', 'u', 'f')
                """,
            arguments: [table]
        ) { row in
            (kind: try row.decode(String.self, at: 0), column: try row.decode(String.self, at: 1), parent: try row.decode(String.self, at: 2),
             onDelete: try row.decode(String.self, at: 3))
        }
        for constraint in constraints {
            switch constraint.kind {
            case "c": checks[constraint.column] = "…"
            case "u": uniqueColumns.insert(constraint.column)
            default:
                let rule = ["c": "CASCADE", "r": "RESTRICT", "a": "NO ACTION", "n": "SET NULL", "d": "SET DEFAULT"][constraint.onDelete] ?? constraint.onDelete
                references[constraint.column] = "\(constraint.parent)(id) ON DELETE \(rule)"
            }
        }
        indexNames = Set(try db.fetchAll(
            sql: "SELECT indexname::text FROM pg_indexes WHERE schemaname = current_schema() AND tablename = ?", arguments: [table]
        ) { try $0.decode(String.self, at: 0) })
    }

    /// The column definitions of a `CREATE TABLE` statement: the parts of its parenthesised body
    /// separated by commas outside parentheses and quotes.
    static func columnDefinitions(_ sql: String) -> [String] {
        guard let open = sql.firstIndex(of: "("), let close = sql.lastIndex(of: ")"), open < close else { return [] }
        let body = sql[sql.index(after: open)..<close]
        var parts: [String] = []
        var start = body.startIndex
        scan(body) { index, character, depth in
            if character == ",", depth == 0 {
                parts.append(String(body[start..<index].drop(while: \.isWhitespace)))
                start = body.index(after: index)
            }
            return true
        }
        parts.append(String(body[start...].drop(while: \.isWhitespace)))
        return parts
    }

    /// The expression of a column definition's `CHECK (…)`, if it has one.
    static func check(in definition: String) -> String? {
        guard let keyword = definition.firstRange(of: " CHECK") ?? definition.firstRange(of: " check"),
              let open = definition[keyword.upperBound...].firstIndex(of: "(") else { return nil }
        var expression: String?
        scan(definition[open...]) { index, character, depth in
            guard character == ")", depth == 1 else { return true }
            expression = String(definition[definition.index(after: open)..<index])
            return false
        }
        return expression
    }

    /// Calls `visit` with each character of `text` outside quotes and the depth of parentheses
    /// around it, until `visit` returns false.
    static func scan(_ text: Substring, _ visit: (String.Index, Character, Int) -> Bool) {
        var depth = 0
        var quote: Character?
        for index in text.indices {
            let character = text[index]
            if let open = quote {
                if character == open { quote = nil }
                continue
            }
            if character == "'" || character == "\"" {
                quote = character
                continue
            }
            // A parenthesis is at the depth of the pair it opens or closes.
            guard visit(index, character, character == "(" ? depth + 1 : depth) else { return }
            if character == "(" { depth += 1 } else if character == ")" { depth -= 1 }
        }
    }
}
