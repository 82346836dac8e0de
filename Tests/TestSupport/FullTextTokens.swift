import SQLiteStore

/// What an FTS5 table's index holds, readable even when the table is contentless (its documents are
/// gone, its tokens are not): for a test to compare two indexes, or an index with its definition.
public enum FullTextTokens {
    /// Every token of `table` with the rows that hold it, `token: id id …`, tokens and ids ascending,
    /// read through a temporary `fts5vocab` table (so `db` must be able to write its temp schema).
    public static func rowsByToken(_ table: String, _ db: Database) throws -> [String] {
        let vocabulary = "temp.\(table)_vocabulary"
        try db.execute(sql: "CREATE VIRTUAL TABLE IF NOT EXISTS \(vocabulary) USING fts5vocab(main, \(table), 'row')")
        let tokens = try db.fetchAll(sql: "SELECT term FROM \(vocabulary) ORDER BY term") { try $0.decode(String.self, at: 0) }
        // A token whose rows were all deleted may stay listed until FTS5 merges its segments.
        return try tokens.compactMap { token in
            let ids = try db.fetchAll(
                sql: "SELECT rowid FROM \(table) WHERE \(table) MATCH ? ORDER BY rowid", arguments: ["\"\(token)\""]
            ) { String(try $0.decode(Int64.self, at: 0)) }
            return ids.isEmpty ? nil : token + ": " + ids.joined(separator: " ")
        }
    }
}
