import ArgumentParser
import Catalog

extension CatalogCommand {
    /// `catalog suggest`: names that complete a typed prefix.
    struct Suggest: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "suggest",
            abstract: "Names that start with a prefix, ignoring case, accents and width.",
            discussion: """
                Examples:
                  catalog suggest mac
                  catalog suggest ip --limit 3 --json
                  catalog suggest gal --entity phones
                """)

        @Argument(help: ArgumentHelp("What has been typed so far.", valueName: "prefix"))
        var prefix: String

        @Option(name: .long, help: ArgumentHelp("The most names to print (default: 10).", valueName: "n"))
        var limit = 10

        @OptionGroup var store: StoreOptions

        func validate() throws {
            guard (0...10_000).contains(limit) else { throw ValidationError("--limit must be from 0 to 10000") }
        }

        func run() throws {
            try reportingFailures {
                let names = try store.openStore().suggest(prefix: prefix, limit: limit, entity: store.entity ?? .products)
                if store.json {
                    Terminal.print(try renderJSON(names))
                } else if !names.isEmpty {
                    Terminal.print(names.joined(separator: "\n"))
                }
            }
        }
    }
}
