import ArgumentParser
import Catalog
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import PostgreSQLStore
import SQLiteStore

/// Where the command's database is: `--database`, else `$CATALOG_DATABASE`, else the default file in
/// the user's data directory. A `postgresql://` (or `postgres://`) URL names a PostgreSQL server
/// instead of a file, and `$CATALOG_REPLICAS` its read replicas.
struct DatabaseLocation {
    /// The path of the database file; for a server, its URL as given.
    let path: String
    /// The primary and replicas of a database on a PostgreSQL server; nil for a file.
    let server: PostgreSQLConfiguration?
    /// Whether it is the default database in the user's data directory.
    let isDefault: Bool
    /// How long to wait for another process's lock: `$CATALOG_BUSY_TIMEOUT_MS`, else 5 seconds.
    let busyTimeout: Duration
    /// The most pages (4 KiB each) the database may grow to: `$CATALOG_MAX_PAGE_COUNT`, else no limit.
    /// A write beyond it fails as on a full disk, which is how the tests simulate one.
    let maximumPageCount: Int?
    /// Whether each SQL statement is written to standard error with its time when it finishes:
    /// `$CATALOG_TRACE_SQL` set to anything but empty or `0`. For seeing where a command's time goes.
    let tracesSQL: Bool

    /// The longest busy timeout `$CATALOG_BUSY_TIMEOUT_MS` may set: one day, past which a wait is a hang.
    static let longestBusyTimeoutMilliseconds = 86_400_000
    /// The most pages `$CATALOG_MAX_PAGE_COUNT` may set: SQLite's largest page number.
    /// (<https://www.sqlite.org/limits.html>, "Maximum Number Of Pages In A Database File")
    static let largestPageCount = 4_294_967_294

    /// Reads the location from `--database` and the environment, whose variables `environment`
    /// looks up by name (``processVariable(_:)`` for the process's own).
    ///
    /// - Throws: ``CommandFailure/usage(_:)`` naming the variable or option whose value is malformed or
    ///   out of range, or that names no file (empty, or SQLite's `:memory:`, where what is written would be
    ///   lost when the command ends). A set variable is never silently replaced by the default.
    init(explicitPath: String?, environment: (String) -> String?) throws {
        busyTimeout = try Self.wholeNumber("CATALOG_BUSY_TIMEOUT_MS", environment, in: 0...Self.longestBusyTimeoutMilliseconds)
            .map { .milliseconds($0) } ?? .seconds(5)
        maximumPageCount = try Self.wholeNumber("CATALOG_MAX_PAGE_COUNT", environment, in: 1...Self.largestPageCount)
        tracesSQL = environment("CATALOG_TRACE_SQL").map { !$0.isEmpty && $0 != "0" } ?? false
        if let explicitPath {
            path = try Self.filePath(explicitPath, source: "--database")
            isDefault = false
        } else if let path = environment("CATALOG_DATABASE") {
            self.path = try Self.filePath(path, source: "CATALOG_DATABASE")
            isDefault = false
        } else {
            path = Self.defaultPath(environment: environment)
            isDefault = true
        }
        server = try Self.server(path, replicas: environment("CATALOG_REPLICAS"))
    }

    /// Whether `text` is a PostgreSQL connection URL rather than a file's path.
    static func isServerURL(_ text: String) -> Bool {
        text.hasPrefix("postgresql://") || text.hasPrefix("postgres://")
    }

