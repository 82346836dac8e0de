import ArgumentParser
import Catalog

extension CatalogCommand {
    /// `catalog list`: the sectioned, sorted records, each with its index path.
    struct List: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "list",
            _superCommandName: CatalogCommand.commandName,
            abstract: "List records in sections, each row with its index path (section.row).",
            discussion: """
                Products are in sections by type; phones by the first letter of their name (or by maker or \
                year when sorted so). `catalog show PATH` with the same options shows the row printed at PATH. \
                Rows are written as they are read, so a result of any size starts at once in little memory. \
                A table's columns are as wide as their widest value among the first 50 rows; a wider value \
                later is written whole and pushes the rest of its line right (never cut): use --format tsv \
                or csv for columns a program reads.

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
                try printSections(entity.entityType, catalog, choice, format: format)
            }
        }
    }
}

/// Prints the result of `choice` as `list` does: a table (or why the result is empty: an empty store,
/// or nothing matching the search) or a data format, each row as it is read; or JSON, one document.
func printSections<Entity: CatalogEntity>(
    _ type: Entity.Type, _ catalog: CatalogStore, _ choice: ListChoice, format: OutputFormat
) throws {
    let request = try choice.request(Entity.self)
    if format == .json {
        try printSections(try catalog.sections(request), catalog, request, format: format)
    } else {
        try writeListing(catalog, request, format: format)
    }
}

/// Prints `sections`, the result of `request`, as `list` does; JSON on one line when `compact`.
func printSections<Entity: CatalogEntity>(
    _ sections: [EntitySection<Entity>], _ catalog: CatalogStore, _ request: ListRequest<Entity>, format: OutputFormat,
    compact: Bool = false
) throws {
    if format == .json {
        let state = try ResultState(hasRows: !sections.isEmpty, catalog, request)
        Terminal.print(try renderJSON(ListJSON(entity: Entity.kind, state: state, sections: sections), compact: compact))
    } else if sections.isEmpty && format == .table {
        Terminal.print(emptyResultMessage(try ResultState(hasRows: false, catalog, request), request))
    } else {
        try writeListing(sections, format: format)
    }
}
