import FetchedResults
import SQLiteStore

extension CatalogStore {
    /// The products of a request, sectioned and sorted.
    public func sections(_ request: ListRequest) throws -> [RecordSection<Product>] {
        precondition(request.entity == .products)
        try request.validate()
        let direction = request.isReversed ? "DESC" : "ASC"
        let column = switch request.sort {
        case .year: "year_introduced"
        case .price: "intro_price"
        default: "name_folded"
        }
        var sql = "SELECT \(Product.selection) FROM products"
        var arguments: StatementArguments = []
        if let scope = request.scope {
            sql += " WHERE type = ?"
            arguments = [scope]
        }
        sql += " ORDER BY type ASC, \(column) \(direction), id ASC"
        let products = try queue.read { db in try db.fetchAll(sql: sql, arguments: arguments) { try Product(row: $0) } }
        return Self.group(products) { $0.type.title }
    }

    /// The phones of a request, sectioned and sorted.
    public func sections(_ request: ListRequest) throws -> [RecordSection<Phone>] {
        precondition(request.entity == .phones)
        try request.validate()
        let direction = request.isReversed ? "DESC" : "ASC"
        let order = switch request.sort {
        case .maker: "maker_folded \(direction), name_folded ASC"
        case .year: "year_released \(direction), name_folded ASC"
        default: "name_folded \(direction)"
        }
        let phones = try queue.read { db in
            try db.fetchAll(sql: "SELECT \(Phone.selection) FROM phones ORDER BY \(order), id ASC") { try Phone(row: $0) }
        }
        switch request.sort {
        case .maker: return Self.group(phones) { $0.maker }
        case .year: return Self.group(phones) { String($0.yearReleased) }
        default: return Self.group(phones) { Self.initial(of: $0.name) }
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