    /// The server `database` names with the replicas of `$CATALOG_REPLICAS` (URLs separated by
    /// commas), or nil for a file.
    ///
    /// - Throws: ``CommandFailure/usage(_:)`` for replicas that are not URLs, or replicas of a file.
    private static func server(_ database: String, replicas: String?) throws -> PostgreSQLConfiguration? {
        let replicaURLs = (replicas ?? "").split(separator: ",").map { String($0.filter { !$0.isWhitespace }) }.filter { !$0.isEmpty }
        guard isServerURL(database) else {
            guard replicaURLs.isEmpty else {
                throw CommandFailure.usage("CATALOG_REPLICAS names replicas of a PostgreSQL server, but the database is the file \(database)")
            }
            return nil
        }
        if let wrong = replicaURLs.first(where: { !isServerURL($0) }) {
            throw CommandFailure.usage("CATALOG_REPLICAS must be postgresql:// URLs separated by commas, not \(String(reflecting: wrong))")
        }
        var configuration = PostgreSQLConfiguration(primary: database, replicas: replicaURLs)
        // A replica that is down or lagging is skipped, and said so, on standard error.
        configuration.log = { Terminal.note($0) }
        return configuration
    }

    /// Fails with `CatalogError.notOnFile(operation:instead:)` when the database is on a server: for
    /// a command (or a part of one) that only a database file has.
    ///
    /// - Parameters:
    ///   - command: what cannot be done, as the user typed it (`backup`).
    ///   - instead: what to use on a server.
    func requireFile(for command: String, instead: String) throws {
        if server != nil { throw CatalogError.notOnFile(operation: command, instead: instead) }
    }

