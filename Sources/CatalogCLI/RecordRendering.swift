import Catalog
import FetchedResults
import Foundation
import RecordFormats

/// How a record shows in a table row and in a detail view.
protocol RenderableRecord: CatalogRecord {
    /// The table's column titles after `PATH` (the last is `ID`).
    static var tableHeaders: [String] { get }
    /// Columns, counted after `PATH`, that hold numbers and are right-aligned.
    static var numericColumns: Set<Int> { get }
    /// The row's cells, matching ``tableHeaders``.
    var tableCells: [String] { get }
    /// Labelled fields for `show`.
    var detailFields: [(String, String)] { get }
    /// One line naming the record, for messages (`product 3: iPod touch`).
    var summary: String { get }
}

extension Product: RenderableRecord {
    static var tableHeaders: [String] { ["NAME", "TYPE", "YEAR", "PRICE", "ID"] }
    static var numericColumns: Set<Int> { [2, 3, 4] }
    var tableCells: [String] {
        [name, type.rawValue, String(yearIntroduced), formatAmount(introPrice), id.map(String.init) ?? ""]
    }
    var detailFields: [(String, String)] {
        [("id", id.map(String.init) ?? ""), ("name", name), ("type", type.rawValue),
         ("year introduced", String(yearIntroduced)), ("intro price", "$" + formatAmount(introPrice))]
    }
    var summary: String { "product \(id.map(String.init) ?? "?"): \(name) (\(type.rawValue), \(yearIntroduced), $\(formatAmount(introPrice)))" }
}

extension Phone: RenderableRecord {
    static var tableHeaders: [String] { ["NAME", "MAKER", "YEAR", "OS", "SCREEN", "ID"] }
    static var numericColumns: Set<Int> { [2, 4, 5] }
    var tableCells: [String] {
        [name, maker, String(yearReleased), operatingSystem, formatScreen(screenInches), id.map(String.init) ?? ""]
    }
    var detailFields: [(String, String)] {
        [("id", id.map(String.init) ?? ""), ("name", name), ("maker", maker), ("year released", String(yearReleased)),
         ("operating system", operatingSystem), ("screen", formatScreen(screenInches))]
    }
    var summary: String { "phone \(id.map(String.init) ?? "?"): \(name) (\(maker), \(yearReleased))" }
}

/// `1299.5` → `1,299.50`.
func formatAmount(_ value: Double) -> String {
    let cents = Int64((value * 100).rounded())
    var whole = String(cents / 100)
    var grouped = ""
    while whole.count > 3 {
        grouped = "," + whole.suffix(3) + grouped
        whole = String(whole.dropLast(3))
    }
    let fraction = cents % 100
    return whole + grouped + "." + (fraction < 10 ? "0" : "") + String(fraction)
}

/// `6.1` → `6.1"`.
func formatScreen(_ inches: Double) -> String {
    var text = String(format: "%.\(Phone.screenDecimals)f", inches)
    while text.hasSuffix("0") { text.removeLast() }
    if text.hasSuffix(".") { text.removeLast() }
    return text + "\""
}

/// Renders sections as an aligned table: a header, then each section's title and its rows with paths.
func renderSections<Record: RenderableRecord>(_ sections: [RecordSection<Record>]) -> String {
    var table = TextTable(rightAligned: Set(Record.numericColumns.map { $0 + 1 }))
    table.append(["PATH"] + Record.tableHeaders)
    for (sectionIndex, section) in sections.enumerated() {
        table.appendText("\(section.name) (\(section.records.count))")
        for (row, record) in section.records.enumerated() {
            table.append([ItemPath(section: sectionIndex, row: row).description] + record.tableCells)
        }
    }
    return table.render()
}

/// Renders one record's fields as `label: value` lines.
func renderDetail<Record: RenderableRecord>(_ record: Record, path: ItemPath?) -> String {
    var table = TextTable()
    if let path { table.append(["path:", path.description]) }
    for (label, value) in record.detailFields { table.append([label + ":", value]) }
    return table.render()
}

// MARK: - JSON

/// A record with its index path, encoded as the record's fields plus `path`.
struct PathedRecord<Record: Encodable>: Encodable {
    let path: ItemPath?
    let record: Record

    private enum CodingKeys: String, CodingKey { case path }

