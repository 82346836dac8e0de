import FetchedResults
import SQLiteStore

extension CatalogStore {
    /// The products of a request (its search applied), sectioned by type and sorted.
    ///
    /// - Throws: ``CatalogError/invalidValue(field:value:reason:)`` for a sort or scope that does not
    ///   apply, ``DatabaseError``.
    public func sections(_ request: ListRequest) throws -> [RecordSection<Product>] {
        precondition(request.entity == .products)
        return Self.group(try records(Product.self, request)) { $0.type.title }
    }

    /// The phones of a request (its search applied), sectioned by the sort field and sorted.
    ///
    /// - Throws: ``CatalogError/invalidValue(field:value:reason:)`` for a sort or scope that does not
    ///   apply, ``DatabaseError``.
    public func sections(_ request: ListRequest) throws -> [RecordSection<Phone>] {
        precondition(request.entity == .phones)
        let phones = try records(Phone.self, request)
        switch request.sort {
        case .maker: return Self.group(phones) { $0.maker }
        case .year: return Self.group(phones) { String($0.yearReleased) }
        default: return Self.group(phones) { Self.initial(of: $0.name) }
        }
    }

    /// The records of a request (its search applied), in its order, without sections.
    func records<Record: CatalogRecord>(_ type: Record.Type, _ request: ListRequest) throws -> [Record] {
        precondition(request.entity == Record.entity)
        try request.validate()
        return try queue.read { db in
            let plan = try Self.plan(request, db)
            let condition = Self.condition(plan, scope: request.scope, alias: Record.tableName)
            return try db.fetchAll(
                sql: "SELECT \(Record.selection) FROM \(Record.tableName) WHERE \(condition.sql) ORDER BY \(request.orderClause(alias: Record.tableName))",
                arguments: condition.arguments) { try Record(row: $0) }
        }
    }

    /// A name's first character, folded and uppercased: the section of a phone sorted by name.
    static func initial(of name: String) -> String {
        TextFolding.fold(String(name.prefix(1))).uppercased()
    }

    /// Consecutive records with the same section name, grouped.
    static func group<Record: CatalogRecord>(_ records: [Record], by name: (Record) -> String) -> [RecordSection<Record>] {
        var sections: [RecordSection<Record>] = []
        for record in records {
            let key = name(record)
            if sections.last?.name == key {
                sections[sections.count - 1].records.append(record)
            } else {
                sections.append(RecordSection(name: key, indexTitle: String(key.prefix(1)).uppercased(), records: [record]))
            }
        }
        return sections
    }
}
