import SQLiteStore

/// How one key path of an entity reads in SQL: the column it filters and compares on, the expression
/// it sorts by, and the expression it sections by.
///
/// ```swift
/// // Filter on `name`, sort by its folded form, section by the folded initial.
/// EntityColumn("name", sortedBy: "name_folded", sectionedBy: "substr(name_folded, 1, 1)")
/// ```
///
/// The expressions are trusted SQL written by the entity's author, never user input.
///
/// - Important: ``sectionExpression`` must order like a prefix of ``sortExpression``: two rows whose
///   sort expressions are in order must have section expressions in the same (or equal) order, so
///   that sections are contiguous runs of the sorted result, as in Core Data.
public struct EntityColumn: Sendable, Hashable {
    /// The column as a value: what `#Predicate` compares, and what a fetched value reads. Its name,
    /// which SQL quotes: any name works, an SQL keyword's (`order`) too.
    public var name: String
    /// The SQL expression `ORDER BY` uses for a `SortDescriptor` on this key path (for text: the
    /// folded column, so that order ignores case and diacritics).
    public var sortExpression: String
    /// The SQL expression rows are grouped by when this key path is the section key path. A section's
    /// name is a function of this value alone (``FetchableEntity/sectionName(for:keyPath:)``), so that a
    /// section keeps its identity while rows come and go.
    public var sectionExpression: String
    /// Whether the sort and section expressions may be NULL. When they cannot (a `NOT NULL` column),
    /// PostgreSQL's `ORDER BY` need not say where NULL goes, and so follows a plain index on them.
    public var canBeNull: Bool

    /// Creates a column mapping.
    ///
    /// - Parameters:
    ///   - name: the column compared by predicates.
    ///   - sortedBy: the sort expression; the column `name` (quoted) by default.
    ///   - sectionedBy: the section expression; the sort expression by default.
    ///   - canBeNull: whether the sort and section expressions may be NULL; true unless the entity's
    ///     table keeps them from it.
    public init(_ name: String, sortedBy: String? = nil, sectionedBy: String? = nil, canBeNull: Bool = true) {
        self.name = name
        let column = SQLText.identifier(name)
        self.sortExpression = sortedBy ?? column
        self.sectionExpression = sectionedBy ?? sortedBy ?? column
        self.canBeNull = canBeNull
    }
}