    func encode(to encoder: any Encoder) throws {
        try record.encode(to: encoder)
        if let path {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(path.description, forKey: .path)
        }
    }
}

/// A section in JSON: `name`, `indexTitle`, `count`, `rows`.
struct SectionJSON<Record: Encodable>: Encodable {
    let name: String
    let indexTitle: String
    let count: Int
    let rows: [PathedRecord<Record>]
}

/// A listed result in JSON: `entity`, `state` and `sections`.
struct ListJSON<Record: Encodable>: Encodable {
    let entity: String
    let state: ResultState
    let sections: [SectionJSON<Record>]

    init(entity: Entity, state: ResultState, sections: [RecordSection<Record>]) where Record: CatalogRecord {
        self.entity = entity.rawValue
        self.state = state
        self.sections = sections.enumerated().map { index, section in
            SectionJSON(
                name: section.name, indexTitle: section.indexTitle, count: section.records.count,
                rows: section.records.enumerated().map { row, record in
                    PathedRecord(path: ItemPath(section: index, row: row), record: record)
                })
        }
    }
}

/// Encodes a value as JSON with sorted keys: pretty-printed, or on one line (`compact`) for streams.
func renderJSON<Value: Encodable>(_ value: Value, compact: Bool = false) throws -> String {
    let encoder = JSONEncoder()
    encoder.outputFormatting = compact ? [.sortedKeys, .withoutEscapingSlashes] : [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
    return String(decoding: try encoder.encode(value), as: UTF8.self)
}

// MARK: - Listing

/// A record the CLI can list, whatever its entity.
protocol ListableRecord: RenderableRecord {
    /// The sections of `request` in `store`.
    static func sections(in store: CatalogStore, _ request: ListRequest) throws -> [RecordSection<Self>]
}

extension Product: ListableRecord {
    static func sections(in store: CatalogStore, _ request: ListRequest) throws -> [RecordSection<Product>] {
        try store.sections(request)
    }
}

extension Phone: ListableRecord {
    static func sections(in store: CatalogStore, _ request: ListRequest) throws -> [RecordSection<Phone>] {
        try store.sections(request)
    }
}

/// Calls `body` with the record type of `entity`.
func withRecordType<Result>(_ entity: Entity, _ body: (any ListableRecord.Type) throws -> Result) rethrows -> Result {
    switch entity {
    case .products: try body(Product.self)
    case .phones: try body(Phone.self)
    }
}

/// Whether a listed result has rows, and if not, why: `results`; `noMatches` when a search matched
/// none of the records there are (in the scope); `empty` when there are no records (in the scope) at all.
enum ResultState: String, Encodable {
    case results
    case empty
    case noMatches

    /// The state of `sections`, the result of `request`.
    init<Record>(_ sections: [RecordSection<Record>], _ catalog: CatalogStore, _ request: ListRequest) throws {
        if !sections.isEmpty {
            self = .results
        } else if !request.searchQuery.isEmpty, try catalog.hasRecords(request) {
            self = .noMatches
        } else {
            self = .empty
        }
    }
}

/// What `list` and `search` print for an empty result: that nothing matched the search, or that there
/// is nothing to list at all.
func emptyResultMessage(_ state: ResultState, _ request: ListRequest) -> String {
    if state == .noMatches {
        // The text as typed, between quotes, nothing escaped (`a'` stays `a'`).
        return "No results for \"\(request.searchText)\""
    }
    let scope = request.scope.map { " of type \($0.rawValue)" } ?? ""
    return "No \(request.entity.rawValue)\(scope) yet — add one with `catalog add \(request.entity.singular) …` or `catalog seed`."
}

// MARK: - Data formats

/// Writes listed rows in a data format, one line or row each, with their `section` and `path`; an
/// empty result writes nothing (not even a header).
func writeRows<Record: CatalogRecord>(_ sections: [RecordSection<Record>], _ format: DataFormat) throws {
    let writer = RecordWriter(
        format: format, layout: Record.layout, extraFields: ["section", "path"], output: .standardOutput(),
        writesHeaderWhenEmpty: false)
    for (sectionIndex, section) in sections.enumerated() {
        for (row, record) in section.records.enumerated() {
            try writer.write(record, extras: [.text(section.name), .text(ItemPath(section: sectionIndex, row: row).description)])
        }
    }
    try writer.finish()
}
