import SQLiteStore

extension SearchDescription {
    /// The search structures as a bulk insert builds them: the insert trigger (``insertTriggerName``)
    /// dropped while rows are inserted, then ``buildSQL(forRowsAfter:)`` for the new rows.
    ///
    /// ```swift
    /// try db.bulkInsert(into: films.table, maintaining: [films.bulkInsertStructure]) { bulk in … }
    /// ```
    public var bulkInsertStructure: DerivedStructure {
        DerivedStructure(insertTriggers: [insertTriggerName]) { rowsAfter in buildSQL(forRowsAfter: rowsAfter) }
    }
}
