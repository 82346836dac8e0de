/// The kinds of record the catalog holds.
public enum Entity: String, CaseIterable, Codable, Sendable {
    case products
    case phones

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
