import SQLiteStore

extension CatalogStore {
    /// Calls `body` with every record of a type, by id, reading one row at a time in one read
    /// transaction: a consistent snapshot however many records there are, never held in memory
    /// together (how `catalog export` streams).
    ///
    /// ```swift
    /// try store.forEachRecord(Product.self) { product in print(product.name) }
    /// ```
    public func forEachRecord<Record: CatalogRecord>(_ type: Record.Type, _ body: (Record) throws -> Void) throws {
        try database.read { db in
            try db.makeStatement(sql: "SELECT \(Record.selection) FROM \(Record.tableName) ORDER BY id").forEachRow { row in
                try body(try Record(row: row))
            }
        }
    }
}
