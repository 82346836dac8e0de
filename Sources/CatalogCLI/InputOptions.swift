import ArgumentParser
import Catalog
import Entities
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import RecordFormats

/// The input files of `seed` and `import` and how to read them.
struct InputOptions: ParsableArguments {
    @Option(
        name: .long,
        help: ArgumentHelp(
            "Input format: json (an array), jsonl (one object per line), csv or tsv (a header row of field names). Default: each file's extension, else JSON or JSON lines as the text starts with [ or {.",
            valueName: "format"),
        completion: .list(DataFormat.allCases.map(\.rawValue)),
        transform: { text in
            guard let format = DataFormat(rawValue: text.lowercased()) else {
                throw ValidationError("unknown format '\(text)': expected json, jsonl, csv or tsv")
            }
            return format
        })
    var format: DataFormat?

    /// Checks that `files` name standard input (`-`) at most once: called by the commands' `validate()`,
    /// so that the error shows their usage.
    ///
    /// - Throws: `ValidationError`.
    static func validate(files: [String]) throws {
        if files.filter({ $0 == "-" }).count > 1 { throw ValidationError("standard input (-) can be read only once") }
    }

    /// Opens `files` (`-` is standard input, at most once: see ``validate(files:)``) as sources of
    /// `entity`'s records, or of the entity each file's first record names when `entity` is nil.
    func sources(_ files: [String], entity: EntityKind?, keepingIDs: Bool) throws -> [SeedSource] {
        try files.map { try SeedSource(path: $0, format: format, entity: entity, keepingIDs: keepingIDs) }
    }
}

/// Seeds or imports `sources` with progress on a terminal, and prints what was added.
func storeEntities(
    _ sources: [SeedSource], in catalog: CatalogStore, conflicts: ImportConflicts, label: String
) throws -> SeedReport {
    let progress = Terminal.progress(label)
    let report = try catalog.seed(sources, conflicts: conflicts, progress: { progress?.update($0) })
    progress?.finish(report.insertedCount + report.updated + report.skipped)
    return report
}

/// Opens the store and runs `body` on it, then closes it (``closeAfterWriting(_:written:)``, saying
/// what `written` makes of `body`'s result when the close cannot copy it into the database file).
/// When `body` fails on a database file this command created (not the default one, which is created
/// seeded) or on an empty file, puts the files back as they were
/// (``DatabaseLocation/restoringFilesOnFailure(_:)``), so that a failed import into a new database
/// leaves nothing behind; once `body` committed, they stay.
func withStoreRestoredOnFailure<Result>(
    _ options: StoreOptions, written: (Result) -> String, _ body: (CatalogStore) throws -> Result
) throws -> Result {
    let location = try options.location()
    var opened: CatalogStore?
    func run() throws -> Result {
        let catalog = try location.openForWriting()
        let result = try body(catalog)
        opened = catalog
        return result
    }
    let result = location.isDefault && !FileManager.default.fileExists(atPath: location.path)
        ? try run() : try location.restoringFilesOnFailure(run)
    try closeAfterWriting(opened!, written: written(result))
    return result
}

extension SeedReport {
    /// The records added, per entity: `9 products and 1 phone` (`adjective` before each noun).
    func insertedText(adjective: String = "", separator: String = " and ") -> String {
        EntityKind.allCases.map { entity in
            counted(inserted[entity, default: 0], adjective + entity.singular, adjective + entity.rawValue)
        }.joined(separator: separator)
    }
}
