import ArgumentParser
import RecordFormats

/// How a command prints records: an aligned table for people, or a data format for programs.
enum OutputFormat: String, CaseIterable, ExpressibleByArgument {
    case table
    case json
    case jsonl
    case csv
    case tsv

    /// The data format, or nil for a table.
    var dataFormat: DataFormat? { DataFormat(rawValue: rawValue) }
}

/// `--format`, for the commands that print records.
struct OutputFormatOptions: ParsableArguments {
    @Option(
        name: .long,
        help: ArgumentHelp(
            "Output format: table, json, jsonl (one record per line), csv (RFC 4180) or tsv. --json is --format json.",
            valueName: "format"))
    var format: OutputFormat?

    /// The format asked for, with `--json` as `--format json`; `fallback` when neither is given.
    func resolved(json: Bool, fallback: OutputFormat = .table) throws -> OutputFormat {
        if json, let format, format != .json {
            throw ValidationError("--json and --format \(format.rawValue) disagree: give one of them")
        }
        return json ? .json : format ?? fallback
    }
}
