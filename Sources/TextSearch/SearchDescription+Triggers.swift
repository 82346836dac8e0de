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
    /// and `<table>_search_update` (after an update of the id, a text or the scope). With more than
    /// the trigram index to keep, what a row adds is written once, in the `INSTEAD OF INSERT` trigger
    /// `<table>_search_add` of an empty view `<table>_search_added` (the row's id, scope and text
    /// columns), and what it removes once, in `<table>_search_remove` of `<table>_search_removed`; the
    /// table's triggers pass them the row: the insert trigger the new row to the first, the delete
    /// trigger the old row to the second, the update trigger both. SQLite parses every trigger whole
    /// when a connection first reads the schema: written once, rather than once in the insert and
    /// again in the update trigger of each structure, the SQL of the products' search parses in
    /// 2.4 million fewer instructions (callgrind of `sqlite3 -readonly DB "select 1 from products
    /// limit 1"` on the benchmark's 10,000 products, 2026-11-27).
    public var triggersSQL: String {
        let columns = triggerColumns
        let list = columns.joined(separator: ", ")
        guard keepsMoreThanTheTrigramIndex else {
            return """
                CREATE TRIGGER \(insertTriggerName) AFTER INSERT ON \(table) BEGIN
                \(addedRowSQL("new").joined(separator: "\n"))
                END;
                CREATE TRIGGER \(table)_search_delete AFTER DELETE ON \(table) BEGIN
                \(removedRowSQL("old").joined(separator: "\n"))
                END;
                CREATE TRIGGER \(table)_search_update AFTER UPDATE OF \(list) ON \(table) BEGIN
                \((removedRowSQL("old") + addedRowSQL("new")).joined(separator: "\n"))
                END;

                """
        }
        let values = { (row: String) in columns.map { "\(row).\($0)" }.joined(separator: ", ") }
        let view = { (name: String) in
            "CREATE VIEW \(name)(\(list)) AS SELECT \(columns.map { _ in "NULL" }.joined(separator: ", ")) WHERE false;\n"
        }
        return view(addedRowsView) + view(removedRowsView) + """
            CREATE TRIGGER \(table)_search_add INSTEAD OF INSERT ON \(addedRowsView) BEGIN
            \(addedRowSQL("new").joined(separator: "\n"))
            END;
            CREATE TRIGGER \(table)_search_remove INSTEAD OF INSERT ON \(removedRowsView) BEGIN
            \(removedRowSQL("new").joined(separator: "\n"))
            END;
            CREATE TRIGGER \(insertTriggerName) AFTER INSERT ON \(table) BEGIN
                INSERT INTO \(addedRowsView) VALUES (\(values("new")));
            END;
            CREATE TRIGGER \(table)_search_delete AFTER DELETE ON \(table) BEGIN
                INSERT INTO \(removedRowsView) VALUES (\(values("old")));
            END;
            CREATE TRIGGER \(table)_search_update AFTER UPDATE OF \(list) ON \(table) BEGIN
                INSERT INTO \(removedRowsView) VALUES (\(values("old")));
                INSERT INTO \(addedRowsView) VALUES (\(values("new")));
            END;

            """
    }

    /// The name of the trigger of ``triggersSQL`` that indexes an inserted row: the one a bulk insert
    /// drops, replacing it by ``build(forRowsAfter:_:)``.
    public var insertTriggerName: String { "\(table)_search_insert" }

    /// The SQL that drops the triggers and views of ``triggersSQL``, and the triggers earlier
    /// versions of this module installed (`<table>_substring_counts_insert`, `_delete`, `_update`,
    /// `<table>_gram_bits_…`), where they exist.
    public var dropTriggersSQL: String {
        let triggers = ["search", "substring_counts", "gram_bits"].flatMap { name in
            ["insert", "delete", "update"].map { "\(table)_\(name)_\($0)" }
        } + ["\(table)_search_add", "\(table)_search_remove"]
        return triggers.map { "DROP TRIGGER IF EXISTS \($0);\n" }.joined()
            + [addedRowsView, removedRowsView].map { "DROP VIEW IF EXISTS \($0);\n" }.joined()
    }

    /// The SQL that replaces, in place, the triggers that keep the index structures by those of
    /// ``triggersSQL``: for a migration of a database whose search an earlier version of this module
    /// installed (three triggers for each of the search, ``substringCountsTable`` and
    /// ``gramBitsTable``, each writing its SQL in the insert and again in the update trigger). The
    /// new triggers change the same rows in the same way, so the structures stay as they are; they
    /// also follow a change of a row's id, which the earlier search triggers ignored.
    ///
    /// ```swift
    /// try db.execute(sql: films.triggersReplacementSQL)  // in a new migration
    /// ```
    public var triggersReplacementSQL: String { dropTriggersSQL + triggersSQL }

    /// Whether the triggers keep more than ``fullTextTable``: then what a row adds and removes is
    /// written once each, behind the views; a table with the trigram index alone writes its one
    /// statement in each trigger, which parses in fewer instructions than two views and their
    /// triggers (the phones' triggers, 118,000 instructions fewer, callgrind, 2026-11-27).
    private var keepsMoreThanTheTrigramIndex: Bool {
        gramsTable != nil || substringCountsTable != nil || gramBitsTable != nil
    }

    /// The columns the triggers pass to the views, in order: the id, the scope column, the text columns.
    private var triggerColumns: [String] { [idColumn] + (scopeColumn.map { [$0] } ?? []) + textColumns }

    /// The empty view whose `INSTEAD OF INSERT` trigger adds a row to the index structures.
    private var addedRowsView: String { "\(table)_search_added" }

    /// The empty view whose `INSTEAD OF INSERT` trigger removes a row from the index structures.
    private var removedRowsView: String { "\(table)_search_removed" }

    /// The statements that add the row named `row` to every index structure.
    private func addedRowSQL(_ row: String) -> [String] {
        // A scoped rowid holds ids in 0...largestScopedID only: a row outside fails with a clear message.
        let idRangeCheck = rowIDsCarryScope ? ["""
                SELECT RAISE(ABORT, '\(table).\(idColumn) must be from 0 to \(Self.largestScopedID) for the search index') \
            WHERE \(row).\(idColumn) NOT BETWEEN 0 AND \(Self.largestScopedID);
            """] : []
        let columns = textColumns.joined(separator: ", ")
        let values = textColumns.map { "\(row).\($0)" }.joined(separator: ", ")
        var statements = idRangeCheck + [
            "    INSERT INTO \(fullTextTable)(rowid, \(columns)) VALUES (\(inRangeRowID(of: row)), \(values));"
        ]
        if let gramsTable, let gramCountsTable {
            let scope = scopeColumn.map { ", \($0)" } ?? ""
            statements += [
                "    INSERT INTO \(gramsTable)(rowid, grams) VALUES (\(inRangeRowID(of: row)), \(gramsDocument(of: row)));",
                "    INSERT INTO \(gramCountsTable)(gram\(scope), count) SELECT g\(scopeColumn.map { ", \(row).\($0)" } ?? ""), 1 "
                    + "FROM (\(grams(row))) WHERE true ON CONFLICT (gram\(scope)) DO UPDATE SET count = count + 1;",
            ]
        }
        return statements + substringCountsAddedRowSQL(row) + gramBitsAddedRowSQL(row)
    }

    /// The statements that remove the row named `row` (the row deleted, or the row before an update)
    /// from every index structure. A contentless table forgets its documents: the row's document is
    /// computed again, the same way, for FTS5's `'delete'` command.
    private func removedRowSQL(_ row: String) -> [String] {
        let columns = textColumns.joined(separator: ", ")
        let values = textColumns.map { "\(row).\($0)" }.joined(separator: ", ")
        var statements = [
            "    INSERT INTO \(fullTextTable)(\(fullTextTable), rowid, \(columns)) VALUES ('delete', \(inRangeRowID(of: row)), \(values));"
        ]
        if let gramsTable, let gramCountsTable {
            statements += [
                "    INSERT INTO \(gramsTable)(\(gramsTable), rowid, grams) VALUES ('delete', \(inRangeRowID(of: row)), \(gramsDocument(of: row)));",
                "    UPDATE \(gramCountsTable) SET count = count - 1 WHERE gram IN (\(grams(row)))"
                    + "\(scopeColumn.map { " AND \($0) IS \(row).\($0)" } ?? "");",
            ]
        }
        return statements + substringCountsRemovedRowSQL(row) + gramBitsRemovedRowSQL(row)
    }
}
