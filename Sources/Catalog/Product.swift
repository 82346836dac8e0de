/// A product of Apple's "Simple/Advanced UISearchBar" samples: a type, a name, the year it was
/// introduced and its introductory price in US dollars.
///
/// Its JSON form (seed files, `--json` output) uses the property names: `id`, `type`, `name`,
/// `yearIntroduced`, `introPrice`.
public struct Product: Codable, Hashable, Sendable, Identifiable {
    /// The row id; nil until the product is saved.
    public var id: Int64?
    /// The product's type, which is also its section and search scope.
    public var type: ProductType
    /// The product's name, unique in the catalog.
    public var name: String
    /// The year the product was introduced.
    public var yearIntroduced: Int
    /// The introductory price in US dollars.
    public var introPrice: Double

    /// Creates a product.
    public init(id: Int64? = nil, type: ProductType, name: String, yearIntroduced: Int, introPrice: Double) {
        self.id = id
        self.type = type
        self.name = name
        self.yearIntroduced = yearIntroduced
        self.introPrice = introPrice
    }
}
