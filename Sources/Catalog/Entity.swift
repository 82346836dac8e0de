/// The kinds of record the catalog holds: the word a command line or a saved state names a record
/// type by. Everything else about a record type is in its declaration (`Product.declaration`).
public enum Entity: String, CaseIterable, Codable, Sendable {
    case products
    case phones

    /// The record type of the entity: the one place a word becomes a type.
    ///
    /// Generic code takes it as it is, the type opened for the call:
    /// `try export(entity.recordType, to: file)` calls `export<Record: CatalogRecord>(_: Record.Type, to:)`.
    public var recordType: any CatalogRecord.Type {
        switch self {
        case .products: Product.self
        case .phones: Phone.self
        }
    }

    /// One record's name: `product`, `phone`.
    public var singular: String {
        switch self {
        case .products: "product"
        case .phones: "phone"
        }
    }

    /// Reads an entity as typed: plural or singular, any case.
    public init?(parsing text: String) {
        let word = text.lowercased()
        guard let entity = Entity.allCases.first(where: { $0.rawValue == word || $0.singular == word }) else {
            return nil
        }
        self = entity
    }
}
