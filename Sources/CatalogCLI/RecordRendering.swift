import Catalog
import Entities
import FetchedResults
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import RecordFormats

/// How a record shows in a table row, a detail view and a message: derived from its declared
/// attributes (their titles, labels and shown values), so a new attribute shows without a change here.
extension CatalogRecord {
    /// The attributes as tables and detail views show them: the name first, then the others as declared.
    static var shownAttributes: [EntityAttribute<Self>] {
        declaration.attributes.filter { $0.name == "name" } + declaration.attributes.filter { $0.name != "name" }
    }

    /// The table's column titles after `PATH` (the last is `ID`).
    static var tableHeaders: [String] { shownAttributes.map(\.title) + ["ID"] }

    /// Columns, counted after `PATH`, that hold numbers and are right-aligned: those of attributes
    /// written as numbers in files, and `ID`.
    static var numericColumns: Set<Int> {
        let numeric = Set(declaration.recordLayout.fields.filter { $0.kind != .text }.map(\.name))
        var columns = Set(shownAttributes.indices.filter { numeric.contains(shownAttributes[$0].name) })
        columns.insert(shownAttributes.count)
        return columns
    }

    /// The row's cells, matching ``tableHeaders``.
    var tableCells: [String] { Self.shownAttributes.map { $0.shownValue(of: self) } + [id.map(String.init) ?? ""] }

    /// Labelled fields for `show`: `id`, then each attribute.
    var detailFields: [(String, String)] {
        [("id", id.map(String.init) ?? "")] + Self.shownAttributes.map { ($0.label, $0.detailValue(of: self)) }
    }

    /// One line naming the record, for messages: `product 3: iPod touch (device, 2007, $599.00)`; empty
    /// values are left out.
    var summary: String {
        let others = Self.shownAttributes.filter { $0.name != "name" }.map { $0.detailValue(of: self) }.filter { !$0.isEmpty }
        return "\(Self.entity.singular) \(id.map(String.init) ?? "?"): \(name) (\(others.joined(separator: ", ")))"
    }
}

/// Renders sections as an aligned table: a header, then each section's title and its rows with paths.
func renderSections<Record: CatalogRecord>(_ sections: [RecordSection<Record>]) -> String {
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
func renderDetail<Record: CatalogRecord>(_ record: Record, path: ItemPath?) -> String {
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

/// Whether a listed result has rows, and if not, why: `results`; `noMatches` when a search matched
/// none of the records there are (in the scope); `empty` when there are no records (in the scope) at all.
enum ResultState: String, Encodable {
    case results
    case empty
    case noMatches

    /// The state of `sections`, the result of `request`.
    init<Record>(_ sections: [RecordSection<Record>], _ catalog: CatalogStore, _ request: ListRequest<Record>) throws {
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
func emptyResultMessage<Record>(_ state: ResultState, _ request: ListRequest<Record>) -> String {
    if state == .noMatches {
        // The text as typed, between quotes, nothing escaped (`a'` stays `a'`).
        return "No results for \"\(request.searchText)\""
    }
    let scope = request.scope.map { " of type \($0.rawValue)" } ?? ""
    return "No \(Record.entity.rawValue)\(scope) yet — add one with `catalog add \(Record.entity.singular) …` or `catalog seed`."
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
