import SQLiteStore

/// The catalog's schema: the `.sql` files of the package's `Migrations/` folder, embedded at build time.
public enum CatalogMigrations {
    /// The migrations, in version order.
    public static let all: [Migration] = EmbeddedFiles.migrations.map { file in
        do { return try Migration(fileName: file.name, sql: file.text) } catch { fatalError("\(error)") }
    }

    /// A migrator for ``all``.
    public static var migrator: Migrator {
        do { return try Migrator(migrations: all) } catch { fatalError("invalid embedded migrations: \(error)") }
    }
}
