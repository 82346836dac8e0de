import SQLiteStore
import TextSearch

extension PostgreSQLTextSearch {
    /// The SQL that creates the search's structures on the table and fills them from its rows: run it
    /// in a migration after `CREATE TABLE` (then ``load(_:columns:_:meanwhile:)`` loads the empty table in
    /// bulk), or on a table that has rows.
    ///
    /// It creates the `pg_trgm` extension when the database lacks it (Debian's `postgresql` package
    /// ships it; the extension is trusted, so the database's owner may create it).
    ///
    /// Related PostgreSQL documentation: <https://www.postgresql.org/docs/15/pgtrgm.html>
    public var installSQL: String {
        let table = description.table
        // The operator class named in the extension's schema, wherever it is: the search path may
        // not hold it.
        let trigramIndexes = description.textColumns.map { column in
            "EXECUTE format('CREATE INDEX \(trigramIndex(column)) ON \(table) USING gin (\(column) %I.gin_trgm_ops)', trigram_schema);"
        }
        return """
            CREATE EXTENSION IF NOT EXISTS pg_trgm;
            CREATE FUNCTION \(gramsFunction)(t text) RETURNS text[] LANGUAGE sql IMMUTABLE PARALLEL SAFE
                RETURN string_to_array(
                    regexp_replace(t, '..', '\\&' || chr(\(Self.gramSeparator.value)), 'g') || chr(\(Self.gramSeparator.value))
                        || regexp_replace(substr(t, 2), '..', '\\&' || chr(\(Self.gramSeparator.value)), 'g'),
                    chr(\(Self.gramSeparator.value)));
            DO $$
            DECLARE trigram_schema text := (
                SELECT nspname FROM pg_extension JOIN pg_namespace ON pg_namespace.oid = extnamespace WHERE extname = 'pg_trgm');
            BEGIN
                \(trigramIndexes.joined(separator: "\n    "))
            END
            $$;
            CREATE INDEX \(gramsIndex) ON \(table) USING gin ((\(grams(nil))));
            \(keptCountsSQL(gramCountsTable, of: "gram", by: gramCountsTrigger, held: exactGrams))\
            \(gramCountsFillSQL)
            \(substringCountsSQL)
            """
    }

    /// The SQL that creates `table`, of how many rows hold each `key` (text, `collated`) per scope
    /// value, `(key, scope, count)`, empty, and the triggers that keep each of its counts exact as
    /// rows are inserted, updated and deleted: `held(row)` is the query of the distinct keys the row
    /// `row` (`NEW`, `OLD`, or a row of a transition table) holds, as a column named `key`. Gram
    /// counts and substring counts are kept so.
    ///
    /// Inserts and deletes are counted once a statement, from its transition table (`changed`), each
    /// count changed once by the sum of its rows: counted once a row, a `COPY` into a table that has
    /// rows changed the counts of frequent keys once per row, and each change of a row left a
    /// version that the next one's lookup walked past until the transaction ended, so that each row
    /// cost more than the one before (W1b on PostgreSQL). Updates of the texts are counted once a
    /// row, as PostgreSQL allows no transition table on a trigger of named columns.
    func keptCountsSQL(_ table: String, of key: String, collated: String = "", by function: String, held: (String) -> String) -> String {
        let watched = (description.textColumns + [description.scopeColumn].compactMap { $0 }).joined(separator: ", ")
        let changed = Self.changedRows
        return """
            CREATE TABLE \(table) AS
                SELECT ''::text\(collated) AS \(key), \(scope(nil)) AS scope, 0::bigint AS count FROM \(description.table) WITH NO DATA;
            ALTER TABLE \(table) ALTER \(key) SET NOT NULL, ALTER count SET NOT NULL,
                ADD UNIQUE NULLS NOT DISTINCT (\(key), scope);
            CREATE FUNCTION \(function)() RETURNS trigger LANGUAGE plpgsql AS $$
            BEGIN
                UPDATE \(table) AS kept SET count = kept.count - 1 FROM (\(held("OLD"))) AS held
                WHERE kept.\(key) = held.\(key) AND kept.scope IS NOT DISTINCT FROM \(scope("OLD"));
                INSERT INTO \(table) AS kept (\(key), scope, count)
                SELECT held.\(key), \(scope("NEW")), 1 FROM (\(held("NEW"))) AS held
                ON CONFLICT (\(key), scope) DO UPDATE SET count = kept.count + 1;
                RETURN NULL;
            END
            $$;
            CREATE FUNCTION \(Self.statementFunction(function))() RETURNS trigger LANGUAGE plpgsql AS $$
            BEGIN
                IF TG_OP = 'INSERT' THEN
                    INSERT INTO \(table) AS kept (\(key), scope, count)
                    SELECT held.\(key), \(scope(changed)), count(*) FROM \(changed), LATERAL (\(held(changed))) AS held GROUP BY 1, 2
                    ON CONFLICT (\(key), scope) DO UPDATE SET count = kept.count + excluded.count;
                ELSE
                    UPDATE \(table) AS kept SET count = kept.count - removed.count FROM (
                        SELECT held.\(key), \(scope(changed)) AS scope, count(*) AS count
                        FROM \(changed), LATERAL (\(held(changed))) AS held GROUP BY 1, 2) AS removed
                    WHERE kept.\(key) = removed.\(key) AND kept.scope IS NOT DISTINCT FROM removed.scope;
                END IF;
                RETURN NULL;
            END
            $$;
            CREATE TRIGGER \(Self.rowsTrigger(function)) AFTER INSERT ON \(description.table)
                REFERENCING NEW TABLE AS \(changed) FOR EACH STATEMENT EXECUTE FUNCTION \(Self.statementFunction(function))();
            CREATE TRIGGER \(Self.removedTrigger(function)) AFTER DELETE ON \(description.table)
                REFERENCING OLD TABLE AS \(changed) FOR EACH STATEMENT EXECUTE FUNCTION \(Self.statementFunction(function))();
            CREATE TRIGGER \(Self.textsTrigger(function)) AFTER UPDATE OF \(watched) ON \(description.table)
                FOR EACH ROW EXECUTE FUNCTION \(function)();

            """
    }

