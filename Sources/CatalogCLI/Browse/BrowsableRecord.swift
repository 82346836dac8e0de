import Catalog

/// A record the browse screen lists: its row and detail fields.
protocol BrowsableRecord: CatalogRecord {
    /// The record as a row of the browse list, under ``BrowseColumns/of(_:)`` of its entity.
    var browseRow: BrowseRow { get }
}

extension BrowsableRecord {
    /// The detail fields of ``CatalogRecord/detailFields`` as ``BrowseRow/Field``s.
    var browseFields: [BrowseRow.Field] { detailFields.map { BrowseRow.Field(label: $0.0, value: $0.1) } }
}

extension Product: BrowsableRecord {
    var browseRow: BrowseRow {
        BrowseRow(
            id: id ?? 0, cells: [name, type.title, String(yearIntroduced), ShownNumber.amount(introPrice), id.map(String.init) ?? ""],
            fields: browseFields)
    }
}

extension Phone: BrowsableRecord {
    var browseRow: BrowseRow {
        BrowseRow(
            id: id ?? 0,
            cells: [name, maker, String(yearReleased), operatingSystem, ShownNumber.inches(screenInches), id.map(String.init) ?? ""],
            fields: browseFields)
    }
}
