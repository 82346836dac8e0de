import ArgumentParser
import Catalog

extension CatalogCommand {
    /// `catalog seed`: adds records from seed files, or the built-in ones.
    struct Seed: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Add records from JSON seed files (default: the built-in products and phones).",
            discussion: """
                A file is a JSON array of products (objects with type, name, yearIntroduced, introPrice) or of \
                phones (name, maker, yearReleased, operatingSystem, screenInches). Records whose name is \
                already taken are skipped, so seeding twice adds nothing; all files go in one transaction, \
                so a bad file adds nothing at all.

                Examples:
                  catalog seed
                  catalog seed Seeds/products.json Seeds/phones.json
                """)

        @Argument(
            help: ArgumentHelp("Seed files to read (default: the built-in seeds).", valueName: "file"),
            completion: .file(extensions: ["json"]))
        var files: [String] = []

        @OptionGroup var store: StoreOptions

        func run() throws {
            try reportingFailures {
                let seeds = files.isEmpty ? SeedFile.builtIn : try files.map { try SeedFile(contentsOf: $0) }
                let catalog = try store.openStore()
                let report = try catalog.seed(seeds, progress: Terminal.progress("seeding"))
                if store.json {
                    Terminal.print(try renderJSON(report))
                } else {
                    Terminal.print("Added \(report.productsInserted) products and \(report.phonesInserted) phones (\(report.skipped) already there).")
                }
            }
        }
    }
}
