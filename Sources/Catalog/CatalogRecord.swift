import Entities
import FetchedResults
import RecordFormats
import SQLiteStore
import TextSearch

/// A record type of the catalog: a `SearchableEntity` (its table and attributes declared once, in
/// `Product+Declaration.swift` and `Phone+Declaration.swift`) with a unique name, a word the CLI calls
/// it by, and the fetch request of a ``ListRequest``.
public protocol CatalogRecord: SearchableEntity, Codable, Hashable, Sendable {
    /// The record's entity.
    static var entity: Entity { get }
    /// The record's name, unique among records of its entity.
    var name: String { get }
    /// The fetch request that lists the records as `request` says: its scope, search, sort and
    /// sections.
    static func fetchRequest(for request: ListRequest) -> FetchRequest<Self>
}

extension CatalogRecord {
    /// The record's fields as the data formats read and write them (seed, import and export files):
    /// the declaration's `EntityDeclaration/recordLayout`.
    public static var layout: RecordLayout<Self> { declaration.recordLayout }

    /// The stored columns other than `id`: the declaration's `EntityDeclaration/storedColumns`.
    public static var columnNames: [String] { declaration.storedColumns }

    /// The values of ``columnNames``, in order, including derived columns such as `name_folded`.
    public var persistedValues: [DatabaseValue] { Self.declaration.storedValues(of: self) }
}

extension Product: CatalogRecord {
    public static var entity: Entity { .products }
}

extension Phone: CatalogRecord {
    public static var entity: Entity { .phones }
}