    /// The name of the transition table of the rows a statement inserted or deleted, in the
    /// statement triggers of ``keptCountsSQL(_:of:collated:by:held:)``.
    static let changedRows = "changed"

    /// The search's triggers on the table, which ``load(_:columns:_:meanwhile:)`` disables while it loads.
    var triggers: [String] { gramTriggers + (substringCountsTable == nil ? [] : substringCountsTriggers) }

    /// The triggers that keep ``gramCountsTable``.
    var gramTriggers: [String] { Self.keepingTriggers(gramCountsTrigger) }

    /// The triggers that keep ``substringCountsTable`` (named whether the description has the table
    /// or not, for ``uninstallSQL``).
    var substringCountsTriggers: [String] { Self.keepingTriggers(substringCountsTrigger) }

    /// The triggers that run the trigger function `function` and its ``statementFunction(_:)``.
    static func keepingTriggers(_ function: String) -> [String] { [rowsTrigger(function), removedTrigger(function), textsTrigger(function)] }

    /// The function that counts the rows a statement inserted or deleted, beside the trigger
    /// function `function`, which counts updated rows.
    static func statementFunction(_ function: String) -> String { function + "_statements" }

    /// The trigger that runs ``statementFunction(_:)`` of `function` on inserts (its name is the one
    /// the trigger had that counted inserted and deleted rows one by one).
    static func rowsTrigger(_ function: String) -> String { function + "_rows" }

    /// The trigger that runs ``statementFunction(_:)`` of `function` on deletes.
    static func removedTrigger(_ function: String) -> String { function + "_removed" }

    /// The trigger that runs the trigger function `function` on updates of the texts (and scope).
    static func textsTrigger(_ function: String) -> String { function + "_texts" }

    /// The SQL that drops every structure a search of the table may have, whichever columns it
    /// indexed (each trigram index), with or without substring counts: before ``installSQL`` of a
    /// search whose columns changed (`Migration.reinstallingSearch(of:version:)`). The rows stay.
    public var uninstallSQL: String {
        let table = description.table
        let substringCounts = substringCountsTable ?? table + "_substring_counts"
        return """
            DO $$
            DECLARE index_name text;
            BEGIN
                FOR index_name IN SELECT indexname FROM pg_indexes
                    WHERE schemaname = current_schema() AND tablename = '\(table)' AND indexname::text LIKE '\(table)\\_%\\_trigram\\_index'
                LOOP
                    EXECUTE format('DROP INDEX %I', index_name);
                END LOOP;
            END
            $$;
            \((gramTriggers + substringCountsTriggers).map { "DROP TRIGGER IF EXISTS \($0) ON \(table);" }.joined(separator: "\n"))
            \([gramCountsTrigger, substringCountsTrigger].flatMap { [$0, Self.statementFunction($0)] }.map { "DROP FUNCTION IF EXISTS \($0)();" }
                .joined(separator: "\n"))
            DROP INDEX IF EXISTS \(gramsIndex);
            -- The grams as a column of the table, kept by a trigger: a store made before the index.
            DROP TRIGGER IF EXISTS \(table)_search_grams_keep ON \(table);
            DROP FUNCTION IF EXISTS \(table)_search_grams_keep();
            ALTER TABLE \(table) DROP COLUMN IF EXISTS search_grams;
            DROP FUNCTION IF EXISTS \(gramsFunction)(text[]);
            DROP FUNCTION IF EXISTS \(gramsFunction)(text[], text);
            DROP FUNCTION IF EXISTS \(gramsFunction)(text);
            DROP TABLE IF EXISTS \(gramCountsTable);
            DROP TABLE IF EXISTS \(substringCounts);

            """
    }

