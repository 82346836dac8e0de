/// The kinds of entity the catalog holds: the word a command line or a saved state names an entity
/// type by. Everything else about an entity type is in its declaration (`Product.declaration`).
public enum EntityKind: String, CaseIterable, Codable, Sendable {
    case products
    case phones

    /// The entity type of the kind: the one place a word becomes a type.
    ///
    /// Generic code takes it as it is, the type opened for the call:
    /// `try export(entity.entityType, to: file)` calls `export<Entity: CatalogEntity>(_: Entity.Type, to:)`.
    public var entityType: any CatalogEntity.Type {
        switch self {
        case .products: Product.self
        case .phones: Phone.self
        }
    }

    /// One entity's name: `product`, `phone`.
    public var singular: String {
        switch self {
        case .products: "product"
        case .phones: "phone"
        }
    }

    /// Reads an entity as typed: plural or singular, any case.
    public init?(parsing text: String) {
        let word = text.lowercased()
        guard let entity = EntityKind.allCases.first(where: { $0.rawValue == word || $0.singular == word }) else {
            return nil
        }
        self = entity
    }
}
