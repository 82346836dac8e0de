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
    /// other column; it has each declared index; and, for a searchable entity, its search's trigram
    /// index indexes the declared searched columns (a file whose search is older needs
    /// `Migration.reinstallingSearch(of:version:)`).
    ///
    /// - Throws: ``SchemaDifference`` naming the first difference, in the declaration's order;
    ///   `DatabaseError`.
    public func check(_ db: Database) throws {
        func difference(_ reason: String) -> SchemaDifference { SchemaDifference(table: name, reason: reason) }
        let found = try db.fetchAll(
            sql: "SELECT name, type, \"notnull\", dflt_value FROM pragma_table_xinfo(?)", arguments: [name]
        ) { row in
            (name: try row.decode(String.self, at: 0), type: try row.decode(String.self, at: 1), notNull: try row.decode(Bool.self, at: 2),
             defaultSQL: try row.decode(String?.self, at: 3))
        }
        guard !found.isEmpty else { throw difference("the database has no such table (is its migration missing?)") }
        var byName: [String: (type: String, notNull: Bool, defaultSQL: String?)] = [:]
        for column in found { byName[column.name] = (column.type, column.notNull, column.defaultSQL) }
        let constraints = try StoredConstraints(table: name, db)
        guard byName["id"]?.type.uppercased() == "INTEGER" else { throw difference("it has no INTEGER column id") }
        for column in columns {
            let declared = "column \(column.name) (attribute \(column.attribute) of \(entityName))"
            guard let stored = byName[column.name] else {
                throw difference("\(declared) is missing: add a migration step that adds it")
            }
            let type = Self.reportedType(column)
            if stored.type.uppercased() != type {
                throw difference("\(declared) is \(stored.type) in the database, \(type) in the declaration")
            }
            if stored.notNull == column.definition.isOptional {
                let nullable = { (notNull: Bool) in notNull ? "NOT NULL" : "nullable" }
                throw difference("\(declared) is \(nullable(stored.notNull)) in the database, \(nullable(!column.definition.isOptional)) in the declaration")
            }
            let expected = (
                defaultSQL: column.definition.defaultValue.map(Self.literal), check: column.definition.sqlCheck,
                unique: column.definition.isUnique,
                reference: column.reference.map { "\($0.table)(id) ON DELETE \($0.onDelete.rawValue)" })
            let actual = (
                defaultSQL: stored.defaultSQL, check: constraints.checks[column.name], unique: constraints.uniqueColumns.contains(column.name),
                reference: constraints.references[column.name])
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
        if let extra = found.first(where: { !declared.contains($0.name) }) {
            throw difference("column \(extra.name) is not declared by \(entityName) (drop or rename it in a migration step, or declare it)")
        }
        let indexNames = Set(try db.fetchAll(sql: "SELECT name FROM pragma_index_list(?)", arguments: [name]) { try $0.decode(String.self, at: 0) })
        if let missing = indexes.first(where: { !indexNames.contains($0.name) }) {
            throw difference("index \(missing.name) is missing: add a migration step that adds it")
        }
        if let searchIndex {
            let indexed = try db.fetchAll(sql: "SELECT name FROM pragma_table_info(?)", arguments: [searchIndex.table]) {
                try $0.decode(String.self, at: 0)
            }
            if indexed != searchIndex.columns {
                let said = { (columns: [String]) in columns.isEmpty ? "nothing" : columns.joined(separator: ", ") }
                throw difference("its search indexes \(said(indexed)) in the database, \(said(searchIndex.columns)) in the declaration: add a migration step that reinstalls it")
            }
        }
    }
}

/// The constraints of a table's columns as the database holds them: each column's CHECK (read from
/// the table's SQL, which SQLite keeps as written, steps included), its UNIQUE constraint (a
/// one-column unique index made by the table's definition) and its foreign key.
private struct StoredConstraints {
    var checks: [String: String] = [:]
    var uniqueColumns: Set<String> = []
    var references: [String: String] = [:]

    init(table: String, _ db: Database) throws {
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
