// The engine-neutral types (DatabaseValue, the SQL dialect, the connection protocol, the migrator)
// are StoreCore's; `import SQLiteStore` keeps bringing them, as before they moved there.
@_exported import StoreCore
