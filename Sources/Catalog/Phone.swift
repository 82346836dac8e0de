/// A phone model, the entity of a classic Core Data search tutorial: a name and the details a phone list
/// shows under it.
///
/// Its JSON form uses the property names: `id`, `name`, `maker`, `yearReleased`, `operatingSystem`,
/// `screenInches`.
public struct Phone: Codable, Hashable, Sendable, Identifiable {
    /// The row id; nil until the phone is saved.
    public var id: Int64?
    /// The model's name, unique in the catalog (`iPhone 4`, `Galaxy S III`).
    public var name: String
    /// Who makes it (`Apple`, `Samsung`). Search matches it too.
    public var maker: String
    /// The year the model was released.
    public var yearReleased: Int
    /// The operating system it shipped with (`iOS`, `Android`, `Symbian`).
    public var operatingSystem: String
    /// The screen's diagonal in inches.
    public var screenInches: Double

    /// Creates a phone.
    public init(
        id: Int64? = nil, name: String, maker: String, yearReleased: Int, operatingSystem: String, screenInches: Double
    ) {
        self.id = id
        self.name = name
        self.maker = maker
        self.yearReleased = yearReleased
        self.operatingSystem = operatingSystem
        self.screenInches = screenInches
    }
}
