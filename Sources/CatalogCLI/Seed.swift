import ArgumentParser
import Catalog

extension CatalogCommand {
    /// `catalog seed`: adds records from seed files, or the built-in ones.
    struct Seed: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "seed",
            abstract: "Add records from JSON seed files (default: the built-in products and phones).",
            discussion: """
                A file is a JSON array of products (objects with type, name, yearIntroduced, introPrice) or of \
                phones (name, maker, yearReleased, operatingSystem, screenInches). Records whose name is \
                already taken are skipped, so seeding twice adds nothing; all files go in one transaction, \
                so a bad file adds nothing at all.

                --count N adds N synthetic products instead (names of two or three words, some with \
                diacritics, some Japanese), the same ones for the same --seed.

                Examples:
                  catalog seed
                  catalog seed Seeds/products.json Seeds/phones.json
                  catalog seed --count 100000 --seed 7
                """)

        @Argument(
            help: ArgumentHelp("Seed files to read (default: the built-in seeds).", valueName: "file"),
            completion: .file(extensions: ["json"]))
        var files: [String] = []

        @Option(help: ArgumentHelp("Add this many synthetic products instead of seed files.", valueName: "n"))
        var count: Int?

        @Option(help: ArgumentHelp("The random seed of --count (default 1).", valueName: "n"))
        var seed: UInt64 = 1

        @OptionGroup var store: StoreOptions

        func validate() throws {
            if let count, count < 0 || count > 10_000_000 { throw ValidationError("--count must be from 0 to 10000000") }
            if count != nil && !files.isEmpty { throw ValidationError("give seed files or --count, not both") }
        }

        func run() throws {
            try reportingFailures {
                let seeds = if let count {
                    [SeedFile.products(SyntheticCatalog.products(count: count, seed: seed))]
                } else if files.isEmpty {
                    SeedFile.builtIn
                } else {
                    try files.map { try SeedFile(contentsOf: $0) }
                }
                let catalog = try store.openStoreForWriting()
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