    /// The value of the environment variable `name`, which must be plain decimal digits within `range`;
    /// nil when it is not set.
    private static func wholeNumber(_ name: String, _ environment: (String) -> String?, in range: ClosedRange<Int>) throws -> Int? {
        guard let text = environment(name) else { return nil }
        guard !text.isEmpty, text.utf8.count <= 10, text.utf8.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }),
              let value = Int(text), range.contains(value) else {
            throw CommandFailure.usage(
                "\(name) must be a whole number from \(range.lowerBound) to \(range.upperBound), not \(String(reflecting: text))")
        }
        return value
    }

    /// `path`, unless it names no file.
    private static func filePath(_ path: String, source: String) throws -> String {
        if path.isEmpty || path == ":memory:" {
            throw CommandFailure.usage("\(source) needs the path of a file, not \(String(reflecting: path))")
        }
        return path
    }

    /// `$XDG_DATA_HOME/catalog/catalog.sqlite`, or `~/.local/share/catalog/catalog.sqlite`.
    static func defaultPath(environment: (String) -> String?) -> String {
        let dataHome = environment("XDG_DATA_HOME").flatMap { $0.hasPrefix("/") ? $0 : nil }
            ?? (environment("HOME") ?? FileManager.default.homeDirectoryForCurrentUser.path) + "/.local/share"
        return dataHome + "/catalog/catalog.sqlite"
    }

    /// The value of the process's environment variable `name`, or nil when it is not set: the one
    /// variable, read with `getenv`. `ProcessInfo.processInfo.environment` makes a dictionary of every
    /// variable, splitting each at its `=` by Characters, a cost in every command's process (W7).
    static func processVariable(_ name: String) -> String? {
        getenv(name).map { String(cString: $0) }
    }

    /// The database file and the files SQLite keeps beside it, by their suffix (WAL mode's `-wal` and
    /// `-shm`, a rollback's `-journal`).
    static let fileSuffixes = ["", "-wal", "-shm", "-journal"]

    /// The largest file a write command checks whole (`PRAGMA quick_check`) before writing: 2,048 pages
    /// of 4 KiB (8 MiB), which a check reads in a fraction of a second, where a million products'
    /// file takes it tens of seconds (see the Guarantees article of the `catalog` documentation).
    static let quickCheckPageLimit = 2_048

    /// Opens the catalog for a command that writes: as ``open(readonly:)``, but when the file is at
    /// most ``quickCheckPageLimit`` pages, every page is checked first, as the writing connection
    /// opens and before anything writes to the file (a migration, or the adoption of a development
    /// version's file), so that a write never reports success into a damaged file of that size and a
    /// refusal leaves the file as it was.
    ///
    /// - Throws: ``DatabaseError`` with `SQLITE_CORRUPT` naming the first problem `quick_check` found.
    func openForWriting() throws -> CatalogStore {
        try open(readonly: false, checkingPagesFirst: true)
    }

    /// Fails when the database of `db`, a writing connection just opened, is at most
    /// ``quickCheckPageLimit`` pages and `quick_check` finds a problem in it.
    private static func checkPages(_ db: Database) throws {
        guard !db.configuration.isReadonly else { return }
        let pages = try db.scalar(Int.self, sql: "PRAGMA page_count") ?? 0
        if pages <= quickCheckPageLimit, let problem = try db.quickCheckProblems(limit: 1).first {
            throw DatabaseError(resultCode: .SQLITE_CORRUPT, message: "\(problem); nothing was written (`catalog check` says more)")
        }
    }

    /// Opens the catalog: on a server, connected to its primary and migrated (never seeded). A default
    /// database file that does not exist yet is created, and seeded with the
    /// built-in records; the user is told so once, on standard error. A database this call creates and
    /// then fails to set up (to migrate, or to seed: on a full disk) is removed again, with its `-wal`
    /// and `-shm` files; an empty file that was there is left empty (``restoringFilesOnFailure(_:)``);
    /// a file that held anything is never removed. `checkingPagesFirst`: see ``openForWriting()``.
    ///
    /// - Throws: ``CommandFailure/noDatabase(_:)`` when `readonly` and the file does not exist;
    ///   ``CommandFailure/databaseNotCreatable(path:reason:)`` when it does not exist and its folder
    ///   is missing or does not take new files; `PostgreSQLError` when the server cannot be reached;
    ///   what opening, migrating or seeding throws.
    func open(readonly: Bool, concurrentReads: Bool = true, checkingPagesFirst: Bool = false) throws -> CatalogStore {
        if let server { return try CatalogStore(writer: PostgreSQLCluster(server)) }
        var configuration = Configuration()
        if checkingPagesFirst { configuration.prepareDatabase = Self.checkPages }
        configuration.isReadonly = readonly
        configuration.busyTimeout = busyTimeout
        configuration.maximumPageCount = maximumPageCount
        // A command that reads a damaged page fails (exit 6) rather than printing what it read there.
        configuration.poolReadersCheckCellSizes = true
        // No memory-mapped readers: a command that reads the whole file (`export`, `check`) would count
        // every page it read in its peak memory, and a file cut short by another program while it reads
        // would stop it with SIGBUS rather than exit 6.
        configuration.poolReadersMemoryMapBytes = nil
        if tracesSQL {
            configuration.tracesBoundValues = true
            configuration.profile = { sql, duration in
                let microseconds = duration.components.seconds * 1_000_000 + duration.components.attoseconds / 1_000_000_000_000
                let fraction = String(microseconds % 1000)
                let milliseconds = "\(microseconds / 1000).\(String(repeating: "0", count: 3 - fraction.count))\(fraction)"
                Terminal.note("sql \(milliseconds) ms: \(Terminal.oneLine(sql))")
            }
        }
        let isNew = !FileManager.default.fileExists(atPath: path)
        if isDefault && isNew {
            let directory = PathText.folder(of: path)
            try? FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
            configuration.isReadonly = false
        } else if isNew && readonly {
            throw CommandFailure.noDatabase(path)
        }
        // Said in words before SQLite tries (its own message names neither the file nor the reason).
        if isNew, let problem = NewFileFolder.problem(creatingFileAt: path) {
            throw CommandFailure.databaseNotCreatable(path: path, reason: problem)
        }
        return try restoringFilesOnFailure {
            let store = try CatalogStore(path: path, configuration: configuration, concurrentReads: concurrentReads)
            if isDefault && isNew {
                let report = try store.seed(SeedFile.builtIn)
                Terminal.note(
                    "created \(path) with the built-in seeds (\(report.insertedText(separator: ", ")))")
            }
            return store
        }
    }
}
