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

/// An entity type of the catalog: a `SearchableEntity` (its table and attributes declared once, in
/// `Product+Declaration.swift` and `Phone+Declaration.swift`) with a unique name, and how a
/// ``ListRequest`` of it is sorted, sectioned and scoped.
public protocol CatalogEntity: SearchableEntity, Codable, Hashable, Sendable {
    /// The values a list of the records may be limited to: ``ProductType`` for products, ``NoScope`` for
    /// an entity type without a scope.
    associatedtype Scope: ListScope = NoScope

    /// The record's name, unique among records of its type.
    var name: String { get }

    /// The attribute a list's scope limits, which is also its search description's scope; nil when
    /// ``Scope`` is ``NoScope``.
    static var scopeKeyPath: (KeyPath<Self, Scope> & Sendable)? { get }

    /// The fetch request that lists the records sorted by `field` in `order`, with its sections (no
    /// scope or search yet); nil when the records do not sort by `field`. The one definition of the
    /// sorts an entity type offers: ``sortFields`` and ``ListRequest/validate()`` follow from it.
    static func listFetchRequest(sortedBy field: SortField, order: SortOrder) -> FetchRequest<Self>?
}

extension CatalogEntity where Scope == NoScope {
    /// No scope attribute.
    public static var scopeKeyPath: (KeyPath<Self, Scope> & Sendable)? { nil }
}

extension CatalogEntity {
    /// The scope attribute is the search's scope: sections by it are counted and paged by the search.
    public static var searchScope: (PartialKeyPath<Self> & Sendable)? { scopeKeyPath }

    /// The word the command line calls the entity type by: the ``EntityKind`` whose ``EntityKind/entityType``
    /// it is (that mapping is the one place a word and a type meet).
    public static var kind: EntityKind {
        guard let kind = EntityKind.allCases.first(where: { ObjectIdentifier($0.entityType) == ObjectIdentifier(Self.self) }) else {
            preconditionFailure("\(Self.self) is no entity of the catalog")
        }
        return kind
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
