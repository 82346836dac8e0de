extension SearchDescription {
    /// The SQL of the triggers that keep every index structure of the search (``fullTextTable``,
    /// ``gramsTable``, ``gramCountsTable``, ``substringCountsTable``, ``gramBitsTable``) as rows are
    /// inserted, updated, deleted: by any writer, as they are SQL. The tables must exist before the
    /// first write (``structuresSQL``, ``substringCountsSQL``, ``gramBitsSQL``).
    ///
    /// ```swift
    /// try db.execute(sql: films.triggersSQL)  // in a migration, after the structures
    /// ```
    ///
    /// The table's triggers are `<table>_search_insert` (``insertTriggerName``), `<table>_search_delete`
    /// and `<table>_search_update` (after an update of the id, a text or the scope: the old row is
    /// removed, then the new one added). With more than the trigram index to keep, what a row changes
    /// is written once, in the `INSTEAD OF INSERT` trigger `<table>_search_change` of an empty view
    /// `<table>_search_changes(change, <id>, <scope>, <texts>)`, to which the table's triggers pass
    /// the row with `change` 1 to add it and -1 to remove it: a removal writes FTS5's `'delete'`
    /// command, adds -1 to the counts and clears the bits that the row's addition set, in the same
    /// statements, so that its entries must be there (they are: added with the row, or by a bulk
    /// build or a refresh of the chosen sets). SQLite parses every trigger whole when a connection
    /// first reads the schema: written once, rather than in the insert, delete and update triggers of
    /// each structure, the products' search triggers parse faster (W7 start-up). A table with the
    /// trigram index alone writes its one statement in each of its triggers, which parses faster than
    /// a view and its trigger (the phones').
    public var triggersSQL: String {
        let columns = [idColumn] + (scopeColumn.map { [$0] } ?? []) + textColumns
        let list = columns.joined(separator: ", ")
        guard gramsTable != nil || !keptAccelerators.isEmpty else {
            return """
                CREATE TRIGGER \(insertTriggerName) AFTER INSERT ON \(table) BEGIN
                \(fullTextSQL("new", command: nil))
                END;
                CREATE TRIGGER \(table)_search_delete AFTER DELETE ON \(table) BEGIN
                \(fullTextSQL("old", command: "'delete'"))
                END;
                CREATE TRIGGER \(table)_search_update AFTER UPDATE OF \(list) ON \(table) BEGIN
                \(fullTextSQL("old", command: "'delete'"))
                \(fullTextSQL("new", command: nil))
                END;

                """
        }
        let change = { (sign: Int, row: String) in
            "    INSERT INTO \(changesView) VALUES (\(sign), \(columns.map { "\(row).\($0)" }.joined(separator: ", ")));"
        }
        return """
            CREATE VIEW \(changesView)(change, \(list)) AS SELECT NULL, \(columns.map { _ in "NULL" }.joined(separator: ", ")) WHERE false;
            CREATE TRIGGER \(table)_search_change INSTEAD OF INSERT ON \(changesView) BEGIN
            \(changedRowSQL.joined(separator: "\n"))
            END;
            CREATE TRIGGER \(insertTriggerName) AFTER INSERT ON \(table) BEGIN
            \(change(1, "new"))
            END;
            CREATE TRIGGER \(table)_search_delete AFTER DELETE ON \(table) BEGIN
            \(change(-1, "old"))
            END;
            CREATE TRIGGER \(table)_search_update AFTER UPDATE OF \(list) ON \(table) BEGIN
            \(change(-1, "old"))
            \(change(1, "new"))
            END;

            """
    }

    /// The name of the trigger of ``triggersSQL`` that indexes an inserted row: the one a bulk insert
    /// drops, replacing it by ``build(forRowsAfter:_:)``.
    public var insertTriggerName: String { "\(table)_search_insert" }

    /// The SQL that drops the triggers and the view of ``triggersSQL``, where they exist.
    public var dropTriggersSQL: String {
        let triggers = ["insert", "delete", "update", "change"].map { "\(table)_search_\($0)" }
        return triggers.map { "DROP TRIGGER IF EXISTS \($0);\n" }.joined() + "DROP VIEW IF EXISTS \(changesView);\n"
    }

    /// The empty view whose `INSTEAD OF INSERT` trigger adds a row to, or removes it from, the index
    /// structures.
    private var changesView: String { "\(table)_search_changes" }

    /// The statement that adds the row named `row` to ``fullTextTable`` (`command` nil), or gives
    /// FTS5 the `command` for it (`'delete'`, or an SQL expression that is `'delete'` or NULL: FTS5
    /// inserts the row when its command column is NULL).
    private func fullTextSQL(_ row: String, command: String?) -> String {
        let columns = textColumns.joined(separator: ", ")
        let values = textColumns.map { "\(row).\($0)" }.joined(separator: ", ")
        return "    INSERT INTO \(fullTextTable)(\(command.map { _ in "\(fullTextTable), " } ?? "")rowid, \(columns)) "
            + "VALUES (\(command.map { "\($0), " } ?? "")\(inRangeRowID(of: row)), \(values));"
    }

    /// The statements of `<table>_search_change`: they add the row `new` to every index structure
    /// when `new.change` is 1, and remove it when it is -1.
    private var changedRowSQL: [String] {
        // A scoped rowid holds ids in 0...largestScopedID only: a row outside fails with a clear
        // message (a row removed was added, so it is inside).
        let idRangeCheck = rowIDsCarryScope ? ["""
                SELECT RAISE(ABORT, '\(table).\(idColumn) must be from 0 to \(Self.largestScopedID) for the search index') \
            WHERE new.\(idColumn) NOT BETWEEN 0 AND \(Self.largestScopedID);
            """] : []
        let command = "CASE WHEN new.change < 0 THEN 'delete' END"
        var statements = idRangeCheck + [fullTextSQL("new", command: command)]
        if let gramsTable, let gramCountsTable {
            let scope = scopeColumn.map { ", \($0)" } ?? ""
            statements += [
                "    INSERT INTO \(gramsTable)(\(gramsTable), rowid, grams) "
                    + "VALUES (\(command), \(inRangeRowID(of: "new")), \(gramsDocument(of: "new")));",
                "    INSERT INTO \(gramCountsTable)(gram\(scope), count) SELECT g\(scopeColumn.map { ", new.\($0)" } ?? ""), new.change "
                    + "FROM (\(grams("new"))) WHERE true ON CONFLICT (gram\(scope)) DO UPDATE SET count = count + excluded.count;",
            ]
        }
        return statements + keptAccelerators.flatMap { $0.changedRowSQL(for: self) }
    }
}
