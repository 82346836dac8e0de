import ArgumentParser
import Catalog
import Entities
import RecordFormats
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension CatalogCommand {
    /// `catalog export`: writes every record of an entity in a data format, streaming.
    struct Export: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "export",
            _superCommandName: CatalogCommand.commandName,
            abstract: "Export every record of an entity (with ids) as JSON, JSON lines, CSV or TSV, for `import`.",
            discussion: """
                The format is --format, else the one --output's extension names (.json, .jsonl, .csv, .tsv), \
                else JSON. Records are written as they are read, in id order, from one snapshot of the \
                database, so exports of any size run in little memory; progress shows on a terminal. \
                `catalog import --keep-ids` reads the file back into the same records with the same ids.

                Examples:
                  catalog export > products.json
                  catalog export --format csv --output products.csv
                  catalog export --entity phones --format jsonl | gzip > phones.jsonl.gz
                """)

        @Option(
            help: ArgumentHelp("Write to this file (atomically) instead of standard output; - is standard output.", valueName: "file"),
            completion: .file(extensions: ["json", "jsonl", "csv", "tsv"]))
        var output: String?

        /// The file to write: `--output`, unless it is `-` (standard output, as for `import -`).
        private var outputFile: String? { output == "-" ? nil : output }

        @OptionGroup var store: StoreOptions

        // Its own `--format` (not `OutputFormat.optionHelp`): its help and completions name only the data
        // formats; `table` still parses, to be refused with this command's own words.
        @Option(
            name: .long,
            help: ArgumentHelp(
                "Output format: json, jsonl (one record per line), csv (RFC 4180) or tsv (default: what --output's extension names, else json). --json is --format json.",
                valueName: "format"),
            completion: .list(["json", "jsonl", "csv", "tsv"]),
            transform: { text in
                guard let format = OutputFormat(argument: text) else {
                    throw ValidationError("unknown format '\(text)': expected json, jsonl, csv or tsv")
                }
                return format
            })
        var format: OutputFormat?

        /// The data format asked for: `--format` (or `--json`), else `--output`'s extension, else JSON.
        ///
        /// - Throws: `ValidationError` for `--format table`, or `--json` and another `--format`.
        private func dataFormat() throws -> DataFormat {
            let fallback = outputFile.flatMap(DataFormat.init(fileName:)).flatMap { OutputFormat(rawValue: $0.rawValue) } ?? .json
            guard let format = try OutputFormat.resolved(format, json: store.json, fallback: fallback).dataFormat else {
                throw ValidationError("export writes json, jsonl, csv or tsv, not a table")
            }
            return format
        }

        // Checked while parsing, so that a format export does not write is told with this command's usage.
        func validate() throws {
            _ = try dataFormat()
        }

        func run() throws {
            let format = try dataFormat()
            try reportingFailures {
                // Before anything is read: an output file that cannot be created is said at once.
                if let outputFile { try OutputFile.checkWritable(outputFile, database: try store.location().path) }
                let catalog = try store.openStore()
                let destination: ByteOutput
                if let outputFile {
                    do {
                        destination = try ByteOutput(replacing: outputFile)
                    } catch let error as FileError where error.code == ENOSPC || error.code == EDQUOT {
                        throw CommandFailure.outputNotWritten(path: outputFile, code: error.code)
                    } catch let error as FileError {
                        throw CommandFailure.outputNotCreatable(path: outputFile, reason: String(cString: strerror(error.code)))
                    }
                } else {
                    destination = .standardOutput()
                }
                let progress = Terminal.progress("exporting", showsOnDataOutput: outputFile == nil)
                do {
                    let entityType = (store.entity ?? .products).entityType
                    let count = try export(entityType, catalog, format, destination, progress)
                    try destination.commit()
                    progress?.finish(count)
                } catch let error as FileError {
                    // A full disk, or another write error: the file at `outputFile` is left as it was.
                    throw CommandFailure.outputNotWritten(path: outputFile, code: error.code)
                }
            }
        }

        private func export<Entity: CatalogEntity>(
            _ type: Entity.Type, _ catalog: CatalogStore, _ format: DataFormat, _ destination: ByteOutput,
            _ progress: ProgressLine?
        ) throws -> Int {
            try Entity.export(to: destination, format: format, from: catalog.writer) { count in
                if count % EntityFiles.progressInterval == 0 { progress?.update(count) }
            }
        }
    }
}
