import ArgumentParser
import Catalog

extension CatalogCommand {
    /// `catalog search`: the records that match a search, in the sections and order of `list`.
    struct Search: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "search",
            _superCommandName: CatalogCommand.commandName,
            abstract: "Search names (and phone makers), listed like `list`, with index paths.",
            discussion: """
                Every word must match. A word matches a name that contains it, ignoring case, accents and \
                width (ｍａｃ finds Mac, cafe finds Café); a product also matches a number equal to its \
                year or price (2007, 599.00). Quotes, *, -, AND, OR and the like are looked for as typed. \
                `catalog show PATH --search TEXT` with the same options shows the row printed at PATH. \
                Rows are written as they are read, so a result of any size starts at once in little memory. \
                A table's columns are as wide as their widest value among the first 50 rows; a wider value \
                later is written whole and pushes the rest of its line right (never cut): use --format tsv \
                or csv for columns a program reads.

                Examples:
                  catalog search iphone 599 2007
                  catalog search mac --scope desktop
                  catalog search 東京 --entity phones --json
                  catalog search mac --format jsonl
                """)

        @Argument(
            parsing: .allUnrecognized,
            help: ArgumentHelp("The words to look for.", valueName: "text"))
        var words: [String] = []

        @OptionGroup var list: ListOptions
        @Option(name: .long, help: OutputFormat.optionHelp) var format: OutputFormat?

        // Checked while parsing (run() reads the same), so that a scope, sort or format this list does
        // not take is told with this command's usage, not the root's.
        func validate() throws {
            _ = try list.choice(for: list.entity ?? .products)
            _ = try OutputFormat.resolved(format, json: list.json)
        }

        func run() throws {
            let entity = list.entity ?? .products
            // The parser keeps the `--` that ends options among the words: it is no word of the search.
            var words = words
            if let terminator = words.firstIndex(of: "--") { words.remove(at: terminator) }
            let text = ([list.search].compactMap { $0 } + words).joined(separator: " ")
            let choice = try list.choice(for: entity, searchText: text)
            let format = try OutputFormat.resolved(self.format, json: list.json)
            try reportingFailures {
                let catalog = try list.openStoreForShortRead()
                try printSections(entity.entityType, catalog, choice, format: format)
            }
        }
    }
}
