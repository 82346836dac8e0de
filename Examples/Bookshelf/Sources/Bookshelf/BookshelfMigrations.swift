import Entities
import SQLiteStore

/// The bookshelf's schema, as its own migration set: it lives alone in a file, or beside another
/// owner's set (the catalog's) in one file, each judged by its own versions.
///
/// Its first migration creates the `books` table from ``Book``'s declaration: the columns, the
/// folded columns, `UNIQUE` titles, the index by author, the change tracking and the search
/// structures. A later change to the declaration comes with a step here (`.addingAttribute(…)`,
/// `.renamingColumn(…)`, `.addingIndexes(…)`, or SQL for data); opening a shelf checks the table
/// against the declaration.
public enum BookshelfMigrations {
    /// The set's name in `schema_migrations`.
    public static let identity = "org.example.bookshelf"

    /// The tables and their migrations.
    public static let schema = EntitySchema(identity: identity, tables: [EntityTable(Book.self)])

    /// The migrations, in version order, for another owner's store that keeps books in its file.
    public static var set: MigrationSet { schema.migrationSet }
}
