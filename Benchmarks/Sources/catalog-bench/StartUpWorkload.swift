import BenchmarkSupport
import Foundation

/// W7: a short command as a whole process — exec, runtime start-up, open, query, print, exit — on the
/// built-in seed database: `catalog list`, `catalog show 1.2`, `catalog search mac` and `catalog show
/// 0.0 --search a` against the `sqlite3` shell running the same SQL on the same file, in the same run.
/// Each is measured by the CPU time (user and system) the process used: the wall time of a process
/// this one starts and waits for is mostly the waiting, the same for both programs.
///
/// Output goes to a pipe that is read to its end, as a script would; the `catalog` binary is a copy of
/// the one `--catalog` names (default `../.build/release/catalog`, built with
/// `swift build -c release --product catalog` at the repository root).
extension Runner {
    /// One command of W7: the `catalog` arguments and the SQL that `sqlite3` runs for the same output.
    struct StartUpCommand {
        var name: String
        var arguments: [String]
        var sql: String
    }

    static let startUpCommands: [StartUpCommand] = {
        let columns = "id, type, name, year_introduced, intro_price"
        return [
            StartUpCommand(
                name: "list", arguments: ["list"],
                sql: "SELECT type, count(*) FROM products GROUP BY type ORDER BY type; "
                    + "SELECT \(columns) FROM products ORDER BY type, name_folded, id"),
            StartUpCommand(
                name: "show 1.2", arguments: ["show", "1.2"],
                sql: "SELECT \(columns) FROM products WHERE type = (SELECT DISTINCT type FROM products ORDER BY type LIMIT 1 OFFSET 1) "
                    + "ORDER BY name_folded, id LIMIT 1 OFFSET 2"),
            StartUpCommand(
                name: "search mac", arguments: ["search", "mac"],
                sql: "SELECT \(columns) FROM products WHERE instr(name_folded, 'mac') > 0 ORDER BY type, name_folded, id"),
            StartUpCommand(
                name: "show 0.0 --search a", arguments: ["show", "0.0", "--search", "a"],
                sql: "SELECT type, count(*) FROM products WHERE instr(name_folded, 'a') > 0 GROUP BY type ORDER BY type; "
                    + "SELECT \(columns) FROM products WHERE instr(name_folded, 'a') > 0 ORDER BY type, name_folded, id LIMIT 1"),
        ]
    }()

    mutating func runStartUp() throws {
        let built = URL(fileURLWithPath: options.catalogBinary).standardizedFileURL.path
        // Measured as installed, a copy written whole, as `sqlite3` is: the page cache keeps a file in
        // pieces as large as its writes, and the linker's 4 KiB writes made every exec's page faults
        // cost more than a copy's (W7's footnote in Benchmarks/README.md).
        let catalog = path("w7-catalog")
        let sqlite3 = ["/usr/bin/sqlite3", "/usr/local/bin/sqlite3"].first { FileManager.default.isExecutableFile(atPath: $0) }
        let file = path("w7-seeds.sqlite")
        var pending: String?
        try? FileManager.default.removeItem(atPath: catalog)
        if !FileManager.default.isExecutableFile(atPath: built) {
            pending = "pending \(options.catalogBinary) (swift build -c release --product catalog)"
        } else {
            try Data(contentsOf: URL(fileURLWithPath: built)).write(to: URL(fileURLWithPath: catalog))
            try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: catalog)
            remove(database: file)
            _ = try Self.run(catalog, ["seed", "--database", file])
        }
        for command in Self.startUpCommands {
            var cells: [String: Report.Cell] = [:]
            if let pending {
                cells["store"] = .text(pending)
            } else if let sqlite3 {
                cells = try measureStartUp(command, catalog: catalog, sqlite3: sqlite3, database: file)
            } else {
                cells["raw C"] = .text("pending sqlite3 (apt-get install sqlite3)")
            }
            report.append(.init(
                workload: "W7 start-up: `catalog \(command.arguments.joined(separator: " "))` on the seeds, whole process, CPU time (raw C: `sqlite3`)",
                cells: cells, target: "store ≤ 2× sqlite3"))
        }
        remove(database: file)
        try? FileManager.default.removeItem(atPath: catalog)
    }

    /// The median CPU time of each program over `startUpRuns` runs, taking turns, after checking
    /// that both print the same rows (ids in order, from `--json` and `sqlite3 -json`).
    private func measureStartUp(
        _ command: StartUpCommand, catalog: String, sqlite3: String, database: String
    ) throws -> [String: Report.Cell] {
        let storeArguments = command.arguments + ["--database", database]
        let rawArguments = [database, command.sql]
        let storeIDs = try Self.ids(inJSON: Self.run(catalog, storeArguments + ["--json"]))
        // The rows: the last statement (`sqlite3 -json` prints one document per statement).
        let rowsSQL = command.sql.components(separatedBy: "; ").last ?? command.sql
        let rawIDs = try Self.ids(inJSON: Self.run(sqlite3, ["-json", database, rowsSQL]))
        if storeIDs != rawIDs || rawIDs.isEmpty {
            log("W7 \(command.name): the store printed ids \(storeIDs), sqlite3 \(rawIDs)")
            return ["store": .text("wrong result")]
        }
        log("W7 \(command.name): \(options.startUpRuns) runs each")
        var store: [Duration] = []
        var raw: [Duration] = []
        for _ in 0..<options.warmups {
            _ = try Self.run(catalog, storeArguments)
            _ = try Self.run(sqlite3, rawArguments)
        }
        for _ in 0..<options.startUpRuns {
            store.append(try Self.cpuTimed { _ = try Self.run(catalog, storeArguments) })
            raw.append(try Self.cpuTimed { _ = try Self.run(sqlite3, rawArguments) })
        }
        return ["store": .time(Samples(store).median), "raw C": .time(Samples(raw).median)]
    }

    static func timed(_ body: () throws -> Void) rethrows -> Duration {
        let start = ContinuousClock.now
        try body()
        return ContinuousClock.now - start
    }

    /// The CPU time of the processes `body` starts and waits for (nothing else runs a child meanwhile).
    static func cpuTimed(_ body: () throws -> Void) rethrows -> Duration {
        let start = childrenCPUTime()
        try body()
        return childrenCPUTime() - start
    }

    /// The user and system time of every child process this one has waited for.
    static func childrenCPUTime() -> Duration {
        var usage = rusage()
        getrusage(__rusage_who_t(RUSAGE_CHILDREN.rawValue), &usage)
        func duration(_ time: timeval) -> Duration { .seconds(time.tv_sec) + .microseconds(time.tv_usec) }
        return duration(usage.ru_utime) + duration(usage.ru_stime)
    }

    struct CommandFailure: Error, CustomStringConvertible {
        var description: String
    }

    /// Runs a program to its end and returns what it printed; throws unless it exits with 0.
    static func run(_ executable: String, _ arguments: [String]) throws -> Data {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw CommandFailure(description: "\(executable) \(arguments.joined(separator: " ")) exited with \(process.terminationStatus)")
        }
        return data
    }

    /// Every `"id"` number in a JSON document, in document order.
    static func ids(inJSON data: Data) throws -> [Int64] {
        var ids: [Int64] = []
        func visit(_ value: Any) {
            if let array = value as? [Any] {
                array.forEach(visit)
            } else if let object = value as? [String: Any] {
                if let id = object["id"] as? NSNumber { ids.append(id.int64Value) }
                for (key, value) in object.sorted(by: { $0.key < $1.key }) where key != "id" { visit(value) }
            }
        }
        visit(try JSONSerialization.jsonObject(with: data))
        return ids
    }
}
