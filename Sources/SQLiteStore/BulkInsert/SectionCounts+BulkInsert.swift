extension SectionCounts {
    /// The counts of `table`'s sections, one structure per counted section expression, as a
    /// ``BulkInsert`` adds to them: the new rows, read by their rowid range, grouped once, each group's
    /// count added to its key's row, or a row added for a new key.
    static func insertStructures(forTable table: String, _ db: Database) throws -> [DerivedStructure] {
        guard try isInstalled(db) else { return [] }
        let sections = try db.fetchAll(
            sql: "SELECT section FROM \(registryTableName) WHERE table_name = ?", arguments: [table]
        ) { try $0.decode(String.self, at: 0) }
        return sections.map { section in
            DerivedStructure(insertTriggers: [insertTriggerName(forTable: table, section: section)]) { rowsAfter in
                let counted = "table_name = \(SQLText.literal(table)) AND section = \(SQLText.literal(section))"
                // NOT INDEXED: read the new rows by their rowid range. Otherwise SQLite groups by
                // walking an index that starts with the section (a list by type): every row of the
                // table, twice, to count the new ones (1,100,000 entries for 100,000 products added
                // to 1,000,000).
                let groups = "SELECT \(section) AS key, count(*) AS count FROM \(SQLText.identifier(table)) NOT INDEXED "
                    + "WHERE rowid > \(rowsAfter) GROUP BY 1"
                return """
                    UPDATE \(tableName) SET count = \(tableName).count + added.count FROM (\(groups)) AS added
                        WHERE \(counted) AND \(tableName).key IS added.key;
                    INSERT INTO \(tableName)(table_name, section, key, count)
                        SELECT \(SQLText.literal(table)), \(SQLText.literal(section)), key, count FROM (\(groups)) AS added
                        WHERE NOT EXISTS (SELECT 1 FROM \(tableName) WHERE \(counted) AND key IS added.key);

                    """
            }
        }
    }
}
