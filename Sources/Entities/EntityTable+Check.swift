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
    /// its type, NULL or NOT NULL as declared, and no other column; and it has each declared index.
    /// (Defaults, CHECKs and references are not compared.)
    ///
    /// - Throws: ``SchemaDifference`` naming the first difference, in the declaration's order;
    ///   `DatabaseError`.
    public func check(_ db: Database) throws {
        func difference(_ reason: String) -> SchemaDifference { SchemaDifference(table: name, reason: reason) }
        let found = try db.fetchAll(sql: "SELECT name, type, \"notnull\" FROM pragma_table_xinfo(?)", arguments: [name]) { row in
            (name: try row.decode(String.self, at: 0), type: try row.decode(String.self, at: 1), notNull: try row.decode(Bool.self, at: 2))
        }
        guard !found.isEmpty else { throw difference("the database has no such table (is its migration missing?)") }
        var byName: [String: (type: String, notNull: Bool)] = [:]
        for column in found { byName[column.name] = (column.type, column.notNull) }
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
        }
        let declared = Set(columns.map(\.name) + ["id"])
        if let extra = found.first(where: { !declared.contains($0.name) }) {
            throw difference("column \(extra.name) is not declared by \(entityName) (drop or rename it in a migration step, or declare it)")
        }
        let indexNames = Set(try db.fetchAll(sql: "SELECT name FROM pragma_index_list(?)", arguments: [name]) { try $0.decode(String.self, at: 0) })
        if let missing = indexes.first(where: { !indexNames.contains($0.name) }) {
            throw difference("index \(missing.name) is missing: add a migration step that adds it")
        }
    }
}
