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
extension CatalogEntity {
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
        return "\(Self.kind.singular) \(id.map(String.init) ?? "?"): \(name) (\(others.joined(separator: ", ")))"
    }
}

/// Renders one record's fields as `label: value` lines.
func renderDetail<Entity: CatalogEntity>(_ record: Entity, path: ItemPath?) -> String {
    var table = TextTable()
    if let path { table.append(["path:", path.description]) }
    for (label, value) in record.detailFields { table.append([label + ":", value]) }
    return table.render()
}

// MARK: - JSON

/// A record with its index path, encoded as the record's fields plus `path`.
struct PathedEntity<Entity: Encodable>: Encodable {
    let path: ItemPath?
    let record: Entity

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
struct SectionJSON<Entity: Encodable>: Encodable {
    let name: String
    let indexTitle: String
    let count: Int
    let rows: [PathedEntity<Entity>]
}

/// A listed result in JSON: `entity`, `state` and `sections`.
struct ListJSON<Entity: Encodable>: Encodable {
    let entity: String
    let state: ResultState
    let sections: [SectionJSON<Entity>]

    init(entity: EntityKind, state: ResultState, sections: [EntitySection<Entity>]) where Entity: CatalogEntity {
        self.entity = entity.rawValue
        self.state = state
        self.sections = sections.enumerated().map { index, section in
            SectionJSON(
                name: section.name, indexTitle: section.indexTitle, count: section.records.count,
                rows: section.records.enumerated().map { row, record in
                    PathedEntity(path: ItemPath(section: index, row: row), record: record)
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

    /// The state of the result of `request`, which has rows or not (`hasRows`).
    init<Entity>(hasRows: Bool, _ catalog: CatalogStore, _ request: ListRequest<Entity>) throws {
        if hasRows {
            self = .results
        } else if !request.searchQuery.isEmpty, try catalog.hasEntities(request) {
            self = .noMatches
        } else {
            self = .empty
        }
    }
}

/// What `list` and `search` print for an empty result: that nothing matched the search, or that there
/// is nothing to list at all.
func emptyResultMessage<Entity>(_ state: ResultState, _ request: ListRequest<Entity>) -> String {
    if state == .noMatches {
        // The text as typed, between quotes, nothing escaped (`a'` stays `a'`).
        return "No results for \"\(request.searchText)\""
    }
    let scope = request.scope.map { " of type \($0.rawValue)" } ?? ""
    return "No \(Entity.kind.rawValue)\(scope) yet — add one with `catalog add \(Entity.kind.singular) …` or `catalog seed`."
}

// MARK: - Writing a listed result

/// Writes a listed result as `list` does, in a table or a data format, as its rows come: ``begin(_:)``
/// with the sections, ``write(_:_:)`` for each row in order, then ``finish()``.
///
/// A table has a header (`PATH` and the attributes' titles), each section's title with its count
/// before its rows, and every row with its index path; its columns are as wide as their cells in the
/// first rows (``StreamedTable``). A data format writes one line or row per record, with its
/// `section` and `path`; an empty result writes nothing (not even a header).
struct ListingWriter<Entity: CatalogEntity> {
    /// Where rows go once begun: a table, or a data format's writer.
    private var table: StreamedTable?
    private var rows: RecordWriter<Entity>?
    private let format: OutputFormat
    private let output: ByteOutput
    private var sections: [FetchedSection] = []
    /// Rows written so far.
    private(set) var rowCount = 0

    /// A writer of `format` (a table, JSON lines, CSV or TSV) to `output`.
    init(format: OutputFormat, output: ByteOutput = .standardOutput()) {
        precondition(format != .json, "JSON is one document, written whole")
        self.format = format
        self.output = output
    }

    /// Starts the output of a result with these sections.
    mutating func begin(_ sections: [FetchedSection]) throws {
        self.sections = sections
        if let dataFormat = format.dataFormat {
            rows = RecordWriter(
                format: dataFormat, layout: Entity.layout, extraFields: ["section", "path"], output: output,
                writesHeaderWhenEmpty: false)
        } else {
            // The widest path is known from the counts: the last row of some section.
            let pathWidth = sections.indices.map { "\($0).\(sections[$0].numberOfObjects - 1)".count }.max() ?? 0
            var table = StreamedTable(
                rightAligned: Set(Entity.numericColumns.map { $0 + 1 }), minimumWidths: [pathWidth], output: output)
            // The header only with rows: an empty result is told in words instead.
            if !sections.isEmpty { try table.append(["PATH"] + Entity.tableHeaders) }
            self.table = table
        }
    }

    /// The rows to read first as a search reads a page, so that they come at once, and write out
    /// before reading on: a table's window (its column widths wait for them), and as many for a data
    /// format, which holds no row.
    static var firstRows: Int { StreamedTable.window }

    /// Writes the row at `path`.
    mutating func write(_ path: ItemPath, _ record: Entity) throws {
        let section = sections[path.section]
        if rows != nil { return try write(path, sectionName: section.name, record) }
        if path.row == 0 { try table!.appendText("\(section.name) (\(section.numberOfObjects))") }
        try table!.append([path.description] + record.tableCells)
        rowCount += 1
    }

    /// Writes the row at `path` in a data format, which needs its section's name only: begun with
    /// no sections, so that none is counted before the rows.
    mutating func write(_ path: ItemPath, sectionName: String, _ record: Entity) throws {
        try rows!.write(record, extras: [.text(sectionName), .text(path.description)])
        rowCount += 1
        // A data format's first rows are written out at once, as a table's held lines are.
        if rowCount == Self.firstRows { try output.flush() }
    }

    /// Writes what is held and flushes.
    mutating func finish() throws {
        try rows?.finish()
        try table?.finish()
    }
}

/// Writes `request`'s result as `list` and `search` do in a table or a data format, each row as it is
/// read (``CatalogStore/forEachEntity(in:firstRows:sectionsRead:_:)``), or for a table, why there is none.
///
/// - Throws: ``CommandFailure/outputNotWritten(path:code:)`` when standard output cannot be written;
///   what reading throws.
func writeListing<Entity: CatalogEntity>(_ catalog: CatalogStore, _ request: ListRequest<Entity>, format: OutputFormat) throws {
    var writer = ListingWriter<Entity>(format: format)
    do {
        if format.dataFormat != nil {
            try writer.begin([])
            try catalog.forEachEntity(in: request, firstRows: ListingWriter<Entity>.firstRows) { path, sectionName, record in
                try writer.write(path, sectionName: sectionName, record)
            }
        } else {
            try catalog.forEachEntity(in: request, firstRows: ListingWriter<Entity>.firstRows, sectionsRead: { try writer.begin($0) }) { path, record in
                try writer.write(path, record)
            }
        }
        try writer.finish()
    } catch let error as FileError {
        throw CommandFailure.outputNotWritten(path: nil, code: error.code)
    }
    if writer.rowCount == 0 && format == .table {
        Terminal.print(emptyResultMessage(try ResultState(hasRows: false, catalog, request), request))
    }
}

/// Writes sections already read as ``writeListing(_:_:format:)`` writes them.
func writeListing<Entity: CatalogEntity>(_ sections: [EntitySection<Entity>], format: OutputFormat) throws {
    var writer = ListingWriter<Entity>(format: format)
    try writer.begin(sections.map { section in
        FetchedSection(name: section.name, indexTitle: section.indexTitle, numberOfObjects: section.records.count, key: .null)
    })
    for (index, section) in sections.enumerated() {
        for (row, record) in section.records.enumerated() { try writer.write(ItemPath(section: index, row: row), record) }
    }
    try writer.finish()
}
