import FetchedResults
import RecordFormats
import SQLiteStore

/// What the store needs to know of a record type to save, read and list it: its table and its columns,
/// declared once here. Its key paths map to SQL in its `FetchableEntity` conformance
/// (`Product+Fetchable.swift`, `Phone+Fetchable.swift`).
public protocol CatalogRecord: FetchableEntity, Codable, Hashable, Sendable, Identifiable where ID == Int64? {
    /// The record's entity.
    static var entity: Entity { get }
    /// The table that holds the records.
    static var tableName: String { get }
    /// The stored columns other than `id`, in the order of ``persistedValues`` and of ``init(row:)``'s
    /// columns 1 and up (column 0 is `id`).
    static var columnNames: [String] { get }

    /// The row id; nil until the record is saved.
    var id: Int64? { get set }
    /// The record's name, unique among records of its entity.
    var name: String { get }
    /// The values of ``columnNames``, in order, including derived columns such as `name_folded`.
    var persistedValues: [DatabaseValue] { get }
    /// The record with its fields checked.
    func validated() throws -> Self
    /// Reads a record from a row of `SELECT id, <columnNames> FROM <tableName>`.
    init(row: Row) throws
    /// The record's fields as the data formats read and write them (seed, import and export files):
    /// its JSON property names, each value checked as it is read.
    static var layout: RecordLayout<Self> { get }
    /// The fetch request that lists the records as `request` says: its scope, search, sort and
    /// sections.
    static func fetchRequest(for request: ListRequest) -> FetchRequest<Self>
}

extension CatalogRecord {
    /// `id, <columnNames>`: the selection ``init(row:)`` reads.
    public static var selection: String { (["id"] + columnNames).joined(separator: ", ") }

    /// The record's id, which is its row id.
    public var rowID: Int64? { id }
}

extension Product: CatalogRecord {
    public static var entity: Entity { .products }
    public static var tableName: String { "products" }
    public static var columnNames: [String] { ["type", "name", "name_folded", "year_introduced", "intro_price"] }

    public var persistedValues: [DatabaseValue] {
        [type.databaseValue, name.databaseValue, TextFolding.fold(name).databaseValue,
         yearIntroduced.databaseValue, introPrice.databaseValue]
    }

    public init(row: Row) throws {
        self.init(
            id: try row.decode(Int64.self, at: 0),
            type: try row.decode(ProductType.self, at: 1),
            name: try row.decode(String.self, at: 2),
            yearIntroduced: try row.decode(Int.self, at: 4),
            introPrice: try row.decode(Double.self, at: 5))
    }
}

extension Phone: CatalogRecord {
    public static var entity: Entity { .phones }
    public static var tableName: String { "phones" }
    public static var columnNames: [String] {
        ["name", "name_folded", "maker", "maker_folded", "year_released", "operating_system", "screen_inches"]
    }

    public var persistedValues: [DatabaseValue] {
        [name.databaseValue, TextFolding.fold(name).databaseValue, maker.databaseValue,
         TextFolding.fold(maker).databaseValue, yearReleased.databaseValue, operatingSystem.databaseValue,
         screenInches.databaseValue]
    }

    public init(row: Row) throws {
        self.init(
            id: try row.decode(Int64.self, at: 0),
            name: try row.decode(String.self, at: 1),
            maker: try row.decode(String.self, at: 3),
            yearReleased: try row.decode(Int.self, at: 5),
            operatingSystem: try row.decode(String.self, at: 6),
            screenInches: try row.decode(Double.self, at: 7))
    }
}
