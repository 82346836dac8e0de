import Catalog

/// A record as the browse screen shows it: its id, the cells of its row, and every field for the
/// detail view. EntityKind-agnostic, so that the screen model is one type for products and phones.
struct BrowseRow: Hashable, Sendable {
    /// The record's id.
    var id: Int64
    /// The cells, under ``BrowseColumns/titles`` of its entity.
    var cells: [String]
    /// Every field, labelled, in order (`id` first).
    var fields: [Field]

    /// A labelled field of the detail view.
    struct Field: Hashable, Sendable {
        var label: String
        var value: String
    }
}

/// The columns of an entity's list: titles, which are numbers (right-aligned), and how wide they are,
/// as its entity type's declaration shows them (``CatalogEntity/tableHeaders``, each attribute's
/// `width`).
struct BrowseColumns: Hashable, Sendable {
    /// The column titles.
    var titles: [String]
    /// Fixed widths of every column but the first (the name), which takes the rest of the line.
    var widths: [Int]
    /// Columns, by index, that are right-aligned.
    var rightAligned: Set<Int>

    /// The width of the `ID` column: ids of up to 8 digits.
    static let idWidth = 8

    /// The columns of `Entity`: the name, its other attributes as declared, then `ID`.
    init<Entity: CatalogEntity>(_ type: Entity.Type) {
        titles = Entity.tableHeaders
        widths = Entity.shownAttributes.dropFirst().map(\.width) + [Self.idWidth]
        rightAligned = Entity.numericColumns
    }

    /// The columns of each entity, made once (the screen lays out every row with them).
    private static let ofEntity = Dictionary(uniqueKeysWithValues: EntityKind.allCases.map { ($0, BrowseColumns($0.entityType)) })

    /// The columns of `entity`.
    static func of(_ entity: EntityKind) -> BrowseColumns { ofEntity[entity]! }
}

extension CatalogEntity {
    /// The record as a row of the browse list, under ``BrowseColumns/of(_:)`` of its entity: the cells
    /// of its table row (``tableCells``), and its ``detailFields``.
    var browseRow: BrowseRow {
        BrowseRow(id: id ?? 0, cells: tableCells, fields: detailFields.map { BrowseRow.Field(label: $0.0, value: $0.1) })
    }
}

/// A section of a result, as the screen lists it.
struct SectionSummary: Hashable, Sendable {
    /// The section's name (`Desktop`, `A`, `Apple`).
    var name: String
    /// Its title in the section index (the controller's index title).
    var indexTitle: String
    /// Its number of rows.
    var count: Int
}

/// The result of a request as the screen needs it: sections with counts, and whether the store holds
/// any record of the entity at all (only asked when the result is empty).
struct ResultSummary: Hashable, Sendable {
    var sections: [SectionSummary]
    /// False when the entity's table is empty: the "no data yet" state rather than "no results".
    var storeHasEntities: Bool = true

    /// The rows of every section.
    var count: Int { sections.reduce(0) { $0 + $1.count } }
}
