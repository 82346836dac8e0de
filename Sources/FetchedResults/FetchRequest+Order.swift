/// The order of a request's rows in SQL: the one definition ``FetchedResultsController`` sorts by, for
/// code that reads the same rows in another statement (a search page) and must list them in the same order.
extension FetchRequest {
    /// The `ORDER BY` terms of the request's rows on the entity's table: the section key first (when
    /// sectioned), then each sort descriptor's sort expression, then the id ascending, so that the order is
    /// total. Names are the table's columns, unqualified.
    ///
    /// ```swift
    /// let request = FetchRequest<Film>(sortDescriptors: [SortDescriptor(\.year, order: .reverse)])
    /// try request.orderSQL()   // "year DESC, id ASC"
    /// ```
    ///
    /// - Throws: ``FetchError/unmappedKeyPath(_:)`` for a key path that is not a column.
    public func orderSQL() throws -> String {
        let order = try orderTerms()
        return OrderTerm.sql(order.section, order.rows)
    }

    /// The section term (nil without a section key path) and the order within a section: the sort
    /// descriptors' terms, then the id ascending.
    func orderTerms() throws -> (section: OrderTerm?, rows: [OrderTerm]) {
        func column(_ keyPath: PartialKeyPath<Entity>) throws -> EntityColumn {
            guard let column = Entity.column(for: keyPath) else { throw FetchError.unmappedKeyPath(String(describing: keyPath)) }
            return column
        }
        var rows = try sortDescriptors.map { descriptor in
            let column = try column(descriptor.keyPath)
            return OrderTerm(expression: column.sortExpression, isDescending: descriptor.order == .reverse, canBeNull: column.canBeNull)
        }
        rows.append(OrderTerm(expression: Entity.idColumn, isDescending: false, canBeNull: false))
        guard let sectionKeyPath else { return (nil, rows) }
        // A section sorted by its own key path descending lists its sections descending too.
        let first = sortDescriptors.first
        let descending = first?.keyPath == sectionKeyPath && first?.order == .reverse
        let section = try column(sectionKeyPath)
        return (OrderTerm(expression: section.sectionExpression, isDescending: descending, canBeNull: section.canBeNull), rows)
    }
}
