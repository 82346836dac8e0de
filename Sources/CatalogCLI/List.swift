import ArgumentParser
import Catalog

extension CatalogCommand {
    /// `catalog list`: the sectioned, sorted records, each with its index path.
    struct List: ParsableCommand {
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
                  catalog list --search "mac pro"
                """)

        @Argument(
            help: ArgumentHelp("products or phones (same as --entity).", valueName: "entity"),
            completion: .list(["products", "phones"]),
            transform: parseEntity)
        var entityWord: Entity?

        @OptionGroup var store: StoreOptions
        @OptionGroup var list: ListOptions

        func run() throws {
            let entity = try resolveEntity(word: entityWord, option: store.entity)
            let request = try list.request(for: entity)
            try reportingFailures {
                let catalog = try store.openStore()
                try withRecordType(entity) { type in try printSections(type, catalog, request, json: store.json) }
            }
        }
    }
}

/// Prints the sections of `request` as `list` does: a table, JSON, or why the result is empty (an
/// empty store, or nothing matching the search).
func printSections<Record: ListableRecord>(
    _ type: Record.Type, _ catalog: CatalogStore, _ request: ListRequest, json: Bool
) throws {
    try printSections(try Record.sections(in: catalog, request), catalog, request, json: json)
}

/// Prints `sections`, the result of `request`, as `list` does.
func printSections<Record: ListableRecord>(
    _ sections: [RecordSection<Record>], _ catalog: CatalogStore, _ request: ListRequest, json: Bool, compact: Bool = false
) throws {
    if json {
        Terminal.print(try renderJSON(ListJSON(entity: request.entity, sections: sections), compact: compact))
    } else if sections.isEmpty {
        Terminal.print(try emptyResultMessage(catalog, request))
    } else {
        Terminal.print(renderSections(sections))
    }
}
