import SQLiteStore
import TextSearch

extension PostgreSQLTextSearch {
    /// The SQL that creates the search's structures on the table and fills them from its rows: run it
    /// in a migration after `CREATE TABLE`, or after a bulk load (`COPY`), which is then the bulk
    /// build: each index is built once from the rows, faster than kept row by row.
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
        let watched = (description.textColumns + [description.scopeColumn].compactMap { $0 }).joined(separator: ", ")
        return """
            CREATE EXTENSION IF NOT EXISTS pg_trgm;
            DO $$
            DECLARE trigram_schema text := (
                SELECT nspname FROM pg_extension JOIN pg_namespace ON pg_namespace.oid = extnamespace WHERE extname = 'pg_trgm');
            BEGIN
                \(trigramIndexes.joined(separator: "\n    "))
            END
            $$;
            CREATE FUNCTION \(gramsFunction)(texts text[], scope text) RETURNS text[]
                LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
                SELECT array_remove(\(gramsOfTexts) || CASE WHEN scope IS NULL THEN '{}'::text[] ELSE ARRAY[chr(1) || scope] END, '')
                $$;
            CREATE INDEX \(gramsIndex) ON \(table) USING gin (\(gramsExpression(nil)));
            CREATE TABLE \(gramCountsTable) AS
                SELECT ''::text AS gram, \(scope(nil)) AS scope, 0::bigint AS count FROM \(table) WITH NO DATA;
            ALTER TABLE \(gramCountsTable) ALTER gram SET NOT NULL, ALTER count SET NOT NULL,
                ADD UNIQUE NULLS NOT DISTINCT (gram, scope);
            \(gramCountsFillSQL)
            CREATE FUNCTION \(gramCountsTrigger)() RETURNS trigger LANGUAGE plpgsql AS $$
            BEGIN
                IF TG_OP <> 'INSERT' THEN
                    UPDATE \(gramCountsTable) AS kept SET count = kept.count - 1
                    FROM \(distinctGrams("OLD")) AS grams(gram)
                    WHERE kept.gram = grams.gram AND kept.scope IS NOT DISTINCT FROM \(scope("OLD"));
                END IF;
                IF TG_OP <> 'DELETE' THEN
                    INSERT INTO \(gramCountsTable) AS kept (gram, scope, count)
                    SELECT grams.gram, \(scope("NEW")), 1 FROM \(distinctGrams("NEW")) AS grams(gram)
                    ON CONFLICT (gram, scope) DO UPDATE SET count = kept.count + 1;
                END IF;
                RETURN NULL;
            END
            $$;
            CREATE TRIGGER \(gramCountsTrigger)_rows AFTER INSERT OR DELETE ON \(table)
                FOR EACH ROW EXECUTE FUNCTION \(gramCountsTrigger)();
            CREATE TRIGGER \(gramCountsTrigger)_texts AFTER UPDATE OF \(watched) ON \(table)
                FOR EACH ROW EXECUTE FUNCTION \(gramCountsTrigger)();
            \(substringCountsSQL)
            """
    }

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
            DROP TRIGGER IF EXISTS \(gramCountsTrigger)_rows ON \(table);
            DROP TRIGGER IF EXISTS \(gramCountsTrigger)_texts ON \(table);
            DROP TRIGGER IF EXISTS \(substringCountsTrigger)_rows ON \(table);
            DROP TRIGGER IF EXISTS \(substringCountsTrigger)_texts ON \(table);
            DROP FUNCTION IF EXISTS \(gramCountsTrigger)();
            DROP FUNCTION IF EXISTS \(substringCountsTrigger)();
            DROP INDEX IF EXISTS \(gramsIndex);
            DROP FUNCTION IF EXISTS \(gramsFunction)(text[], text);
            DROP TABLE IF EXISTS \(gramCountsTable);
            DROP TABLE IF EXISTS \(substringCounts);

            """
    }

    /// The text columns the table's search indexes in `db` (each one's trigram index), in the
    /// table's order: what the open check compares with the declaration's.
    ///
    /// - Throws: what the connection throws.
    public func indexedTextColumns(_ db: some SQLConnection) throws -> [String] {
        let indexes = Set(try db.fetchRows(
            sql: "SELECT indexname::text FROM pg_indexes WHERE schemaname = current_schema() AND tablename = ?",
            values: [.text(description.table)]
        ).compactMap { row -> String? in if case .text(let name) = row.first { name } else { nil } })
        return try db.columnNames(ofTable: description.table).filter { indexes.contains(trigramIndex($0)) }
    }

    /// The grams of the function's `texts` (`texts[1]`, `texts[2]`…, one per text column): each
    /// text's characters (`string_to_array(t, NULL)`) and its pairs from the first and from the
    /// second character, with repeats and an empty piece (`array_remove` drops it). Built-in C
    /// functions only, with no query per row: 8× faster than a `generate_series` subquery (W1b on
    /// PostgreSQL). GIN drops a row's repeated keys; counting, a row's grams are taken once.
    var gramsOfTexts: String {
        description.textColumns.indices.map { index in
            let text = "texts[\(index + 1)]"
            return "string_to_array(\(text), NULL) || \(Self.pairs(text)) || \(Self.pairs("substr(\(text), 2)"))"
        }.joined(separator: " || ")
    }

    /// The distinct grams of the row named `row`, without its scope's token, as a `LATERAL` subquery
    /// of one column: each row's repeated grams dropped on their own (2.2× faster than
    /// `count(DISTINCT id)` per gram for the gram counts of 1,000,000 rows, W1b on PostgreSQL).
    func distinctGrams(_ row: String) -> String {
        "LATERAL (SELECT DISTINCT unnest(\(gramsExpression(row, withScope: false))))"
    }

    /// The pairs of characters of `text` from its first: cut after every second character with
    /// U+0002 (`regexp_replace`, then `string_to_array`), or, in a text that holds U+0002, by a
    /// lookbehind split eight times slower.
    private static func pairs(_ text: String) -> String {
        """
        CASE WHEN strpos(\(text), chr(2)) = 0 THEN string_to_array(regexp_replace(\(text), '(..)', '\\1' || chr(2), 'g'), chr(2)) \
        ELSE regexp_split_to_array(\(text), '(?<=^(..)+)') END
        """
    }

    /// The SQL that empties ``gramCountsTable`` and counts every row's grams again, in one statement
    /// over the table: after a bulk load with the triggers disabled, or to repair what ``check(_:)``
    /// found.
    public var gramCountsFillSQL: String {
        """
        DELETE FROM \(gramCountsTable);
        INSERT INTO \(gramCountsTable) (gram, scope, count)
            SELECT grams.gram, \(scope(description.table)), count(*)
            FROM \(description.table), \(distinctGrams(description.table)) AS grams(gram)
            GROUP BY 1, 2;
        """
    }

    /// What is wrong with the search's structures: a missing index, extension or trigger, or a gram
    /// count that differs from the rows' (one line each; empty when all is well).
    ///
    /// - Throws: what the connection throws.
    public func check(_ db: some SQLConnection) throws -> [String] {
        var problems: [String] = []
        let indexes = try db.fetchRows(
            sql: "SELECT indexname::text FROM pg_indexes WHERE schemaname = current_schema() AND tablename = ?",
            values: [.text(description.table)]
        ).compactMap { row -> String? in if case .text(let name) = row.first { name } else { nil } }
        for index in description.textColumns.map(trigramIndex) + [gramsIndex] where !indexes.contains(index) {
            problems.append("the search index \(index) of \(description.table) is missing")
        }
        let triggers = try db.fetchRows(
            sql: "SELECT count(*) FROM pg_trigger WHERE tgrelid = to_regclass(?) AND tgname::text LIKE ?",
            values: [.text(description.table), .text(gramCountsTrigger + "\\_%")])
        if triggers.first?.first != .integer(2) {
            problems.append("the triggers that keep \(gramCountsTable) are missing")
        }
        guard try db.columnNames(ofTable: gramCountsTable).count == 3 else {
            return problems + ["the table \(gramCountsTable) is missing"]
        }
        let wrong = try db.fetchRows(
            sql: """
                WITH actual AS (
                    SELECT grams.gram, \(scope(description.table)) AS scope, count(*) AS count
                    FROM \(description.table), \(distinctGrams(description.table)) AS grams(gram)
                    GROUP BY 1, 2)
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
