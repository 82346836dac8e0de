import SQLiteStore
import TextSearch

/// The bookshelf's schema, as its own migration set: it lives alone in a file, or beside another
/// owner's set (the catalog's) in one file, each judged by its own versions.
public enum BookshelfMigrations {
    /// The set's name in `schema_migrations`.
    public static let identity = "org.example.bookshelf"

    /// The migrations, in version order.
    public static let set: MigrationSet = {
        do {
            return try MigrationSet(identity: identity, migrations: [
                Migration(version: 1, name: "create_books", sql: """
                    CREATE TABLE books (
                        id INTEGER PRIMARY KEY,
                        title TEXT NOT NULL UNIQUE,
                        title_folded TEXT NOT NULL,
                        author TEXT NOT NULL,
                        author_folded TEXT NOT NULL,
                        year INTEGER NOT NULL,
                        tags TEXT NOT NULL,
                        tags_folded TEXT NOT NULL
                    ) STRICT;
                    CREATE INDEX books_by_author ON books(substr(author_folded, 1, 1), title_folded, id);
                    """),
                // The change log (shared with other sets: it is created only if missing) and the
                // triggers that feed it for the declared table: a Swift migration, with the SQL the
                // library generates.
                Migration(version: 2, name: "track_books", revision: "1") { db in
                    try ChangeLog.installTracking(forTable: Book.declaration.table, db)
                },
                // The search index the declaration's searched attributes describe: its revision is the
                // generated SQL, so a change to it shows as a changed migration (add one instead).
                Migration(version: 3, name: "search_books", revision: Book.searchDescription.installSQL) { db in
                    try db.execute(sql: Book.searchDescription.installSQL)
                },
            ])
        } catch {
            fatalError("invalid bookshelf migrations: \(error)")
        }
    }()
}
