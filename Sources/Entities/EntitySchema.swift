import PostgreSQLSearch
import SQLiteStore
import TextSearch

/// An embedder's schema: its declared entities' tables, created from their declarations by the
/// set's first migration, and the later changes as migrations of its own.
///
/// ```swift
/// static let schema = EntitySchema(identity: "org.example.recipes", tables: [EntityTable(Recipe.self), EntityTable(Ingredient.self)], changes: [
///     .addingAttribute("servings", of: Recipe.self, version: 2),
///     .renamingColumn("note", to: "remark", of: Ingredient.self, version: 3),
///     .addingIndexes(of: Recipe.self, version: 4),
///     .creatingTable(EntityTable(Rating.self), version: 5),
///     Migration(version: 6, name: "trim_names", sql: "UPDATE recipes SET name = trim(name)"),
/// ])
/// try schema.migrate(queue)   // creates or updates the tables, then checks them
/// ```
///
/// **The declaration is the schema.** Migration 1 creates each table as its declaration says *now*
/// (``EntityTable/createSQL(dialect:)``); it stands for the declarations, not for fixed SQL, so its
/// checksum does not change with them. A change to a declaration comes with a migration step that
/// brings files made before it to the new declaration: a typed step (`Migration.addingAttribute(_:of:version:)`,
/// `Migration.renamingColumn(_:to:of:version:)`, `Migration.addingIndexes(of:version:)`,
/// `Migration.creatingTable(_:version:)`) finds
/// its change already made in a file that migration 1 created after it, and does nothing there; an SQL
/// step runs on every file (use it for data, not for the table's shape). After migrating, each table
/// is checked against its declaration (``EntityTable/check(_:)``), so a change without its step fails
/// at open with one line, not at the first insert.
public struct EntitySchema: Sendable {
    /// The tables, in creation order (a parent before the children that refer to it).
    public let tables: [EntityTable]
    /// The migrations: the tables' creation (version 1), then `changes`.
    public let migrationSet: MigrationSet

    /// A schema of `tables`, its set named `identity` in `schema_migrations`.
    ///
    /// - Precondition: the changes' versions are distinct and above 1 (version 1 is the tables'
    ///   creation): a mistake in the code that lists them, so it traps with the version rather than
    ///   throw.
    public init(identity: String, tables: [EntityTable], changes: [Migration] = []) {
        self.tables = tables
        // Its name and revision name no table: a table added later (with its `creatingTable` step) is
        // created by it on new files too, and files made before still find it unchanged.
        let creation = Migration(version: 1, name: "create_entity_tables", revision: "entity tables") { (db: any SQLConnection) in
            for table in tables { try table.create(db) }
        }
        for change in changes {
            precondition(change.version > 1, "\(identity) migration \(change.name) has version \(change.version): 1 is the tables' creation")
        }
        migrationSet = MigrationSet(identity: identity, migrations: [creation] + changes)
    }

    /// Checks every table against its declaration.
    ///
    /// - Throws: ``SchemaDifference`` for the first table that differs; `DatabaseError`.
    public func check(_ db: some SQLConnection) throws {
        for table in tables { try table.check(db) }
    }

    /// Applies the pending migrations of this schema (and of `otherSets`, other owners' sets kept in
    /// the same file, applied first), then checks the tables.
    ///
    /// - Returns: the migrations applied now.
    /// - Throws: `MigrationError` when the file's set is newer or changed; ``SchemaDifference``;
    ///   `DatabaseError`.
    @discardableResult
    public func migrate(_ writer: some StoreWriter, alongside otherSets: [MigrationSet] = []) throws -> [AppliedMigration] {
        let migrator = try Migrator(sets: otherSets + [migrationSet])
        return try writer.writeWithoutTransaction { db in
            let applied = try migrator.migrate(db)
            try check(db)
            return applied
        }
    }
}

extension Migration {
    /// A step that adds an attribute's column (and its folded column) to a table made before the
    /// attribute was declared; it does nothing where the column exists (a table created after it).
    /// A non-optional attribute needs a `default:` in its declaration, which the rows already there
    /// take.
    public static func addingAttribute<Entity: DeclaredEntity>(_ name: String, of type: Entity.Type, version: Int) -> Migration {
        Migration(version: version, name: "add_\(Entity.tableName)_\(name)", revision: "add attribute \(name)") { (db: any SQLConnection) in
            let table = EntityTable(Entity.self)
            let columns = table.columns.filter { $0.attribute == name }
            precondition(!columns.isEmpty, "\(Entity.self) has no attribute \(name)")
            let existing = try table.columnNames(db)
            for column in columns where !existing.contains(column.name) {
                try db.execute(sql: EntityTable.addColumnSQL(column, table: table.name, dialect: db.dialect), values: [])
            }
        }
    }

    /// A step that renames a column to the name of the declaration's column `newName` (after an
    /// attribute's column was renamed), and its folded column with it; it does nothing where `oldName`
    /// is gone (a table created after it). The section counts (`SectionCounts`) of an expression
    /// that names the old column stop, and the declared sections that name the new one are counted
    /// from the rows instead.
    public static func renamingColumn<Entity: DeclaredEntity>(
        _ oldName: String, to newName: String, of type: Entity.Type, version: Int
    ) -> Migration {
        Migration(version: version, name: "rename_\(Entity.tableName)_\(oldName)", revision: "rename \(oldName) to \(newName)") { (db: any SQLConnection) in
            let table = EntityTable(Entity.self)
            let existing = try table.columnNames(db)
            guard existing.contains(oldName) else { return }
            let folded = (old: oldName + "_folded", new: newName + "_folded")
            // Their triggers name the old column (PostgreSQL's function, in its text).
            let stale = try SectionCounts.countedSections(ofTable: table.name, db).map(\.section)
                .filter { !SQLText.words($0).isDisjoint(with: [oldName, folded.old]) }
            for section in stale {
                try db.execute(sql: SectionCounts.uncountingSQL(forTable: table.name, section: section, dialect: db.dialect), values: [])
            }
            try db.execute(sql: EntityTable.renameColumnSQL(oldName, to: newName, table: table.name), values: [])
            if existing.contains(folded.old), table.columns.contains(where: { $0.name == folded.new }) {
                try db.execute(sql: EntityTable.renameColumnSQL(folded.old, to: folded.new, table: table.name), values: [])
            }
            let counting = stale.isEmpty ? "" : table.sectionCountingSQL(dialect: db.dialect, naming: [newName, folded.new])
            if !counting.isEmpty { try db.execute(sql: counting, values: []) }
        }
    }