    /// The text columns the table's search indexes (each one's trigram index), in the table's order,
    /// given the table's `columns` and the names of its `indexes` as the database holds them: what
    /// the open check, which has read both, compares with the declaration's.
    public func indexedTextColumns(columns: [String], indexes: Set<String>) -> [String] {
        columns.filter { indexes.contains(trigramIndex($0)) }
    }

    /// The SQL that empties ``gramCountsTable`` and counts every row's grams again, in one
    /// statement over the table: to repair what ``check(_:)`` found.
    public var gramCountsFillSQL: String {
        """
        DELETE FROM \(gramCountsTable);
        INSERT INTO \(gramCountsTable) (gram, scope, count) \(gramCountsSQL);
        """
    }

    /// Each gram's rows per scope value, `(gram, scope, count)`, counted over the table.
    private var gramCountsSQL: String {
        """
        SELECT grams.gram, \(scope(description.table)) AS scope, count(*) AS count
            FROM \(description.table), LATERAL (\(exactGrams(description.table))) AS grams GROUP BY grams.gram, 2
        """
    }

    /// What the table's ``PostgreSQLTextSearch/gramsIndex`` is in a database.
    public enum GramsIndexState: Sendable, Hashable {
        /// The index of ``PostgreSQLTextSearch/gramsFunction`` that ``PostgreSQLTextSearch/installSQL`` makes.
        case current
        /// An index of something else: a server store made by an older version, which kept the
        /// grams in a column or in an index of another function
        /// (`Migration.indexingSearchGrams(of:version:name:)` moves them).
        case older
        /// No index of that name: the search was not installed, or the index was dropped.
        case missing
    }

    /// What the table's ``gramsIndex`` is in `db`.
    ///
    /// - Throws: what the connection throws.
    public func gramsIndexState(_ db: some SQLConnection) throws -> GramsIndexState {
        let definition = try db.fetchRows(
            sql: "SELECT indexdef FROM pg_indexes WHERE schemaname = current_schema() AND indexname = ?", values: [.text(gramsIndex)])
        guard case .text(let text) = definition.first?.first else { return .missing }
        return text.contains(grams(nil)) ? .current : .older
    }

    /// What is wrong with the search's structures: a missing index, extension or trigger, or a gram
    /// count that differs from the rows' (one line each; empty when all is well).
    ///
    /// - Throws: what the connection throws.
    public func check(_ db: some SQLConnection) throws -> [String] {
        var problems: [String] = []
        var indexes: [String: String] = [:]
        for row in try db.fetchRows(
            sql: "SELECT indexname::text, indexdef FROM pg_indexes WHERE schemaname = current_schema() AND tablename = ?",
            values: [.text(description.table)])
        {
            if case .text(let name) = row[0], case .text(let definition) = row[1] { indexes[name] = definition }
        }
        for index in description.textColumns.map(trigramIndex) + [gramsIndex] where indexes[index] == nil {
            problems.append("the search index \(index) of \(description.table) is missing")
        }
        if let definition = indexes[gramsIndex], !definition.contains(grams(nil)) {
            problems.append("the search index \(gramsIndex) of \(description.table) does not index \(grams(nil))")
        }
        let found = Set(try db.fetchRows(sql: "SELECT tgname::text FROM pg_trigger WHERE tgrelid = to_regclass(?)", values: [.text(description.table)])
            .compactMap { row -> String? in if case .text(let name) = row.first { name } else { nil } })
        let kept = [(gramTriggers, gramCountsTable)] + (substringCountsTable.map { [(substringCountsTriggers, $0)] } ?? [])
        for (triggers, structures) in kept where !found.isSuperset(of: triggers) {
            problems.append("the triggers that keep \(structures) are missing")
        }
        guard try db.columnNames(ofTable: gramCountsTable).count == 3 else {
            return problems + ["the table \(gramCountsTable) is missing"]
        }
        let wrong = try db.fetchRows(
            sql: """
                WITH actual AS (\(gramCountsSQL))
                SELECT count(*) FROM actual FULL JOIN \(gramCountsTable) AS kept
                    ON kept.gram = actual.gram AND kept.scope IS NOT DISTINCT FROM actual.scope
                WHERE coalesce(kept.count, 0) <> coalesce(actual.count, 0)
                """, values: [])
        if let first = wrong.first?.first, first != .integer(0) {
            problems.append("\(first) gram counts of \(gramCountsTable) differ from the rows'")
        }
        if let substringCountsTable {
            guard try db.columnNames(ofTable: substringCountsTable).count == 3 else {
                return problems + ["the table \(substringCountsTable) is missing"]
            }
            let wrongSubstrings = try substringCountProblems(db)
            if wrongSubstrings > 0 { problems.append("\(wrongSubstrings) substring counts of \(substringCountsTable) differ from the rows'") }
        }
        return problems
    }
}
