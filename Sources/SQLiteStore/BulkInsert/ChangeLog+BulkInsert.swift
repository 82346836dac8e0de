extension ChangeLog {
    /// The log's insert entries for `table`, as a ``BulkInsert`` writes them: one per new row, in rowid
    /// order, exactly those the insert trigger of ``trackingSQL(forTable:)`` would have written.
    static func insertStructure(forTable table: String) -> DerivedStructure {
        DerivedStructure(insertTriggers: [insertTriggerName(forTable: table)]) { rowsAfter in
            """
            INSERT INTO \(tableName)(table_name, row_id, kind)
                SELECT \(SQLText.literal(table)), rowid, \(RowChange.Kind.insert.rawValue) FROM \(SQLText.identifier(table))
                WHERE rowid > \(rowsAfter) ORDER BY rowid;

            """
        }
    }

    /// The name of the trigger that logs the inserts into `table`.
    static func insertTriggerName(forTable table: String) -> String { "\(tableName)_\(table)_insert" }
}
