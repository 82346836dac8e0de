import ArgumentParser
import Catalog
import RecordFormats

extension CatalogCommand {
    /// `catalog suggest`: names that complete a typed prefix.
    struct Suggest: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "suggest",
            _superCommandName: CatalogCommand.commandName,
            abstract: "Names that start with a prefix, ignoring case, accents and width.",
            discussion: """
                Examples:
                  catalog suggest mac
                  catalog suggest ip --limit 3 --json
                  catalog suggest gal --entity phones
                  catalog suggest mac --format jsonl
                """)

        @Argument(help: ArgumentHelp("What has been typed so far.", valueName: "prefix"))
        var prefix: String

        @Option(name: .long, help: ArgumentHelp("The most names to print.", valueName: "n"))
        var limit = 10

        @OptionGroup var store: StoreOptions
        @Option(name: .long, help: OutputFormat.optionHelp) var format: OutputFormat?

        func validate() throws {
            guard (0...10_000).contains(limit) else { throw ValidationError("--limit must be from 0 to 10000") }
            _ = try OutputFormat.resolved(format, json: store.json)
        }

        func run() throws {
            let format = try OutputFormat.resolved(self.format, json: store.json)
            try reportingFailures {
                let names = try store.openStoreForShortRead().suggest(prefix: prefix, limit: limit, entity: store.entity ?? .products)
                switch format {
                case .table:
                    if !names.isEmpty { Terminal.print(names.joined(separator: "\n")) }
                case .json:
                    Terminal.print(try renderJSON(names))
                case .jsonl, .csv, .tsv:
                    // Records of one field, `name`; no names print nothing.
                    let layout = RecordLayout(template: "", fields: [RecordField<String>.text("name", \.self)])
                    let writer = RecordWriter(
                        format: format.dataFormat!, layout: layout, output: .standardOutput(), writesHeaderWhenEmpty: false)
                    for name in names { try writer.write(name) }
                    try writer.finish()
                }
            }
        }
    }
}
