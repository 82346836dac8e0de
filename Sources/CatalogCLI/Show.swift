import ArgumentParser
import Catalog
import FetchedResults
import RecordFormats

extension CatalogCommand {
    /// `catalog show`: one record, by index path in a listed result or by id.
    struct Show: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "show",
            _superCommandName: CatalogCommand.commandName,
            abstract: "Show one record: the row at an index path of `list` (same options), or by --id.",
            discussion: """
                The index path is resolved against the result that `list` (or `search`) prints with the \
                same --entity, --scope, --search, --sort and --reverse, so it names the row you saw.

                Examples:
                  catalog show 0.1
                  catalog show 0.1 --scope device --sort year
                  catalog show 0.1 --search mac
                  catalog show --id 7 --entity phones --json
                  catalog show 0.1 --format csv
                """)

        @Argument(
            help: ArgumentHelp("The row's index path, as `list` printed it (section.row).", valueName: "section.row"),
            transform: ItemPath.init(parsing:))
        var path: ItemPath?

        @Option(name: .long, help: ArgumentHelp("Show the record with this id instead.", valueName: "id"))
        var id: Int64?

        @OptionGroup var list: ListOptions
        @Option(name: .long, help: OutputFormat.optionHelp) var format: OutputFormat?

        func validate() throws {
            if path == nil && id == nil {
                if let word = negativeNumberArgument() { throw ValidationError(ItemPathParseError(text: word).description) }
                throw ValidationError("give an index path (section.row, both numbers from 0) or --id")
            }
            if path != nil && id != nil { throw ValidationError("give an index path or --id, not both") }
            if let id, id < 0 { throw invalidIDError(String(id)) }
            // Checked while parsing (run() reads the same), so that a scope, sort or format this list
            // does not take is told with this command's usage, not the root's.
            _ = try list.choice(for: list.entity ?? .products)
            _ = try OutputFormat.resolved(format, json: list.json)
        }

        func run() throws {
            let entity = list.entity ?? .products
            let choice = try list.choice(for: entity)
            let format = try OutputFormat.resolved(self.format, json: list.json)
            try reportingFailures {
                let catalog = try list.openStoreForShortRead()
                try show(entity.entityType, catalog, choice, format)
            }
        }

        private func show<Entity: CatalogEntity>(
            _ type: Entity.Type, _ catalog: CatalogStore, _ choice: ListChoice, _ format: OutputFormat
        ) throws {
            let request = try choice.request(Entity.self)
            let record: Entity
            let shownPath: ItemPath?
            if let path {
                record = try catalog.record(at: path, in: request)
                shownPath = path
            } else {
                guard let found = try catalog.fetchOne(Entity.self, id: id!) else {
                    throw CatalogError.notFound(entity: Entity.kind, id: id!)
                }
                record = found
                shownPath = try catalog.itemPath(ofID: id!, in: request)
            }
            switch format {
            case .table:
                Terminal.print(renderDetail(record, path: shownPath))
            case .json:
                Terminal.print(try renderJSON(PathedEntity(path: shownPath, record: record)))
            case .jsonl, .csv, .tsv:
                let writer = RecordWriter(
                    format: format.dataFormat!, layout: Entity.layout, extraFields: ["path"], output: .standardOutput())
                try writer.write(record, extras: [shownPath.map { .text($0.description) }])
                try writer.finish()
            }
        }
    }
}
