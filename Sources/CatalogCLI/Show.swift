import ArgumentParser
import Catalog
import FetchedResults

extension CatalogCommand {
    /// `catalog show`: one record, by index path in a listed result or by id.
    struct Show: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "show",
            abstract: "Show one record: the row at an index path of `list` (same options), or by --id.",
            discussion: """
                The index path is resolved against the result that `list` (or `search`) prints with the \
                same --entity, --scope, --search, --sort and --reverse, so it names the row you saw.

                Examples:
                  catalog show 0.1
                  catalog show 1.0 --scope device --sort year
                  catalog show 0.1 --search mac
                  catalog show --id 7 --entity phones --json
                """)

        @Argument(
            help: ArgumentHelp("The row's index path, as `list` printed it (section.row).", valueName: "section.row"),
            transform: { try ItemPath(parsing: $0) })
        var path: ItemPath?

        @Option(name: .long, help: ArgumentHelp("Show the record with this id instead.", valueName: "id"))
        var id: Int64?

        @OptionGroup var store: StoreOptions
        @OptionGroup var list: ListOptions

        func validate() throws {
            if path == nil && id == nil {
                if let word = negativeNumberArgument() { throw ValidationError(ItemPathParseError(text: word).description) }
                throw ValidationError("give an index path (section.row, both numbers from 0) or --id")
            }
            if path != nil && id != nil { throw ValidationError("give an index path or --id, not both") }
        }

        func run() throws {
            let entity = store.entity ?? .products
            let request = try list.request(for: entity)
            try reportingFailures {
                let catalog = try store.openStore()
                try withRecordType(entity) { type in try show(type, catalog, request) }
            }
        }

        private func show<Record: ListableRecord>(_ type: Record.Type, _ catalog: CatalogStore, _ request: ListRequest) throws {
            let record: Record
            let shownPath: ItemPath?
            if let path {
                record = try catalog.record(Record.self, at: path, in: request)
                shownPath = path
            } else {
                guard let found = try catalog.fetchOne(Record.self, id: id!) else {
                    throw CatalogError.notFound(entity: entity(Record.self), id: id!)
                }
                record = found
                shownPath = try catalog.itemPath(Record.self, ofID: id!, in: request)
            }
            if store.json {
                Terminal.print(try renderJSON(PathedRecord(path: shownPath, record: record)))
            } else {
                Terminal.print(renderDetail(record, path: shownPath))
            }
        }

        private func entity<Record: CatalogRecord>(_ type: Record.Type) -> Entity { Record.entity }
    }
}
