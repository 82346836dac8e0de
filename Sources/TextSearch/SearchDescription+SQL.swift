extension SearchDescription {
    /// The SQL that creates the index structures of the search, fills them from the rows already in
    /// the table, and installs the triggers that keep them as rows change: for a migration.
    ///
    /// ```swift
    /// print(SearchDescription(table: "films", textColumns: ["title_folded"]).installSQL)
    /// ```
    ///
    /// - ``fullTextTable``: FTS5 with the trigram tokenizer, `case_sensitive 1` (texts are already
    ///   folded; a second folding could only add false matches), so that a phrase of 3+ scalars
    ///   matches exactly the rows whose folded text contains it.
    /// - ``suffixesTable``: for each scalar of each text that is not a space, the text from there on,
    ///   cut to ``suffixLength``. A term is a substring of a text exactly when it is the prefix of one
    ///   of its suffixes, so the rows holding a term are one range of this index. Terms hold no white
    ///   space, so no match starts at a space.
    /// - ``gramCountsTable``: how many rows (per scope value) hold each 1- and 2-scalar gram, so that
    ///   a short term's total is one row. A count that falls to 0 stays as a row.
    ///
    /// SQLite's `substr()` and `length()` count the scalars of TEXT, the unit of terms and trigrams.
    public var installSQL: String { structuresSQL + buildSQL + triggersSQL }

    /// The SQL that drops the triggers and index structures ``installSQL`` creates.
    public var uninstallSQL: String { dropTriggersSQL + dropStructuresSQL }

    /// The SQL that creates the index structures, empty.
    public var structuresSQL: String {
        var sql = """
            CREATE VIRTUAL TABLE \(fullTextTable) USING fts5(
                \(textColumns.joined(separator: ", ")), content = '\(table)', content_rowid = '\(idColumn)', \
            tokenize = 'trigram case_sensitive 1'
            );

            """
        if let suffixesTable, let gramCountsTable {
            sql += """
                CREATE TABLE \(suffixesTable) (
                    suffix TEXT NOT NULL,
                    id INTEGER NOT NULL,
                    PRIMARY KEY (suffix, id)
                ) STRICT, WITHOUT ROWID;
                CREATE TABLE \(gramCountsTable) (
                    gram TEXT NOT NULL,
                \(scopeColumn.map { "    \($0) ANY,\n" } ?? "")    count INTEGER NOT NULL,
                    PRIMARY KEY (gram\(scopeColumn.map { ", \($0)" } ?? ""))
                ) STRICT, WITHOUT ROWID;

                """
        }
        return sql
    }

    /// The SQL that fills the empty index structures from the table's rows, in bulk: in a migration
    /// (``installSQL``), or after the structures were dropped and created again empty.
    public var buildSQL: String { buildSQL(rowsAfter: nil) }

    /// The SQL that adds to the index structures what the insert trigger (``insertTriggerName``) would
    /// have added for the rows whose id is above `id`: for a bulk insert, which drops that trigger,
    /// inserts the rows, runs this SQL and creates the trigger again, all in one transaction.
    ///
    /// ```swift
    /// try db.execute(sql: films.buildSQL(forRowsAfter: 1_000))  // index the rows 1001, 1002, …
    /// ```
    ///
    /// Every structure of ``structuresSQL`` is built, each in one sorted pass over the new rows; the
    /// rows at or below `id` must already be indexed, the ones above it not at all.
    public func buildSQL(forRowsAfter id: Int64) -> String { buildSQL(rowsAfter: id) }

    /// The SQL that builds the structures for every row (nil) or for the rows whose id is above `id`.
    private func buildSQL(rowsAfter id: Int64?) -> String {
        let newRows = id.map { " AND \(idColumn) > \($0)" } ?? ""
        var sql = id == nil
            ? "INSERT INTO \(fullTextTable)(\(fullTextTable)) VALUES ('rebuild');\n"
            : "INSERT INTO \(fullTextTable)(rowid, \(textColumns.joined(separator: ", "))) "
                + "SELECT \(idColumn), \(textColumns.joined(separator: ", ")) FROM \(table) WHERE true\(newRows) ORDER BY \(idColumn);\n"
        if let suffixesTable, let gramCountsTable, let suffixLength {
            let texts = textColumns.map { column in
                "SELECT \(idColumn) AS id, \(scopeColumn ?? "NULL") AS scope, \(column) AS text, 1 AS n "
                    + "FROM \(table) WHERE length(\(column)) > 0\(newRows)"
            }.joined(separator: "\n        UNION ALL\n        ")
            let positions = """
                WITH RECURSIVE positions(id, scope, text, n) AS (
                        \(texts)
                        UNION ALL
                        SELECT id, scope, text, n + 1 FROM positions WHERE n < length(text)
                    )
                """
            // Rows added to non-empty structures: suffixes in key order (appended, not scattered), and
            // counts added to those of the grams already counted.
            let sorted = id == nil ? "" : " ORDER BY 1, 2"
            let addingToCounts = id == nil ? "" :
                " ON CONFLICT (gram\(scopeColumn.map { ", \($0)" } ?? "")) DO UPDATE SET count = count + excluded.count"
            sql += """
                INSERT OR IGNORE INTO \(suffixesTable)(suffix, id)
                    \(positions)
                    SELECT substr(text, n, \(suffixLength.scalars)), id FROM positions WHERE substr(text, n, 1) <> ' '\(sorted);
                INSERT INTO \(gramCountsTable)(gram\(scopeColumn.map { ", \($0)" } ?? ""), count)
                    SELECT gram\(scopeColumn.map { _ in ", scope" } ?? ""), count(*) FROM (
                    \(positions)
                    SELECT substr(text, n, 1) AS gram, id, scope FROM positions
                    UNION
                    SELECT substr(text, n, 2) AS gram, id, scope FROM positions WHERE n < length(text)
                    )\(id == nil ? "" : " WHERE true") GROUP BY gram\(scopeColumn.map { _ in ", scope" } ?? "")\(addingToCounts);

                """
        }
        return sql
    }

    /// The SQL of the triggers that keep the index structures as rows are inserted, updated, deleted.
    public var triggersSQL: String {
        let columns = textColumns.joined(separator: ", ")
        let values = { (row: String) in textColumns.map { "\(row).\($0)" }.joined(separator: ", ") }
        let watched = (textColumns + (scopeColumn.map { [$0] } ?? [])).joined(separator: ", ")
        let fullTextDelete = """
                INSERT INTO \(fullTextTable)(\(fullTextTable), rowid, \(columns)) VALUES ('delete', old.\(idColumn), \(values("old")));
            """
        let fullTextInsert = """
                INSERT INTO \(fullTextTable)(rowid, \(columns)) VALUES (new.\(idColumn), \(values("new")));
            """
        var inserts = [fullTextInsert]
        var deletes = [fullTextDelete]
        if let suffixesTable, let gramCountsTable, let suffixLength {
            let length = suffixLength.scalars
            let scope = { (row: String) in scopeColumn.map { " AND \($0) IS \(row).\($0)" } ?? "" }
            inserts += [
                """
                    INSERT OR IGNORE INTO \(suffixesTable)(suffix, id)
                        \(positions("new"))
                        SELECT substr(text, n, \(length)), new.\(idColumn) FROM positions WHERE substr(text, n, 1) <> ' ';
                """,
                """
                    INSERT INTO \(gramCountsTable)(gram\(scopeColumn.map { ", \($0)" } ?? ""), count)
                        SELECT gram\(scopeColumn.map { ", new.\($0)" } ?? ""), 1 FROM (
                        \(grams("new"))
                        ) WHERE true
                        ON CONFLICT (gram\(scopeColumn.map { ", \($0)" } ?? "")) DO UPDATE SET count = count + 1;
                """,
            ]
            deletes += [
                """
                    DELETE FROM \(suffixesTable) WHERE id = old.\(idColumn) AND suffix IN (
                        \(positions("old"))
                        SELECT substr(text, n, \(length)) FROM positions
                    );
                """,
                """
                    UPDATE \(gramCountsTable) SET count = count - 1 WHERE gram IN (
                        \(grams("old"))
                    )\(scope("old"));
                """,
            ]
        }
        return """
            CREATE TRIGGER \(insertTriggerName) AFTER INSERT ON \(table) BEGIN
            \(inserts.joined(separator: "\n"))
            END;
            CREATE TRIGGER \(table)_search_delete AFTER DELETE ON \(table) BEGIN
            \(deletes.joined(separator: "\n"))
            END;
            CREATE TRIGGER \(table)_search_update AFTER UPDATE OF \(watched) ON \(table) BEGIN
            \((deletes + inserts).joined(separator: "\n"))
            END;

            """
    }

    /// The name of the trigger of ``triggersSQL`` that indexes an inserted row: the one a bulk insert
    /// drops, replacing it by ``buildSQL(forRowsAfter:)``.
    public var insertTriggerName: String { "\(table)_search_insert" }

    /// The SQL that drops the triggers of ``triggersSQL``.
    public var dropTriggersSQL: String {
        ["insert", "delete", "update"].map { "DROP TRIGGER IF EXISTS \(table)_search_\($0);\n" }.joined()
    }

    /// The SQL that drops the index structures of ``structuresSQL``.
    public var dropStructuresSQL: String {
        ([fullTextTable] + [suffixesTable, gramCountsTable].compactMap { $0 })
            .map { "DROP TABLE IF EXISTS \($0);\n" }.joined()
    }

    /// The positions of the row's texts: `positions(text, n)`, one row per scalar of each non-empty text.
    private func positions(_ row: String) -> String {
        let texts = textColumns.map { "SELECT \(row).\($0), 1 WHERE length(\(row).\($0)) > 0" }
            .joined(separator: " UNION ALL ")
        return """
            WITH RECURSIVE positions(text, n) AS (
                        \(texts)
                        UNION ALL
                        SELECT text, n + 1 FROM positions WHERE n < length(text)
                    )
            """
    }

    /// The distinct 1- and 2-scalar grams of the row's texts, as `gram`.
    private func grams(_ row: String) -> String {
        """
        \(positions(row))
                SELECT substr(text, n, 1) AS gram FROM positions
                UNION
                SELECT substr(text, n, 2) AS gram FROM positions WHERE n < length(text)
        """
    }
}
