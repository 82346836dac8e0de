import ArgumentParser
import Catalog

extension CatalogCommand {
    /// `catalog seed`: adds records from seed files, or the built-in ones.
    struct Seed: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "seed",
            _superCommandName: CatalogCommand.commandName,
            abstract: "Add records from seed files (default: the built-in products and phones).",
            discussion: """
                A file holds products (fields type, name, yearIntroduced, introPrice) or phones (name, maker, \
                yearReleased, operatingSystem, screenInches), as a JSON array, JSON lines, CSV or TSV with a \
                header row (--format, else the extension, else JSON or JSON lines as the text starts with [ or \
                {; - reads standard input). Which entity a file holds is told by its fields (phones have a \
                maker), or by --entity; with no files, --entity seeds only that entity's built-in records. Ids \
                in the files are ignored. Records whose name is already taken are \
                skipped, so seeding twice adds nothing; all files go in one transaction, so a bad record adds \
                nothing at all.

                --count N adds N synthetic products instead (names of two or three words, some with \
                diacritics, some Japanese), the same ones for the same --seed.

                Examples:
                  catalog seed
                  catalog seed Seeds/products.json Seeds/phones.json
                  catalog seed more-phones.csv
                  catalog seed --count 100000 --seed 7
                """)

        @Argument(
            help: ArgumentHelp("Seed files to read, - for standard input (default: the built-in seeds).", valueName: "file"),
            completion: .file(extensions: ["json", "jsonl", "csv", "tsv"]))
        var files: [String] = []

        @Option(help: ArgumentHelp("Add this many synthetic products instead of seed files.", valueName: "n"))
        var count: Int?

        @Option(help: ArgumentHelp("The random seed of --count (default 1).", valueName: "n"))
        var seed: UInt64?

        @OptionGroup var input: InputOptions
        @OptionGroup var store: StoreOptions

        func validate() throws {
            if let count, count < 0 || count > 10_000_000 { throw ValidationError("--count must be from 0 to 10000000") }
            if count != nil && !files.isEmpty { throw ValidationError("give seed files or --count, not both") }
            // An option that would change nothing is refused rather than ignored.
            if seed != nil && count == nil { throw ValidationError("--seed applies only with --count") }
            if count != nil, let entity = store.entity, entity != .products {
                throw ValidationError("--count adds synthetic products, not \(entity.rawValue)")
            }
            if input.format != nil && files.isEmpty { throw ValidationError("--format applies only to seed files") }
            try InputOptions.validate(files: files)
        }

        func run() throws {
            try reportingFailures {
                let sources = if let count {
                    [SeedSource(records: SyntheticCatalog.ProductSequence(count: count, seed: seed ?? 1))]
                } else if files.isEmpty {
                    SeedFile.builtIn.filter { file in store.entity.map { $0 == file.entity } ?? true }.map { SeedSource($0) }
                } else {
                    try input.sources(files, entity: store.entity, keepingIDs: false)
                }
                let report = try withStoreRestoredOnFailure(store, written: { "the seed was written (\($0.insertedText()) added, \($0.skipped) already there)" }) { catalog in
                    try storeEntities(sources, in: catalog, conflicts: .skip, label: "seeding")
                }
                if store.json {
                    Terminal.print(try renderJSON(report))
                } else {
                    Terminal.print("Added \(report.insertedText()) (\(report.skipped) already there).")
                }
            }
        }
    }
}
