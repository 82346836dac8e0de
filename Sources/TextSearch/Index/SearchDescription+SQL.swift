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
    /// - ``gramsTable``: a contentless FTS5 table (`content=''`, `detail=none`, `columnsize=0`: it keeps
    ///   only which rows hold each token) whose document for a row is ``gramsDocument(of:)``: the
    ///   distinct 1-scalar grams that are not a space and 2-scalar grams that hold no space, of every
    ///   text column, each written as the `hex()` of its UTF-8 bytes, then `x` and the `hex()` of the
    ///   scope value (when there is a scope column, the value is not NULL and there are no
    ///   ``scopeValues``: with them, the rowid carries the scope, ``indexRowID(of:)``), space-separated, in
    ///   ascending order. A term of 1-2 scalars (terms hold no white space) is a substring of a text
    ///   exactly when it is one of its grams, so its rows are exactly those of its token; several
    ///   short terms and a scope are one FTS5 query of tokens joined by AND. Hexadecimal tokens pass
    ///   FTS5's default tokenizer unchanged (it only lowercases them), hex is one-to-one on texts,
    ///   and no hexadecimal token starts with `x`, so grams and scope values never collide.
    /// - ``gramCountsTable``: how many rows (per scope value) hold each 1- and 2-scalar gram, so that
    ///   a short term's total is one row. A count that falls to 0 stays as a row.
    /// - ``substringCountsTable`` (``substringCountsSQL``): created empty; call
    ///   ``refreshSubstringCounts(_:)`` after it to choose the frequent substrings it counts.
    /// - ``gramBitsTable`` (``gramBitsSQL``): created empty; call ``refreshGramBits(_:)`` after it to
    ///   choose the very common 1-scalar grams it holds.
    ///
    /// The triggers of ``triggersSQL`` keep all of them.
    ///
    /// SQLite's `substr()` and `length()` count the scalars of TEXT, the unit of terms and trigrams.
    /// A contentless table forgets its documents: the delete and update triggers recompute the
    /// document from the old row, in the same order, for FTS5's `'delete'` command.
    ///
    /// Related SQLite documentation: <https://www.sqlite.org/fts5.html#contentless_tables>
    public var installSQL: String {
        structuresSQL + keptAccelerators.map { $0.createSQL(for: self) }.joined() + buildSQL + triggersSQL
    }

    /// The SQL that drops the triggers and index structures ``installSQL`` creates.
    public var uninstallSQL: String { dropTriggersSQL + dropStructuresSQL }

    /// The SQL that creates the index structures of the trigram and grams indexes, empty (the tables
    /// of ``substringCountsSQL`` and ``gramBitsSQL`` are created apart).
    public var structuresSQL: String {
        var sql = fullTextTableSQL + "\n"
        if let gramsTable, let gramCountsTable {
            sql += """
                \(gramsTableSQL(gramsTable))
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
    /// (``installSQL``), or after the structures were dropped and created again empty. A bulk insert
    /// builds them for its new rows with ``build(forRowsAfter:_:)`` instead, which computes the grams
    /// in Swift.
    public var buildSQL: String {
        var sql = fullTextBuildStatements(rowsAfter: nil).joined()
        if let gramsTable, let gramCountsTable {
            sql += gramsBuildSQL(gramsTable)
            let texts = textColumns.map { column in
                "SELECT \(idColumn) AS id, \(scopeColumn ?? "NULL") AS scope, \(column) AS text, 1 AS n "
                    + "FROM \(table) WHERE length(\(column)) > 0"
            }.joined(separator: "\n        UNION ALL\n        ")
            let positions = """
                WITH RECURSIVE positions(id, scope, text, n) AS (
                        \(texts)
                        UNION ALL
                        SELECT id, scope, text, n + 1 FROM positions WHERE n < length(text)
                    )
                """
            sql += """
                INSERT INTO \(gramCountsTable)(gram\(scopeColumn.map { ", \($0)" } ?? ""), count)
                    SELECT gram\(scopeColumn.map { _ in ", scope" } ?? ""), count(*) FROM (
                    \(positions)
                    SELECT substr(text, n, 1) AS gram, id, scope FROM positions
                    UNION
                    SELECT substr(text, n, 2) AS gram, id, scope FROM positions WHERE n < length(text)
                    ) GROUP BY gram\(scopeColumn.map { _ in ", scope" } ?? "");

                """
        }
        return sql
    }

    /// The statement that creates ``fullTextTable``: external content (``table``), or, when the rowids
    /// carry the scope, contentless with `columnsize = 0` (a search reads neither texts nor sizes).
    private var fullTextTableSQL: String {
        let storage = rowIDsCarryScope
            ? "content = '', columnsize = 0"
            : "content = '\(table)', content_rowid = '\(idColumn)'"
        return """
            CREATE VIRTUAL TABLE \(fullTextTable) USING fts5(
                \(textColumns.joined(separator: ", ")), \(storage), tokenize = 'trigram case_sensitive 1'
            );
            """
    }

    /// The statements that add to ``fullTextTable`` the rows of every row (nil) or of those whose id
    /// is above `id`, in rowid order (one per scope number: ``scopeNumberConditions(of:)``).
    func fullTextBuildStatements(rowsAfter id: Int64?) -> [String] {
        if id == nil, !rowIDsCarryScope {
            return ["INSERT INTO \(fullTextTable)(\(fullTextTable)) VALUES ('rebuild');\n"]
        }
        let columns = textColumns.joined(separator: ", ")
        return scopeNumberConditions(of: table).map { condition in
            "INSERT INTO \(fullTextTable)(rowid, \(columns)) SELECT \(indexRowID(of: table)) AS rowid, \(columns) "
                + "FROM \(table) WHERE \(condition)\(id.map { " AND \(idColumn) > \($0)" } ?? "") ORDER BY \(idColumn);\n"
        }
    }

    /// The SQL that drops the index structures of ``structuresSQL``, ``substringCountsSQL`` and
    /// ``gramBitsSQL``.
    public var dropStructuresSQL: String {
        ([fullTextTable] + [gramsTable, gramCountsTable].compactMap { $0 } + keptAccelerators.map { $0.table(of: self) })
            .map { "DROP TABLE IF EXISTS \($0);\n" }.joined()
    }

    /// The document of ``gramsTable`` for the row named `row` (`new`, `old`, or the table in a bulk
    /// build), as one SQL expression: its tokens, distinct, in ascending order, space-separated (an
    /// empty text without a scope gives ''). The triggers and the migrations' build use this one
    /// expression, so that a delete removes what was added; a bulk insert computes the same document
    /// in Swift (``build(forRowsAfter:_:)``).
    ///
    /// ```swift
    /// films.gramsDocument(of: "films")  // for 'ab': '61 6162 62'
    /// ```
    public func gramsDocument(of row: String) -> String {
        // With rowids that carry the scope, the scope is a rowid range rather than a token.
        let scopeToken = scopeColumn.flatMap { rowIDsCarryScope ? nil : $0 }.map {
            " UNION SELECT 'x' || hex(\(row).\($0)) WHERE \(row).\($0) IS NOT NULL"
        } ?? ""
        // UNION keeps each token once; the aggregate over no token is NULL.
        return "(SELECT ifnull(group_concat(g, ' '), '') FROM (\(positions(row)) "
            + "SELECT hex(substr(t, n, 1)) AS g FROM p WHERE substr(t, n, 1) <> ' ' "
            + "UNION SELECT hex(substr(t, n, 2)) FROM p WHERE n < length(t) AND instr(substr(t, n, 2), ' ') = 0"
            + "\(scopeToken) ORDER BY 1))"
    }

    /// The statement that creates ``gramsTable``.
    private func gramsTableSQL(_ gramsTable: String) -> String {
        "CREATE VIRTUAL TABLE \(gramsTable) USING fts5(grams, content = '', detail = none, columnsize = 0);"
    }

    /// The statements that add the documents of every row, in rowid order (``scopeNumberConditions(of:)``).
    private func gramsBuildSQL(_ gramsTable: String) -> String {
        scopeNumberConditions(of: table).map { condition in
            """
            INSERT INTO \(gramsTable)(rowid, grams)
                SELECT \(indexRowID(of: table)) AS rowid, \(gramsDocument(of: table)) FROM \(table) WHERE \(condition) ORDER BY \(idColumn);

            """
        }.joined()
    }

    /// The positions of the row's texts, as a recursive common table expression `p(t, n)`: one row
    /// per scalar of each non-empty text `t`, `n` from 1.
    func positions(_ row: String) -> String {
        let texts = textColumns.map { "SELECT \(row).\($0), 1 WHERE length(\(row).\($0)) > 0 UNION ALL " }.joined()
        return "WITH RECURSIVE p(t, n) AS (\(texts)SELECT t, n + 1 FROM p WHERE n < length(t))"
    }

    /// The distinct 1- and 2-scalar grams of the row's texts, as `g`.
    func grams(_ row: String) -> String {
        "\(positions(row)) SELECT substr(t, n, 1) AS g FROM p UNION SELECT substr(t, n, 2) FROM p WHERE n < length(t)"
    }
}
