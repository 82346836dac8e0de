import SQLiteStore

/// The order of a page of search results: the `ORDER BY` terms on the searched table, and whether it
/// is the order of the description's list index, which the executor may then walk.
///
/// Whether an order is the list index's is decided by the caller from what the order is made of (an
/// entity's sort key paths), never by comparing SQL text.
public struct SearchOrder: Sendable, Hashable {
    /// The `ORDER BY` terms, ending with the id so that the order is total.
    public var terms: SQLFragment
    /// Whether ``terms`` are the ascending order of ``SearchDescription/listIndex`` (scope column,
    /// first text column, id).
    public var isListIndexOrder: Bool

    /// An order.
    public init(_ terms: SQLFragment, isListIndexOrder: Bool = false) {
        self.terms = terms
        self.isListIndexOrder = isListIndexOrder
    }
}
