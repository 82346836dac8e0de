extension Database {
    /// The problems `PRAGMA integrity_check` finds in the database file, one a line: empty when it is
    /// sound.
    ///
    /// It reads every page of the file: b-tree structure, free list, record formats, `NOT NULL`,
    /// `CHECK` and `UNIQUE` constraints, and that every index matches its table.
    ///
    /// With `cell_size_check` on, SQLite may stop the check with `SQLITE_CORRUPT` at a page whose cells
    /// do not fit in it, after the problems it found before: those are returned, then that error's
    /// message.
    ///
    /// - Parameter limit: the most problems reported (SQLite stops looking after that many).
    /// - Throws: ``DatabaseError`` when the file cannot be read at all (`SQLITE_CORRUPT` before any
    ///   problem was reported, `SQLITE_NOTADB`).
    ///
    /// Related SQLite documentation: <https://www.sqlite.org/pragma.html#pragma_integrity_check>
    public func integrityProblems(limit: Int = 100) throws -> [String] {
        try checkProblems(sql: "PRAGMA integrity_check(\(max(1, limit)))")
    }

    /// The problems `PRAGMA quick_check` finds: empty when there is none.
    ///
    /// Like ``integrityProblems(limit:)`` it reads every page, but it does not check that indexes match
    /// their tables (nor `UNIQUE` constraints), which makes it several times faster.
    ///
    /// Related SQLite documentation: <https://www.sqlite.org/pragma.html#pragma_quick_check>
    public func quickCheckProblems(limit: Int = 100) throws -> [String] {
        try checkProblems(sql: "PRAGMA quick_check(\(max(1, limit)))")
    }

    /// The problems a check pragma reports, one a line, empty for `ok`; when the damage stops the check
    /// after it reported something, what it reported and the error that stopped it.
    ///
    /// SQLite gives the problems it found in one row, a line each, after a line naming the database
    /// (`*** in database main ***`), which is left out.
    private func checkProblems(sql: String) throws -> [String] {
        var lines: [String] = []
        do {
            try cachedStatement(sql: sql).forEachRow { row in
                let text = try row.decode(String.self, at: 0)
                lines += text.split(separator: "\n").map(String.init).filter { !($0.hasPrefix("*** in database ") && $0.hasSuffix(" ***")) }
            }
        } catch let error as DatabaseError where ResultCode.SQLITE_CORRUPT ~= error.resultCode && !lines.isEmpty {
            lines.append(error.message)
        }
        return lines == ["ok"] ? [] : lines
    }

    /// Whether the FTS5 table `table` is sound and, for an external-content table, holds exactly the
    /// rows of its content table; nil when it does, else SQLite's message.
    ///
    /// Runs the FTS5 `integrity-check` command with a rank of 1, which also compares an external-content
    /// index with its table (without it, SQLite checks only the index's own structure).
    ///
    /// Related SQLite documentation: <https://www.sqlite.org/fts5.html#the_integrity_check_command>
    public func fullTextIndexProblem(_ table: String) throws -> String? {
        do {
            try execute(sql: "INSERT INTO \(table)(\(table), rank) VALUES ('integrity-check', 1)")
            return nil
        } catch let error as DatabaseError where ResultCode.SQLITE_CORRUPT ~= error.resultCode {
            return "\(table): \(error.message)"
        }
    }
}
