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

extension SearchDescription {
    /// The order `sql` of a page of this table's rows, marked as the list index's order when it is
    /// exactly that index's ascending order: `<scope column> ASC, <first text column> ASC, <id> ASC`
    /// (columns unqualified), which the executor may then walk.
    ///
    /// ```swift
    /// products.order(sql: "type ASC, name_folded ASC, id ASC").isListIndexOrder  // true
    /// ```
    public func order(sql: String) -> SearchOrder {
        let listIndexOrder = listIndex.map { _ in
            ([scopeColumn].compactMap { $0 } + [textColumns[0], idColumn]).map { $0 + " ASC" }.joined(separator: ", ")
        }
        return SearchOrder(sql: sql, isListIndexOrder: sql == listIndexOrder)
    }
}
