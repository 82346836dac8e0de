import ArgumentParser
import Catalog
import Foundation
import SQLiteStore

/// Where the command's database is: `--database`, else `$CATALOG_DATABASE`, else the default file in
/// the user's data directory.
struct DatabaseLocation {
    /// The path of the database file.
    let path: String
    /// Whether it is the default database in the user's data directory.
    let isDefault: Bool
    /// How long to wait for another process's lock: `$CATALOG_BUSY_TIMEOUT_MS`, else 5 seconds.
    let busyTimeout: Duration
    /// The most pages (4 KiB each) the database may grow to: `$CATALOG_MAX_PAGE_COUNT`, else no limit.
    /// A write beyond it fails as on a full disk, which is how the tests simulate one.
    let maximumPageCount: Int?

    init(explicitPath: String?, environment: [String: String]) {
        busyTimeout = environment["CATALOG_BUSY_TIMEOUT_MS"].flatMap(Int.init).map { .milliseconds(max(0, $0)) }
            ?? .seconds(5)
        maximumPageCount = environment["CATALOG_MAX_PAGE_COUNT"].flatMap(Int.init).map { max(1, $0) }
        if let explicitPath {
            path = explicitPath
            isDefault = false
        } else if let path = environment["CATALOG_DATABASE"], !path.isEmpty {
            self.path = path
            isDefault = false
        } else {
            path = Self.defaultPath(environment: environment)
            isDefault = true
        }
    }

    /// `$XDG_DATA_HOME/catalog/catalog.sqlite`, or `~/.local/share/catalog/catalog.sqlite`.
    static func defaultPath(environment: [String: String]) -> String {
        let dataHome = environment["XDG_DATA_HOME"].flatMap { $0.hasPrefix("/") ? $0 : nil }
            ?? (environment["HOME"] ?? NSHomeDirectory()) + "/.local/share"
        return dataHome + "/catalog/catalog.sqlite"
    }

    /// Opens the catalog. A default database that does not exist yet is created, and seeded with the
    /// built-in records; the user is told so once, on standard error.
    ///
    /// - Throws: `ValidationError` when the path names no file (empty, or SQLite's `:memory:`), since
    ///   what is written there would be lost when the command ends.
    func open(readonly: Bool) throws -> CatalogStore {
        if path.isEmpty || path == ":memory:" {
            throw ValidationError("--database needs the path of a file, not \(String(reflecting: path))")
        }
        var configuration = Configuration()
        configuration.isReadonly = readonly
        configuration.busyTimeout = busyTimeout
        configuration.maximumPageCount = maximumPageCount
        let isNew = !FileManager.default.fileExists(atPath: path)
        if isDefault && isNew {
            let directory = (path as NSString).deletingLastPathComponent
            try? FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
            configuration.isReadonly = false
        } else if isNew && readonly {
            throw CommandFailure.noDatabase(path)
        }
        let store = try CatalogStore(path: path, configuration: configuration)
        if isDefault && isNew {
            let report = try store.seed(SeedFile.builtIn)
            Terminal.note(
                "created \(path) with the built-in seeds (\(report.productsInserted) products, \(report.phonesInserted) phones)")
        }
        return store
    }
}
