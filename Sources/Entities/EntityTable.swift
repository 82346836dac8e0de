import SQLiteStore
import TextSearch

/// A declared entity's table as its declaration describes it: the columns (type, NOT NULL, default,
/// CHECK, UNIQUE, references), the folded columns, the indexes, the counts of the sectioned indexes'
/// sections, the change tracking and, for a ``SearchableEntity``, the search structures.
/// ``EntitySchema`` creates it in the first migration of an embedder's set and checks it each time a
/// store opens.
///
/// ```swift
/// print(EntityTable(Book.self).createSQL())   // CREATE TABLE books (id INTEGER PRIMARY KEY, …
/// ```
public struct EntityTable: Sendable {
    /// The table's name.
    public let name: String
    /// The entity's type name, for messages (`Book`).
    public let entityName: String
    /// The columns after `id`, in the declaration's order.
    let columns: [Column]
    /// The indexes, `UNIQUE` ones apart (SQLite makes those for the columns).
    let indexes: [Index]
    /// Whether the table's row events are logged (`ChangeLog`).
    let tracksChanges: Bool
    /// What is searched, for a searchable entity: its structures are installed with the table.
    let search: SearchDescription?
    /// The section expressions of the sectioned indexes, in order: the table's rows are counted by
    /// each (`SectionCounts`), so that a controller reads a list's sections without a `GROUP BY`.
    let countedSections: [String]

    /// One column after `id`.
    struct Column: Sendable, Equatable {
        let name: String
        /// The attribute it stores, for messages (`title`, or `title` for `title_folded` too).
        let attribute: String
        let definition: ColumnDefinition
        /// The table whose `id` it references, and what deleting that row does.
        let reference: Reference?
    }

    /// An index: its name and its expressions, in order.
    struct Index: Sendable, Equatable {
        let name: String
        let expressions: [String]
    }

    /// The table of a declared entity.
    public init<Entity: DeclaredEntity>(_ type: Entity.Type) {
        self.init(Entity.declaration, search: nil)
    }

    /// The table of a searchable entity, its search structures included (its `searchDescription`'s
    /// `installSQL` on SQLite, PostgreSQLSearch's on PostgreSQL).
    public init<Entity: SearchableEntity>(_ type: Entity.Type) {
        self.init(Entity.declaration, search: Entity.searchDescription)
    }

    private init<Entity: DeclaredEntity>(_ declaration: EntityDeclaration<Entity>, search: SearchDescription?) {
        let templateValues = declaration.storedValues(of: declaration.template)
        var columns: [Column] = []
        for attribute in declaration.attributes {
            let definition = attribute.columnDefinition.resolved(template: templateValues[columns.count])
            columns.append(Column(name: attribute.column, attribute: attribute.name, definition: definition, reference: attribute.reference))
            if let folded = attribute.foldedColumn {
                let defaultValue = definition.defaultValue.flatMap { value -> DatabaseValue? in
                    guard case .text(let text) = value else { return nil }
                    return .text(declaration.folding(text))
                }
                columns.append(Column(
                    name: folded, attribute: attribute.name,
                    definition: ColumnDefinition(
                        type: .text, isOptional: definition.isOptional, isUnique: false, defaultValue: defaultValue, sqlCheck: nil),
                    reference: nil))
            }
        }
        var indexes: [Index] = []
        var countedSections: [String] = []
        for attribute in declaration.attributes where attribute.reference != nil {
            // A parent's children are found by this index, and deleting a parent looks them up by it.
            indexes.append(Index(name: "\(declaration.table)_by_\(attribute.column)", expressions: [SQLText.identifier(attribute.column), "id"]))
        }
        for index in declaration.indexes {
            var expressions: [String] = []
            var names: [String] = []
            if let section = index.sectionKeyPath, let column = declaration.column(for: section) {
                expressions.append(column.sectionExpression)
                if !countedSections.contains(column.sectionExpression) { countedSections.append(column.sectionExpression) }
            }
            for keyPath in index.keyPaths {
                guard let attribute = declaration.attribute(for: keyPath) else {
                    preconditionFailure("an index of \(declaration.table) names a key path that is not an attribute")
                }
                if !expressions.contains(attribute.entityColumn.sortExpression) {
                    expressions.append(attribute.entityColumn.sortExpression)
                }
                names.append(attribute.column)
            }
            expressions.append("id")
            indexes.append(Index(name: "\(declaration.table)_by_\(names.joined(separator: "_"))", expressions: expressions))
        }
        self.name = declaration.table
        self.entityName = String(describing: Entity.self)
        self.columns = columns
        self.indexes = indexes
        self.tracksChanges = declaration.tracksChanges
        self.search = search
        self.countedSections = countedSections
    }
}
