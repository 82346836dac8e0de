extension SearchDescription {
    /// The three triggers that keep a table derived from the texts (``substringCountsTable``,
    /// ``gramBitsTable``), named `<table>_<name>_insert`, `_delete` and `_update`: `insert` after an
    /// insert, `delete` after a delete, both after an update of `watched` (comma-separated columns).
    func maintainingTriggersSQL(named name: String, insert: String, delete: String, watched: String) -> String {
        """
        CREATE TRIGGER \(maintainingTriggerName(name, after: "insert")) AFTER INSERT ON \(table) BEGIN
        \(insert)
        END;
        CREATE TRIGGER \(maintainingTriggerName(name, after: "delete")) AFTER DELETE ON \(table) BEGIN
        \(delete)
        END;
        CREATE TRIGGER \(maintainingTriggerName(name, after: "update")) AFTER UPDATE OF \(watched) ON \(table) BEGIN
        \(delete)
        \(insert)
        END;

        """
    }

    /// The name of the trigger of ``maintainingTriggersSQL(named:insert:delete:watched:)`` run after
    /// each `event` (`insert`, `delete` or `update`) on the table: the one source of the names.
    func maintainingTriggerName(_ name: String, after event: String) -> String { "\(table)_\(name)_\(event)" }

    /// The SQL that drops `derivedTable` and its triggers named `name`.
    func dropMaintainedTableSQL(_ derivedTable: String, named name: String) -> String {
        ["insert", "delete", "update"].map { "DROP TRIGGER IF EXISTS \(maintainingTriggerName(name, after: $0));\n" }.joined()
            + "DROP TABLE IF EXISTS \(derivedTable);\n"
    }
}
