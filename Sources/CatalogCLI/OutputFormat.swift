import ArgumentParser
import RecordFormats

/// How a command prints records: an aligned table for people, or a data format for programs.
enum OutputFormat: String, CaseIterable, ExpressibleByArgument {
    case table
    case json
    case jsonl
    case csv
    case tsv

    /// The format a command-line word names, in any case (`csv`, `CSV`), as every command that takes
    /// `--format` reads it.
    init?(argument: String) {
        self.init(rawValue: argument.lowercased())
    }

    /// The values help and completions list: the raw values, as ArgumentParser's default for a
    /// `CaseIterable` `RawRepresentable` gives them, written out, as are their descriptions (none):
    /// the defaults read them through a key path and a generic `reduce`, whose first uses looked up two
    /// conformances at run time, each a scan of every conformance record of the static binary.
    static var allValueStrings: [String] { allCases.map { $0.rawValue } }

    /// No description of each value beyond the option's help (ArgumentParser's default for a raw value
    /// that describes itself).
    static var allValueDescriptions: [String: String] { [:] }

    /// The data format, or nil for a table.
    var dataFormat: DataFormat? { DataFormat(rawValue: rawValue) }

    /// The format asked for by `--format` (`format`) and `--json`, which is `--format json`;
    /// `fallback` when neither is given.
    ///
    /// - Throws: `ValidationError` when `--json` and another `--format` are both given.
    static func resolved(_ format: OutputFormat?, json: Bool, fallback: OutputFormat = .table) throws -> OutputFormat {
        if json, let format, format != .json {
            throw ValidationError("--json and --format \(format.rawValue) disagree: give one of them")
        }
        return json ? .json : format ?? fallback
    }
}

extension OutputFormat {
    /// The help of `--format` in the commands that print records (`list`, `search`, `show`, `suggest`,
    /// `watch`), which each declare the option rather than share it as an option group: see
    /// ``StoreOptions`` for what a group costs.
    static let optionHelp = ArgumentHelp(
        "Output format: table, json, jsonl (one record per line), csv (RFC 4180) or tsv. --json is --format json.",
        valueName: "format")
}
