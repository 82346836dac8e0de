import ArgumentParser
import Catalog

extension CatalogCommand {
    /// `catalog list`: the sectioned, sorted records, each with its index path.
    struct List: FastParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "list",
            abstract: "List records in sections, each row with its index path (section.row).",
            discussion: """
                Products are in sections by type; phones by the first letter of their name (or by maker or \
                year when sorted so). `catalog show PATH` with the same options shows the row printed at PATH.

                Examples:
                  catalog list
                  catalog list products --scope portable --sort price --reverse
                  catalog list phones --json
                  catalog list --format csv > products.csv
                  catalog list --search "mac pro"
                """)

        @OptionGroup var options: ListedResultOptions

        func run() throws {
            let (entity, choice, format) = try options.resolved()
            try reportingFailures {
                let catalog = try options.list.openStoreForShortRead()
                try printSections(entity.recordType, catalog, choice, format: format)
            }
        }
    }
}

/// Prints the sections of `choice` as `list` does: a table (or why the result is empty: an empty
/// store, or nothing matching the search), JSON, or one row per line or record.
func printSections<Record: CatalogRecord>(
    _ type: Record.Type, _ catalog: CatalogStore, _ choice: ListChoice, format: OutputFormat
) throws {
    let request = try choice.request(Record.self)
    try printSections(try catalog.sections(request), catalog, request, format: format)
}

/// Prints `sections`, the result of `request`, as `list` does; JSON on one line when `compact`.
func printSections<Record: CatalogRecord>(
    _ sections: [RecordSection<Record>], _ catalog: CatalogStore, _ request: ListRequest<Record>, format: OutputFormat,
    compact: Bool = false
) throws {
    switch format {
    case .json:
        let state = try ResultState(sections, catalog, request)
        Terminal.print(try renderJSON(ListJSON(entity: Record.entity, state: state, sections: sections), compact: compact))
    case .table:
        if sections.isEmpty {
            Terminal.print(emptyResultMessage(try ResultState(sections, catalog, request), request))
        } else {
            Terminal.print(renderSections(sections))
        }
    case .jsonl, .csv, .tsv:
        try writeRows(sections, format.dataFormat!)
    }
}

extension CatalogCommand.List {
    static let grammar = ListedResultOptions.grammar

    init(scanning arguments: ScannedArguments) throws {
        var list = Self()
        list.options = try ListedResultOptions(scanning: arguments)
        try list.validate()
        self = list
    }
}
