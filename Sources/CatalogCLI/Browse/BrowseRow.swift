import Catalog

/// A record as the browse screen shows it: its id, the cells of its row, and every field for the
/// detail view. Entity-agnostic, so that the screen model is one type for products and phones.
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

/// The columns of an entity's list: titles, which are numbers (right-aligned), and how wide they are.
struct BrowseColumns: Hashable, Sendable {
    /// The column titles.
    var titles: [String]
    /// Fixed widths of every column but the first (the name), which takes the rest of the line.
    var widths: [Int]
    /// Columns, by index, that are right-aligned.
    var rightAligned: Set<Int>

    /// The columns of `entity`.
    static func of(_ entity: Entity) -> BrowseColumns {
        switch entity {
        case .products:
            BrowseColumns(titles: ["NAME", "TYPE", "YEAR", "PRICE", "ID"], widths: [8, 4, 10, 8], rightAligned: [2, 3, 4])
        case .phones:
            BrowseColumns(
                titles: ["NAME", "MAKER", "YEAR", "OS", "SCREEN", "ID"], widths: [12, 4, 10, 6, 8], rightAligned: [2, 4, 5])
        }
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
    var storeHasRecords: Bool = true

    /// The rows of every section.
    var count: Int { sections.reduce(0) { $0 + $1.count } }
}
