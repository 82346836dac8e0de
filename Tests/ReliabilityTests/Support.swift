import Catalog
import Foundation
import SQLiteStore
import TestSupport
import Testing

/// The bytes of a file, or nil when it does not exist.
func fileBytes(_ path: String) -> Data? { FileManager.default.contents(atPath: path) }

/// Checks a database file from outside, as a user's next program would find it.
enum DatabaseCheck {
    /// `PRAGMA integrity_check`'s lines: `["ok"]` for a sound file.
    static func integrity(_ path: String) throws -> [String] {
        try withQueue(path) { db in
            try db.fetchAll(sql: "PRAGMA integrity_check") { try $0.decode(String.self, at: 0) }
        }
    }

    /// Throws (`SQLITE_CORRUPT_VTAB`, or ``SearchIndexMismatch``) unless each FTS5 index matches its
    /// table exactly.
    ///
    /// With a rank of 1, `integrity-check` also compares an external-content index (the phones') with
    /// the rows of its content table; without it, SQLite 3.40 checks only the index's own structure,
    /// all it checks of a contentless one (the products', since migration 8), whose trigrams the
    /// products' search description compares with the names.
    static func searchIndexMatchesTables(_ path: String) throws {
        try withQueue(path) { db in
            for table in ["products_search", "phones_search"] {
                try db.execute(sql: "INSERT INTO \(table)(\(table), rank) VALUES ('integrity-check', 1)")
            }
            let problems = try Product.searchDescription.indexProblems(db)
            if !problems.isEmpty { throw SearchIndexMismatch(problems: problems) }
        }
    }

    /// The search structures differ from the rows.
    struct SearchIndexMismatch: Error {
        let problems: [String]
    }

    /// The number of rows of `table`.
    static func count(_ table: String, _ path: String) throws -> Int {
        try withQueue(path) { db in try db.scalar(Int.self, sql: "SELECT count(*) FROM \(table)") ?? 0 }
    }

    /// Every schema object as `type name: sql`, in name order.
    static func schema(_ path: String) throws -> [String] {
        try withQueue(path) { db in
            try db.fetchAll(sql: "SELECT type, name, coalesce(sql, '') FROM sqlite_master ORDER BY name") {
                "\(try $0.decode(String.self, at: 0)) \(try $0.decode(String.self, at: 1)): \(try $0.decode(String.self, at: 2))"
            }
        }
    }

    /// Runs `body` on a fresh connection to `path`, then closes it.
    static func withQueue<T>(_ path: String, _ body: (Database) throws -> T) throws -> T {
        let queue = try DatabaseQueue(path: path)
        defer { try? queue.close() }
        return try queue.writeWithoutTransaction(body)
    }
}

/// A built product started in the background, with its output discarded, so that a test can kill it.
final class BackgroundProcess {
    let process = Process()

    /// Starts `product` (from the package's build folder) with `arguments`.
    init(_ product: String, _ arguments: [String], environment: [String: String] = [:], home: String) throws {
        process.executableURL = ProcessRunner.productsDirectory.appendingPathComponent(product)
        process.arguments = arguments
        var env = ProcessInfo.processInfo.environment
        env["HOME"] = home
        env["XDG_DATA_HOME"] = home + "/data"
        env.merge(environment) { $1 }
        process.environment = env
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
    }

    /// Sends SIGKILL, waits for the process to end, and says whether the signal is what ended it
    /// (false when it had already exited by itself).
    func kill() -> Bool {
        Foundation.kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        return process.terminationReason == .uncaughtSignal && process.terminationStatus == SIGKILL
    }

    deinit {
        if process.isRunning {
            Foundation.kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }
    }
}

/// Polls `condition` every 5 ms until it holds or `timeout` passes; returns whether it held.
func waitUntil(timeout: Duration, _ condition: () -> Bool) -> Bool {
    let clock = ContinuousClock()
    let deadline = clock.now + timeout
    while clock.now < deadline {
        if condition() { return true }
        usleep(5_000)
    }
    return condition()
}

/// The size of a file in bytes, 0 when it does not exist.
func fileSize(_ path: String) -> Int {
    ((try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? NSNumber)?.intValue ?? 0
}
