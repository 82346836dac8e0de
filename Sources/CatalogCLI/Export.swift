import ArgumentParser
import Catalog
import Foundation

extension CatalogCommand {
    /// `catalog export`: writes every record of an entity as JSON.
    struct Export: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "export",
            abstract: "Export every record of an entity as a JSON file that `import` and `seed` read.",
            discussion: """
                Examples:
                  catalog export > products.json
                  catalog export --entity phones --output phones.json
                """)

        @Option(help: ArgumentHelp("Write to this file (atomically) instead of standard output.", valueName: "file"),
                completion: .file(extensions: ["json"]))
        var output: String?

        @OptionGroup var store: StoreOptions

        func run() throws {
            try reportingFailures {
                let catalog = try store.openStore()
                let json = switch store.entity ?? .products {
                case .products: try renderJSON(try catalog.fetchAll(Product.self))
                case .phones: try renderJSON(try catalog.fetchAll(Phone.self))
                }
                if let output {
                    do {
                        try Data((json + "\n").utf8).write(to: URL(fileURLWithPath: output), options: .atomic)
                    } catch {
                        throw CatalogError.inaccessibleFile(path: output, reason: "it cannot be written")
                    }
                } else {
                    Terminal.print(json)
                }
            }
        }
    }
}
