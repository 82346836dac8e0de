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
/// characters; a GIN index of each row's 1- and 2-character grams (an expression index, so that
/// the table's rows stay narrow), which finds terms of 1-2 characters exactly; and a table of how
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

    /// The function that lists a row's grams: `(texts text[]) → bigint[]`, the key of every
    /// substring of 1 or 2 characters of the texts (``gramKeys(of:)``), in no order and some more
    /// than once. Integer keys make its GIN index 3× faster to build than one of the grams as text
    /// (W1b on PostgreSQL).
    public var gramsFunction: String { description.table + "_search_grams" }
    /// The GIN index of each row's grams: an index of ``gramsFunction`` over the row's texts, so
    /// that the grams, most of a row's bytes as a column, are not in the table's rows, and the rows
    /// a search reads fit in PostgreSQL's shared buffers (W3 on PostgreSQL).
    public var gramsIndex: String { description.table + "_search_grams_index" }
    /// The table of how many rows hold each gram, per scope value: `(gram, scope, count)`.
    public var gramCountsTable: String { description.table + "_gram_counts" }
    /// The trigger function that keeps ``gramCountsTable``.
    var gramCountsTrigger: String { description.table + "_gram_counts_keep" }

    /// The grams of the row named `alias` (unqualified without one): the expression ``gramsIndex``
    /// indexes, which a condition must repeat for the index to serve it.
    func grams(_ alias: String?) -> String { "\(gramsFunction)(\(texts(alias)))" }

    /// The `pg_trgm` GIN index of one text column.
    func trigramIndex(_ column: String) -> String { "\(description.table)_\(column)_trigram_index" }

    /// The keys of every distinct substring of 1 or 2 Unicode scalars of `texts`, in order: a scalar's
    /// key is its value, a pair's the first's value times 2²¹ plus the second's (every key of a pair
    /// exceeds every scalar's). `nil` texts have none.
    public static func gramKeys(of texts: some Sequence<String?>) -> [Int64] {
        var keys: [Int64] = []
        for text in texts {
            guard let text else { continue }
            var previous: Int64 = 0
            for scalar in text.unicodeScalars {
                let value = Int64(scalar.value)
                keys.append(value)
                if previous != 0 { keys.append(previous << 21 | value) }
                previous = value
            }
        }
        keys.sort()
        var distinct: [Int64] = []
        distinct.reserveCapacity(keys.count)
        for key in keys where key != distinct.last { distinct.append(key) }
        return distinct
    }

    /// The key of a gram of 1 or 2 Unicode scalars (``gramKeys(of:)``); nil for another text.
    static func gramKey(_ gram: String) -> Int64? {
        let scalars = Array(gram.unicodeScalars)
        switch scalars.count {
        case 1: return Int64(scalars[0].value)
        case 2: return Int64(scalars[0].value) << 21 | Int64(scalars[1].value)
        default: return nil
        }
    }

    /// The gram whose key is the SQL expression `key`, as text.
    static func gramText(_ key: String) -> String {
        "CASE WHEN \(key) < 2097152 THEN chr(\(key)::int) ELSE chr((\(key) >> 21)::int) || chr((\(key) & 2097151)::int) END"
    }

    /// `column` of the row named `alias` (unqualified without one).
    static func qualified(_ column: String, _ alias: String?) -> String {
        alias.map { "\($0).\(column)" } ?? column
    }

    /// The scope column of the row named `alias`, or `NULL::text` without a scope column.
    func scope(_ alias: String?) -> String {
        description.scopeColumn.map { Self.qualified($0, alias) } ?? "NULL::text"
    }

    /// The texts of the row named `alias`, as the argument of ``gramsFunction``.
    func texts(_ alias: String?) -> String {
        "ARRAY[" + description.textColumns.map { Self.qualified($0, alias) }.joined(separator: ", ") + "]::text[]"
    }
}
