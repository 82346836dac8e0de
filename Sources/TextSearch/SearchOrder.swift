/// The order of a page of search results: an `ORDER BY` clause on the searched table, and whether it
/// is the order of the description's list index, which the executor may then walk.
public struct SearchOrder: Sendable, Hashable {
    /// The `ORDER BY` terms, qualified with the table's name, ending with the id so that the order is total.
    public var sql: String
    /// Whether ``sql`` is the ascending order of ``SearchDescription/listIndex`` (scope column, first
    /// text column, id).
    public var isListIndexOrder: Bool

    /// An order.
    public init(sql: String, isListIndexOrder: Bool = false) {
        self.sql = sql
        self.isListIndexOrder = isListIndexOrder
    }
}
