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
/// characters; a GIN index of each row's 1- and 2-character grams (and its scope value), which finds
/// terms of 1-2 characters exactly; and a table of how many rows hold each gram per scope value, kept
/// by a trigger, which counts a short term without reading rows. TextSearch's planner chooses how a
/// page is read from the counts read here.
public struct PostgreSQLTextSearch: Sendable, Hashable {
    /// What is searched: the table, its folded text columns, number columns and scope column.
    /// (Its `indexesShortTerms` and accelerators are SQLite's and are not read.)
    public let description: SearchDescription

    /// The search of `description`'s table.
    public init(_ description: SearchDescription) {
        self.description = description
    }

    /// The function that lists a row's grams: `(texts text[], scope text) → text[]`, every distinct
    /// substring of 1 or 2 characters of the texts, and the scope's token when a scope is given.
    public var gramsFunction: String { description.table + "_search_grams" }
    /// The GIN index of each row's grams (an index of ``gramsFunction`` of its texts and scope).
    public var gramsIndex: String { description.table + "_search_grams_index" }
    /// The table of how many rows hold each gram, per scope value: `(gram, scope, count)`.
    public var gramCountsTable: String { description.table + "_gram_counts" }
    /// The trigger function that keeps ``gramCountsTable``.
    var gramCountsTrigger: String { description.table + "_gram_counts_keep" }

    /// The `pg_trgm` GIN index of one text column.
    func trigramIndex(_ column: String) -> String { "\(description.table)_\(column)_trigram_index" }

    /// The token of a scope value among a row's grams, as ``gramsFunction`` writes it: U+0001 (which
    /// no folded text holds) then the value as PostgreSQL writes it as text; nil for a value no row's
    /// scope equals (NULL) or whose text Swift may write otherwise (a REAL, a BLOB).
    static func scopeToken(_ scope: DatabaseValue) -> String? {
        switch scope {
        case .text(let text): "\u{1}" + text
        case .integer(let integer): "\u{1}" + String(integer)
        case .null, .real, .blob: nil
        }
    }

    /// `column` of the row named `alias` (unqualified without one).
    static func qualified(_ column: String, _ alias: String?) -> String {
        alias.map { "\($0).\(column)" } ?? column
    }

    /// The scope column of the row named `alias`, or `NULL::text` without a scope column.
    func scope(_ alias: String?) -> String {
        description.scopeColumn.map { Self.qualified($0, alias) } ?? "NULL::text"
    }

    /// The grams of the row named `alias` (its scope's token with `withScope`): with it, the
    /// expression the grams index holds, so that PostgreSQL uses the index.
    func gramsExpression(_ alias: String?, withScope: Bool = true) -> String {
        let texts = description.textColumns.map { Self.qualified($0, alias) }.joined(separator: ", ")
        let scope = withScope && description.scopeColumn != nil ? "\(scope(alias))::text" : "NULL::text"
        return "\(gramsFunction)(ARRAY[\(texts)]::text[], \(scope))"
    }
}