    /// A step that creates a table added to the schema after its first release; it does nothing where
    /// the table exists (a file that migration 1 created after it).
    public static func creatingTable(_ table: EntityTable, version: Int) -> Migration {
        Migration(version: version, name: "create_\(table.name)", revision: "create table \(table.name)") { (db: any SQLConnection) in
            guard try table.columnNames(db).isEmpty else { return }
            try table.create(db)
        }
    }

    /// A step that rebuilds a searchable entity's search structures from its rows, for a store made
    /// before its searched attributes (or its search description) changed: it drops the triggers and
    /// every structure a search of the table may have, then installs the declared ones
    /// (`SearchDescription.installSQL`; on PostgreSQL, `PostgreSQLTextSearch.installSQL`) and chooses
    /// their frequent substrings and grams again, in the migration's one transaction.
    ///
    /// Its revision names no attribute, so that a later change of the search (with a step of its own)
    /// leaves its checksum as it was; run on a file whose search is the declared one already (made by
    /// migration 1 after it), it builds the same structures again.
    public static func reinstallingSearch<Entity: SearchableEntity>(of type: Entity.Type, version: Int) -> Migration {
        Migration(version: version, name: "reinstall_\(Entity.tableName)_search", revision: "reinstall search") { (db: any SQLConnection) in
            let search = Entity.searchDescription
            // Every structure's name depends on the table only: this description names them all,
            // whichever ones the store has.
            let everyStructure = SearchDescription(
                table: search.table, textColumns: search.textColumns, accelerators: [.substringCounts, .gramBits])
            guard let db = db as? Database else {
                let server = PostgreSQLTextSearch(search)
                try db.execute(sql: PostgreSQLTextSearch(everyStructure).uninstallSQL + server.installSQL, values: [])
                try server.refreshSubstringCounts(db)
                return
            }
            try db.execute(sql: everyStructure.uninstallSQL + search.installSQL)
            if search.substringCountsTable != nil { try search.refreshSubstringCounts(db) }
            if search.gramBitsTable != nil { try search.refreshGramBits(db) }
        }
    }

    /// A step that moves the grams of searchable entities' tables on PostgreSQL to the index of their
    /// texts that this version makes (PostgreSQLSearch's `gramsIndex`), from the column an older
    /// version kept them in (`search_grams`) or an older version's index, reinstalling each search
    /// from its rows: for a server store made before. It runs on PostgreSQL only (SQLite files record
    /// it, `Migration.onlyOn`), and does nothing to a table whose search has this version's index
    /// already, so one step may stand for several such changes under its `name` (catalog migration 3,
    /// `index_search_grams`, then 5, `index_search_pairs`).
    public static func indexingSearchGrams(
        of types: [any SearchableEntity.Type], version: Int, name: String = "index_search_grams"
    ) -> Migration {
        let tables = types.map { $0.searchDescription.table }
        let revision = name.replacing("_", with: " ") + " of " + tables.joined(separator: ", ")
        return Migration(version: version, name: name, revision: revision) { (db: any SQLConnection) in
            for type in types {
                let search = PostgreSQLTextSearch(type.searchDescription)
                let hasColumn = try db.columnNames(ofTable: search.description.table).contains("search_grams")
                guard try hasColumn || search.gramsIndexState(db) != .current else { continue }
                try db.execute(sql: search.uninstallSQL + search.installSQL, values: [])
                try search.refreshSubstringCounts(db)
            }
        }.applyingOnly(on: .postgreSQL)
    }

    /// A step that creates the declared indexes a table made before them lacks, and counts the rows
    /// by the sections of the sectioned ones (`SectionCounts`; counted again where they were). A store
    /// whose migration 1 did not count them yet (made before sectioned indexes were counted, on
    /// either engine) gets its counts from this step: add one to have them there.
    public static func addingIndexes<Entity: DeclaredEntity>(of type: Entity.Type, version: Int) -> Migration {
        Migration(version: version, name: "index_\(Entity.tableName)", revision: "add indexes") { (db: any SQLConnection) in
            let table = EntityTable(Entity.self)
            for index in table.indexes { try db.execute(sql: table.createIndexSQL(index, dialect: db.dialect), values: []) }
            let counting = table.sectionCountingSQL(dialect: db.dialect)
            if !counting.isEmpty { try db.execute(sql: counting, values: []) }
        }
    }
}

extension EntityTable {
    /// The names of the table's columns in `db`.
    func columnNames(_ db: some SQLConnection) throws -> Set<String> {
        Set(try db.columnNames(ofTable: name))
    }

    /// Creates the table in `db` as ``createSQL(dialect:)`` says, in the connection's dialect.
    ///
    /// - Throws: the engine's error.
    func create(_ db: some SQLConnection) throws {
        try db.execute(sql: createSQL(dialect: db.dialect), values: [])
    }
}
