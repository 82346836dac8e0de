extension ChangeLog {
    /// The log's insert entries for `table`, as a ``BulkInsert`` writes them: one per new row, in rowid
    /// order, leaving the log exactly as the insert trigger of ``trackingSQL(forTable:)`` would have
    /// (its entries with their positions, the horizon, the next position).
    ///
    /// When the pruning trigger is the one ``installationSQL(retaining:)`` made and more new rows
    /// came than its retention and 256 more, only the entries of the last that many rows are written:
    /// the earlier ones' positions are skipped (`sqlite_sequence`), since by the load's end the
    /// trigger would have pruned their entries, and the last 256 decide the horizon as the whole
    /// load would (its last pruning happens among them). 10,256 entries instead of one per row
    /// (Ingest's 100,000 into 1,000,000, Benchmarks/README.md).
    static func insertStructure(forTable table: String) -> DerivedStructure {
        DerivedStructure(insertTriggers: [insertTriggerName(forTable: table)]) { rowsAfter, db in
            let newRows = "FROM \(SQLText.identifier(table)) WHERE rowid > \(rowsAfter)"
            var logged = "rowid > \(rowsAfter)"
            if let retention = try pruningRetention(db),
                let lastUnlogged = try db.scalar(Int64.self, sql: "SELECT rowid \(newRows) ORDER BY rowid DESC LIMIT 1 OFFSET \(retention + 256)")
            {
                let unlogged = try db.scalar(Int.self, sql: "SELECT count(*) \(newRows) AND rowid <= \(lastUnlogged)") ?? 0
                try skipPositions(unlogged, db)
                logged = "rowid > \(lastUnlogged)"
            }
            try db.execute(sql: """
                INSERT INTO \(tableName)(table_name, row_id, kind)
                    SELECT \(SQLText.literal(table)), rowid, \(RowChange.Kind.insert.rawValue) FROM \(SQLText.identifier(table))
                    WHERE \(logged) ORDER BY rowid
                """)
        }
    }

    /// The retention of the log's pruning when the log's only trigger is the pruning trigger that
    /// ``installationSQL(retaining:)`` made (whitespace aside); nil otherwise.
    private static func pruningRetention(_ db: Database) throws -> Int? {
        let triggers = try db.fetchAll(
            sql: "SELECT name, sql FROM sqlite_master WHERE type = 'trigger' AND tbl_name = ?", arguments: [tableName]
        ) { row in (name: try row.decode(String.self, at: 0), sql: try row.decode(String.self, at: 1)) }
        guard triggers.count == 1, triggers[0].name == pruningTriggerName else { return nil }
        let words = triggers[0].sql.split(whereSeparator: \.isWhitespace)
        // `… AND new.seq > RETENTION BEGIN …`
        guard let begin = words.firstIndex(of: "BEGIN"), begin > 0, let retention = Int(words[begin - 1]), retention >= 1,
            words == "CREATE TRIGGER \(pruningTrigger(retaining: retention))".split(whereSeparator: \.isWhitespace)
        else { return nil }
        return retention
    }

    /// Moves the log's next position `count` further, as `count` entries written and pruned would.
    private static func skipPositions(_ count: Int, _ db: Database) throws {
        let last = try db.scalar(
            Int64.self, sql: """
                SELECT max(ifnull((SELECT seq FROM sqlite_sequence WHERE name = ?), 0), ifnull((SELECT max(seq) FROM \(tableName)), 0))
                """, arguments: [tableName]) ?? 0
        try db.execute(sql: "UPDATE sqlite_sequence SET seq = ? WHERE name = ?", arguments: [last + Int64(count), tableName])
        if db.changesCount == 0 {
            try db.execute(sql: "INSERT INTO sqlite_sequence(name, seq) VALUES (?, ?)", arguments: [tableName, last + Int64(count)])
        }
    }

    /// The name of the trigger that logs the inserts into `table`.
    static func insertTriggerName(forTable table: String) -> String { "\(tableName)_\(table)_insert" }
}
