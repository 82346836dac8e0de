import FetchedResults
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import SQLiteStore

/// A child's reference to its parent: the parent's table, whose `id` the child's column holds (a
/// foreign key, indexed), and what deleting the parent does to its children.
public struct Reference: Sendable, Equatable {
    /// What deleting a parent does to the rows that refer to it.
    public enum DeleteRule: String, Sendable {
        /// The children are deleted with it (`ON DELETE CASCADE`); each is a row event of its own,
        /// which live controllers of the children see.
        case cascade = "CASCADE"
        /// The parent cannot be deleted while it has children (`ON DELETE RESTRICT`): the delete
        /// fails with `FOREIGN KEY constraint failed` (a `DatabaseError`; SQLite enforces it with a
        /// trigger, so its code is `SQLITE_CONSTRAINT_TRIGGER`).
        case restrict = "RESTRICT"
    }

    /// The parent's table.
    public let table: String
    /// What deleting a parent does.
    public let onDelete: DeleteRule

    @usableFromInline
    init(table: String, onDelete: DeleteRule) {
        self.table = table
        self.onDelete = onDelete
    }
}

extension EntityAttribute {
    /// A to-one reference to a parent entity: the parent's id, in a column that is a foreign key to
    /// its table (`recipeID` → `recipe_id REFERENCES recipes(id)`), indexed, with `onDelete` saying
    /// what deleting the parent does. In files it is the parent's id, a whole number.
    ///
    /// ```swift
    /// .reference("recipeID", \.recipeID, to: Recipe.self, onDelete: .cascade)
    /// ```
    ///
    /// Foreign keys are enforced on connections with `PRAGMA foreign_keys = ON`, which the library's
    /// connections set. A parent's children are fetched with ``DeclaredEntity/children(of:_:sortedBy:)``.
    @inlinable
    public static func reference<Parent: DeclaredEntity>(
        _ name: String, _ keyPath: WritableKeyPath<Entity, Int64> & Sendable, to parent: Parent.Type,
        column: String? = nil, onDelete: Reference.DeleteRule, title: String? = nil, label: String? = nil, width: Int? = nil
    ) -> EntityAttribute {
        value(
            name, keyPath, column: column, searchedAsNumber: false, sections: .value, title: title, label: label, width: width,
            optionalInFiles: false, parse: nil, check: { $0 }, shown: { String($0) }, shownInDetail: nil, unique: false,
            default: nil, sqlCheck: nil, reference: Reference(table: Parent.tableName, onDelete: onDelete),
            read: ColumnReads.read(keyPath))
    }
}

extension DeclaredEntity {
    /// The request for the children of the parent with id `parentID`: the entities whose reference
    /// at `keyPath` holds it, sorted by `sortDescriptors` (by id when empty). A controller over it
    /// tracks changes like any other: a child added, moved to another parent or deleted (with its
    /// parent too, by `ON DELETE CASCADE`) is a change of its result.
    ///
    /// ```swift
    /// let ingredients = Ingredient.children(of: recipe.id!, \.recipeID, sortedBy: [SortDescriptor(\.name)])
    /// ```
    public static func children(
        of parentID: Int64, _ keyPath: KeyPath<Self, Int64> & Sendable, sortedBy sortDescriptors: [SortDescriptor<Self>] = []
    ) -> FetchRequest<Self> {
        let predicate = Predicate<Self> { child in
            PredicateExpressions.build_Equal(
                lhs: PredicateExpressions.build_KeyPath(root: child, keyPath: keyPath), rhs: PredicateExpressions.build_Arg(parentID))
        }
        return FetchRequest(predicate: predicate, sortDescriptors: sortDescriptors)
    }
}

/// A reference among a declaration's stored values: the attribute's name, its place among the
/// values, and the parent's table.
typealias StoredReference = (attribute: String, index: Int, parent: String)

extension EntityDeclaration {
    /// The references to another table's ids, as the importers check them (a reference to the
    /// entity's own table is the database's to check: its parent may come later in the same import).
    var storedReferences: [StoredReference] {
        attributes.compactMap { attribute in
            guard let parent = attribute.reference?.table, parent != table, let index = storedColumns.firstIndex(of: attribute.column)
            else { return nil }
            return (attribute.name, index, parent)
        }
    }
}

/// The first of `rows` with a reference whose parent is not stored: its place among them, the
/// reference, and the id it holds. `rows[row][index]` is the id `references[index]` holds in that
/// row; each reference's ids are sent as one argument, and the earliest row any of them misses is
/// kept. What both importers ask when the table refuses rows they added together.
func firstMissingParent(
    of rows: [[DatabaseValue]], references: [StoredReference], _ db: some SQLConnection
) throws -> (row: Int, reference: StoredReference, id: DatabaseValue)? {
    var first: (row: Int, reference: StoredReference, id: DatabaseValue)?
    for (index, reference) in references.enumerated() {
        // The ids as an array of the dialect (`null` is one in both), and the first (0-based) with no parent.
        let ids = rows.map { row in if case .integer(let id) = row[index] { String(id) } else { "null" } }.joined(separator: ",")
        let (argument, sql) = switch db.dialect {
        case .sqlite: ("[\(ids)]", """
            SELECT min(key) FROM json_each(?)
            WHERE type = 'integer' AND NOT EXISTS (SELECT 1 FROM \(reference.parent) WHERE id = value)
            """)
        case .postgreSQL: ("{\(ids)}", """
            SELECT min(t.n) - 1 FROM unnest(?::bigint[]) WITH ORDINALITY AS t(id, n)
            WHERE t.id IS NOT NULL AND NOT EXISTS (SELECT FROM \(reference.parent) AS p WHERE p.id = t.id)
            """)
        }
        guard case .integer(let found) = try db.fetchRows(sql: sql, values: [.text(argument)]).first?.first,
              first.map({ Int(found) < $0.row }) ?? true
        else { continue }
        first = (Int(found), reference, rows[Int(found)][index])
    }
    return first
}

extension EntityFileError {
    /// The refusal of the record at `place` whose `reference` holds `id`, the id of no stored
    /// parent: what both engines' imports say, SQLite's message named by the record's place.
    init(missingParentOf reference: StoredReference, id: DatabaseValue, at place: EntitySource.Place) {
        self.init(
            path: place.source,
            reason: "\(place.location): FOREIGN KEY constraint failed: \(reference.attribute) \(AttributeSections.text(id)) "
                + "is not the id of a stored \(reference.parent) row")
    }
}
