import SQLiteStore
import TextSearch

/// The search of a `SearchDescription`'s table on PostgreSQL, with the semantics of the SQLite
/// engine (the TextSearch article "Search semantics"): the same folding, terms, matches and order.
///
/// ```swift
/// let films = PostgreSQLTextSearch(SearchDescription(table: "films", textColumns: ["title_folded"]))
/// try db.execute(sql: films.installSQL, values: [])   // after CREATE TABLE films (and any COPY)
/// let page = try films.page(SearchQuery("ring"), order: order, limit: 50, selection: "films.id", db)
/// ```
///
/// The table needs an integer primary key and its text columns must hold the texts folded by
/// `TextFolding.fold(_:)`, declared `COLLATE "C"` so that they sort by bytes as SQLite's do. Its
/// structures (``installSQL``): a `pg_trgm` GIN index of each text column, which finds terms of 3+
/// characters; a GIN index of each row's pairs of characters (an expression index, so that the
/// table's rows stay narrow), which finds terms of 1-2 characters exactly; and a table of how
/// many rows hold each gram per scope value, kept by a trigger, which counts a short term without
/// reading rows. TextSearch's planner chooses how a page is read from the counts read here.
public struct PostgreSQLTextSearch: Sendable, Hashable {
    /// What is searched: the table, its folded text columns, number columns and scope column.
    /// (Its `indexesShortTerms` and accelerators are SQLite's and are not read.)
    public let description: SearchDescription

    /// The search of `description`'s table.
    public init(_ description: SearchDescription) {
        self.description = description
    }

    /// The function that lists a text's pairs: `(t text) → text[]`, each substring of 2 characters
    /// (Unicode scalars) of `t` that does not hold U+0001 (the separator), and some of `t`'s characters,
    /// each a key of ``gramsIndex``. An SQL function of PostgreSQL's built-in functions (the pairs at
    /// even and at odd offsets, each followed by the separator, then split at it), which PostgreSQL
    /// inlines into the index's expression; no PL/pgSQL loop per row, and no key per character (half
    /// the keys), so the index builds faster (W1b on PostgreSQL). A character is found through the
    /// keys that hold it, which ``gramCountsTable`` lists.
    public var gramsFunction: String { description.table + "_search_grams" }
    /// The character ``gramsFunction`` ends each pair with: a pair that holds it is not a key (its
    /// pieces are), and no term that can match holds it (a control character: `SearchTerm.canMatchText`).
    static let gramSeparator: Unicode.Scalar = "\u{1}"
    /// The GIN index of each row's pairs: an index of ``gramsFunction`` over the row's texts, so
    /// that the pairs, most of a row's bytes as a column, are not in the table's rows, and the rows
    /// a search reads fit in PostgreSQL's shared buffers (W3 on PostgreSQL).
    public var gramsIndex: String { description.table + "_search_grams_index" }
    /// The table of how many rows hold each gram, per scope value: `(gram, scope, count)`. It also
    /// decides which rows hold a single character (those whose keys include a gram it lists that
    /// holds the character), so a gram missing from it makes such searches miss rows: ``check(_:)``
    /// reports it, ``gramCountsFillSQL`` counts every row again.
    public var gramCountsTable: String { description.table + "_gram_counts" }
    /// The trigger function that keeps ``gramCountsTable``.
    var gramCountsTrigger: String { description.table + "_gram_counts_keep" }

    /// The pairs of the row named `alias` (unqualified without one): the expression ``gramsIndex``
    /// indexes, which a condition must repeat for the index to serve it.
    func grams(_ alias: String?) -> String {
        description.textColumns.map { "\(gramsFunction)(\(Self.qualified($0, alias)))" }.joined(separator: " || ")
    }

    /// The distinct grams of the row named `alias` (its texts' substrings of 1 or 2 characters), as
    /// a subquery of one column, `gram`: exact, as ``gramCountsTable`` counts them.
    func exactGrams(_ alias: String?) -> String {
        """
        SELECT DISTINCT gram FROM unnest(\(texts(alias))) AS texts(text),
            LATERAL (SELECT string_to_array(texts.text, NULL)) AS scalars(list),
            LATERAL unnest(scalars.list, scalars.list[2:]) AS pairs(first, second),
            LATERAL (VALUES (pairs.first), (pairs.first || pairs.second)) AS grams(gram)
            WHERE gram IS NOT NULL
        """
    }

    /// The `pg_trgm` GIN index of one text column.
    func trigramIndex(_ column: String) -> String { "\(description.table)_\(column)_trigram_index" }

    /// `column` of the row named `alias` (unqualified without one).
    static func qualified(_ column: String, _ alias: String?) -> String {
        alias.map { "\($0).\(column)" } ?? column
    }

    /// The scope column of the row named `alias`, or `NULL::text` without a scope column.
    func scope(_ alias: String?) -> String {
        description.scopeColumn.map { Self.qualified($0, alias) } ?? "NULL::text"
    }

    /// The texts of the row named `alias`, as an array.
    func texts(_ alias: String?) -> String {
        "ARRAY[" + description.textColumns.map { Self.qualified($0, alias) }.joined(separator: ", ") + "]::text[]"
    }
}
