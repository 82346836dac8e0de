/// What is searched in one table: its folded text columns, its number columns, an optional scope
/// column, the ordered index a list walks, and whether short terms have their own index.
///
/// A description is all an entity needs for indexed substring search: ``installSQL`` creates the
/// index structures and the triggers that keep them, and the planner and executor
/// (``SearchDescription/page(_:scope:order:limit:offset:totalCount:matchIDs:selection:costs:_:decode:)``,
/// ``SearchDescription/count(_:scope:_:)``, ``SearchDescription/condition(for:scope:alias:_:)``) use them.
///
/// ```swift
/// let films = SearchDescription(
///     table: "films", textColumns: ["title_folded", "director_folded"])
/// try db.execute(sql: films.installSQL)  // in a migration, after CREATE TABLE films
/// ```
///
/// The table needs an integer primary key (``idColumn``) and each text column must hold the text
/// folded by ``TextFolding/fold(_:)``; the caller writes those columns.
public struct SearchDescription: Sendable, Hashable {
    /// The searched table.
    public let table: String
    /// Its `INTEGER PRIMARY KEY` column.
    public let idColumn: String
    /// The columns holding folded text; a term matches a row when one of them contains it.
    public let textColumns: [String]
    /// The columns a term that reads as a number (``SearchTerm/number``) is compared with: such a term
    /// also matches a row where one of them equals it.
    public let numberColumns: [String]
    /// A column a search may be restricted to one value of (a product's type).
    public let scopeColumn: String?
    /// The index a list in its default order walks: `(scope column, first text column, id)`, when the
    /// table has one. A page of a common term is found by walking it in order.
    public let listIndex: String?
    /// Whether terms of 1-2 scalars have their own index (``gramsTable``, ``gramCountsTable``); false:
    /// only the trigram index, and short terms are checked row by row (enough for small tables).
    public let indexesShortTerms: Bool
    /// The TEXT values of the scope column the trigram index tells apart, in a fixed order: when
    /// there are some (and a scope column), each row's rowid in ``fullTextTable`` carries the number
    /// of its scope value (``indexRowID(of:)``), so that a term's rows within one value are a
    /// rowid range of the index and are counted without reading the table. Empty: the trigram index
    /// is an external-content table whose rowids are the ids.
    public let scopeValues: [String]
    /// The fewest rows a substring must be in, when the set of ``substringCountsTable`` is chosen
    /// (``refreshSubstringCounts(_:)``), to be counted there: by default
    /// ``standardSubstringCountMinimumRows``.
    public let substringCountMinimumRows: Int
    /// The optional structures kept beside the two exact indexes (with a grams index only), in the
    /// order their SQL is written: none by default.
    public let accelerators: [any SearchAccelerator]

    /// Describes the search of a table.
    public init(
        table: String, idColumn: String = "id", textColumns: [String], numberColumns: [String] = [],
        scopeColumn: String? = nil, listIndex: String? = nil, indexesShortTerms: Bool = true,
        scopeValues: [String] = [], substringCountMinimumRows: Int = Self.standardSubstringCountMinimumRows,
        accelerators: [any SearchAccelerator] = []
    ) {
        precondition(substringCountMinimumRows > 0, "a substring is counted when some rows hold it")
        precondition(scopeValues.isEmpty || scopeColumn != nil, "scope values need a scope column")
        precondition(scopeValues.count < Self.scopeNumberLimit, "at most \(Self.scopeNumberLimit - 1) scope values")
        precondition(!textColumns.isEmpty, "a search needs at least one text column")
        self.table = table
        self.idColumn = idColumn
        self.textColumns = textColumns
        self.numberColumns = numberColumns
        self.scopeColumn = scopeColumn
        self.listIndex = listIndex
        self.indexesShortTerms = indexesShortTerms
        self.scopeValues = scopeValues
        self.substringCountMinimumRows = substringCountMinimumRows
        self.accelerators = accelerators
    }

    /// The FTS5 trigram index of the text columns: an external-content table of ``table``, or, with
    /// ``scopeValues``, a contentless one whose rowids carry the scope (``indexRowID(of:)``).
    public var fullTextTable: String { table + "_search" }
    /// The index of the 1- and 2-scalar grams of each row's texts (and its scope value): a contentless
    /// FTS5 table, one document of tokens per row (``installSQL`` says which).
    public var gramsTable: String? { indexesShortTerms ? table + "_grams" : nil }
    /// The table of how many rows hold each 1- and 2-scalar gram (per scope value, with a scope).
    public var gramCountsTable: String? { indexesShortTerms ? table + "_gram_counts" : nil }
    /// The table of how many rows (per scope value, with a scope) hold each of the frequent
    /// substrings of 3 to ``substringCountMaximumLength`` scalars: those in at least
    /// ``substringCountMinimumRows`` rows when the set was last chosen
    /// (``refreshSubstringCounts(_:)``). Every count it holds is exact; a term it does not hold is
    /// counted in ``fullTextTable``.
    public var substringCountsTable: String? {
        accelerator(SubstringCountsAccelerator.self)?.table(of: self)
    }
    /// The table of which rows hold each very common 1-scalar gram, as bits: those in at least one
    /// ``gramBitsMinimumShare``-th of the rows when the set was last chosen (``refreshGramBits(_:)``),
    /// so that a long term's rows are checked for such a gram by a bit each (``gramBitsSQL``).
    public var gramBitsTable: String? { accelerator(GramBitsAccelerator.self)?.table(of: self) }
}

extension SearchDescription {
    /// Whether two descriptions search the same way: every property equal, accelerators by name.
    public static func == (a: SearchDescription, b: SearchDescription) -> Bool {
        a.table == b.table && a.idColumn == b.idColumn && a.textColumns == b.textColumns && a.numberColumns == b.numberColumns
            && a.scopeColumn == b.scopeColumn && a.listIndex == b.listIndex && a.indexesShortTerms == b.indexesShortTerms
            && a.scopeValues == b.scopeValues && a.substringCountMinimumRows == b.substringCountMinimumRows
            && a.accelerators.map(\.name) == b.accelerators.map(\.name)
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(table)
        hasher.combine(textColumns)
        hasher.combine(scopeColumn)
        hasher.combine(accelerators.map(\.name))
    }
}
