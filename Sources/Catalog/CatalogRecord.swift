import Entities
import FetchedResults
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import RecordFormats
import SQLiteStore
import TextSearch

/// A record type of the catalog: a `SearchableEntity` (its table and attributes declared once, in
/// `Product+Declaration.swift` and `Phone+Declaration.swift`) with a unique name, and how a
/// ``ListRequest`` of it is sorted, sectioned and scoped.
public protocol CatalogRecord: SearchableEntity, Codable, Hashable, Sendable {
    /// The values a list of the records may be limited to: ``ProductType`` for products, ``NoScope`` for
    /// a record type without a scope.
    associatedtype Scope: ListScope = NoScope

    /// The record's name, unique among records of its type.
    var name: String { get }

    /// The attribute a list's scope limits, which is also its search description's scope; nil when
    /// ``Scope`` is ``NoScope``.
    static var scopeKeyPath: (KeyPath<Self, Scope> & Sendable)? { get }

    /// The fetch request that lists the records sorted by `field` in `order`, with its sections (no
    /// scope or search yet); nil when the records do not sort by `field`. The one definition of the
    /// sorts a record type offers: ``sortFields`` and ``ListRequest/validate()`` follow from it.
    static func listFetchRequest(sortedBy field: SortField, order: SortOrder) -> FetchRequest<Self>?
}

extension CatalogRecord where Scope == NoScope {
    /// No scope attribute.
    public static var scopeKeyPath: (KeyPath<Self, Scope> & Sendable)? { nil }
}

extension CatalogRecord {
    /// The scope attribute is the search's scope: sections by it are counted and paged by the search.
    public static var searchScope: (PartialKeyPath<Self> & Sendable)? { scopeKeyPath }

    /// The word the command line calls the record type by: the ``Entity`` whose ``Entity/recordType``
    /// it is (that mapping is the one place a word and a type meet).
    public static var entity: Entity {
        guard let entity = Entity.allCases.first(where: { ObjectIdentifier($0.recordType) == ObjectIdentifier(Self.self) }) else {
            preconditionFailure("\(Self.self) is no entity of the catalog")
        }
        return entity
    }

    /// The fields the records sort by, in ``SortField``'s order: those ``listFetchRequest(sortedBy:order:)``
    /// answers.
    public static var sortFields: [SortField] {
        SortField.allCases.filter { listFetchRequest(sortedBy: $0, order: .forward) != nil }
    }

    /// The record's fields as the data formats read and write them (seed, import and export files):
    /// the declaration's `EntityDeclaration/recordLayout`.
    public static var layout: RecordLayout<Self> { declaration.recordLayout }

    /// The stored columns other than `id`: the declaration's `EntityDeclaration/storedColumns`.
    public static var columnNames: [String] { declaration.storedColumns }

    /// The values of ``columnNames``, in order, including derived columns such as `name_folded`.
    public var persistedValues: [DatabaseValue] { Self.declaration.storedValues(of: self) }
}
