import ArgumentParser
import Catalog

extension CatalogCommand {
    /// `catalog import`: adds or updates records from JSON files.
    struct Import: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "import",
            abstract: "Import records from JSON files, updating records whose name already exists.",
            discussion: """
                Files have the format `export` writes (and `seed` reads). All files go in one transaction: \
                a bad file, or an interrupted import, changes nothing.

                Examples:
                  catalog export --output products.json
                  catalog import products.json --database copy.sqlite
                """)

        @Argument(help: ArgumentHelp("JSON files to import.", valueName: "file"), completion: .file(extensions: ["json"]))
        var files: [String]

        @OptionGroup var store: StoreOptions

        func validate() throws {
            if files.isEmpty { throw ValidationError("give at least one file to import") }
        }

        func run() throws {
            try reportingFailures {
                let seeds = try files.map { try SeedFile(contentsOf: $0) }
                let report = try store.openStoreForWriting().seed(seeds, conflicts: .update, progress: Terminal.progress("importing"))
                if store.json {
                    Terminal.print(try renderJSON(report))
                } else {
                    Terminal.print("Imported \(report.productsInserted) new products and \(report.phonesInserted) new phones; updated \(report.updated).")
                }
            }
        }
    }
}
