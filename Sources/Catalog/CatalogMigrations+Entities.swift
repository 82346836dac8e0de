import SQLiteStore

extension CatalogMigrations {
    /// Whether the database, at whatever schema version, holds any product or phone: whether it has
    /// data worth a backup before it is migrated.
    public static func hasEntities(_ db: Database) throws -> Bool {
        for table in [Product.tableName, Phone.tableName] {
            let exists = try db.scalar(Bool.self, sql: "SELECT EXISTS (SELECT 1 FROM sqlite_schema WHERE type = 'table' AND name = ?)", arguments: [table]) ?? false
            if exists, try db.scalar(Bool.self, sql: "SELECT EXISTS (SELECT 1 FROM \(table))") == true { return true }
        }
        return false
    }
}
