import ArgumentParser
import Catalog

extension CatalogCommand {
    /// `catalog import`: adds or updates records from data files.
    struct Import: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "import",
            _superCommandName: CatalogCommand.commandName,
            abstract: "Import records from JSON, JSON lines, CSV or TSV files, updating records whose name already exists.",
            discussion: """
                Files have the fields `export` writes (the JSON property names; `id` optional); the format is \
                --format, else the file's extension (.json, .jsonl or .ndjson, .csv, .tsv or .tab), else JSON \
                if the text starts with [ and JSON lines if it starts with {. `-` reads standard input. Every \
                record must be of --entity (default: products). Records are read as they are stored, all \
                files in one transaction: a bad record, or an interrupted import, changes nothing; an error \
                names the file, line and column.

                Without --keep-ids, records get new ids and a record whose name exists updates it. With \
                --keep-ids, a record keeps its id: the record with that id is replaced, or it is added under \
                that id; a name taken by another id is a conflict (exit 4).

                Examples:
                  catalog export --format csv --output products.csv
                  catalog import products.csv --keep-ids --database copy.sqlite
                  catalog export --entity phones --format jsonl | catalog import - --format jsonl --entity phones --database copy.sqlite
                """)

        @Argument(help: ArgumentHelp("Files to import (- for standard input).", valueName: "file"),
                  completion: .file(extensions: ["json", "jsonl", "csv", "tsv"]))
        var files: [String]

        @Flag(name: .customLong("keep-ids"), help: "Keep the records' ids instead of giving them new ones.")
        var keepIDs = false

        @OptionGroup var input: InputOptions
        @OptionGroup var store: StoreOptions

        func validate() throws {
            if files.isEmpty { throw ValidationError("give at least one file to import (- for standard input)") }
            try InputOptions.validate(files: files)
        }

        func run() throws {
            try reportingFailures {
                let sources = try input.sources(files, entity: store.entity ?? .products, keepingIDs: keepIDs)
                let report = try withStoreRestoredOnFailure(
                    store, written: { "the import was written (\($0.insertedText(adjective: "new ")), \($0.updated) updated)" }
                ) { catalog in
                    try storeEntities(sources, in: catalog, conflicts: .update, label: "importing")
                }
                if store.json {
                    Terminal.print(try renderJSON(report))
                } else {
                    Terminal.print("Imported \(report.insertedText(adjective: "new ")); updated \(report.updated).")
                }
            }
        }
    }
}
