import FetchedResults
import SQLiteStore

/// An entity whose table, columns and rules are declared once, in ``declaration``; insert, update,
/// delete, decoding and fetching (`FetchableEntity`) are derived from it.
///
/// ```swift
/// var film = Film(title: "Solaris", director: "Andrei Tarkovsky", year: 1972)
/// try queue.write { db in try film.insert(db) }          // film.id is set
/// let found = try queue.read { db in try Film.fetchOne(id: film.id!, db) }
/// ```
public protocol DeclaredEntity: FetchableEntity, Identifiable where ID == Int64? {
    /// The entity's declaration: its table and attributes.
    static var declaration: EntityDeclaration<Self> { get }
    /// The row id; nil until the entity is saved.
    var id: Int64? { get set }
}

extension DeclaredEntity {
    public static var tableName: String { declaration.table }
    public static var selection: String { declaration.selection }
    public var rowID: Int64? { id }

    public static func column(for keyPath: PartialKeyPath<Self>) -> EntityColumn? {
        declaration.column(for: keyPath)
    }

    public static func sectionName(for value: DatabaseValue, keyPath: PartialKeyPath<Self>) -> String {
        declaration.attribute(for: keyPath)?.sectionName(forKey: value) ?? AttributeSections.text(value)
    }

    @inlinable  // with `EntityDeclaration.decode`, specialized in the entity's module: see there
    public init(row: Row) throws {
        self = try Self.declaration.decode(row)
    }

    /// The entity with each attribute checked (and normalised, such as trimmed) as declared.
    ///
    /// - Throws: what the first refusing attribute's check throws.
    public func validated() throws -> Self {
        try Self.declaration.validated(self)
    }
}
