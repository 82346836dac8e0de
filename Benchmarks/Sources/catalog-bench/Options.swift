import BenchmarkSupport
import Foundation

/// The benchmark's parameters. Defaults are issue #6's sizes; `--tiny` is CI's smoke configuration.
struct Options {
    var seed: UInt64 = 42
    var repetitions = 3
    var warmups = 1
    var insertRows = 100_000
    /// W1b: the products loaded into an empty database, then added to it, and `catalog seed --count`'s N.
    var bulkRows = 1_000_000
    var bulkAddedRows = 100_000
    var seedCount = 40_000
    var fetchRows = 100_000
    var searchRows = 1_000_000
    var queries = 500
    var liveSizes = [10_000, 100_000, 1_000_000]
    var openRows = 1_000_000
    var memoryRows = 1_000_000
    var batchSize = 50
    var workloads: Set<String> = ["W1", "W1B", "W2", "W3", "W4", "W5", "W6", "W7", "W8"]
    /// W7: the `catalog` executable to start, and how many times each command runs.
    var catalogBinary = "../.build/release/catalog"
    var startUpRuns = 30
    /// W8's database size and how long each of its runs lasts.
    var concurrencyRows = 1_000_000
    var concurrencyWindow = Duration.seconds(3)
    /// W8's read kinds to run (`ConcurrentLoad.Read`'s case names: `search`, `fetch`); nil for both.
    var concurrencyReads: Set<String>?
    /// W8's numbers of reading tasks (issue #17's).
    var concurrencyTasks = [1, 2, 4, 8]
    /// The contenders to run besides raw C (the baseline always runs); nil for all.
    var contenders: Set<String>?
    var workDirectory = ".bench-data"
    var output: String?
    /// W3: a TSV file of every query's median per contender, for finding the slow ones.
    var queryLog: String?
    /// The product search's accelerators the store's searches leave out (`substring-counts`, `gram-bits`).
    var withoutAccelerators: Set<String> = []
    /// Set in a child process: the workload, contender and database it runs.
    var child: (workload: String, contender: String, database: String)?
    /// For `--child W4-writer`: the change to commit, as JSON (``LiveChange``).
    var change: String?

    static let usage = """
        usage: catalog-bench [--tiny] [--only W1,W2,…] [--repetitions N] [--warmups N] [--seed N]
                             [--insert-rows N] [--bulk-rows N] [--bulk-added-rows N] [--seed-count N]
                             [--fetch-rows N] [--search-rows N] [--queries N]
                             [--live-sizes N,N,…] [--open-rows N] [--memory-rows N] [--batch-size N]
                             [--concurrency-rows N] [--concurrency-seconds N]
                             [--concurrency-reads search,fetch] [--concurrency-tasks N,N,…]
                             [--contenders store,GRDB,…] [--work-dir DIR] [--output FILE.md]
                             [--query-log FILE.tsv] [--catalog PATH] [--start-up-runs N]
                             [--without-accelerators substring-counts,gram-bits]
               catalog-bench --child W4-writer --database PATH [--change JSON]

        Runs each workload for raw C, this store and GRDB, and prints a Markdown table of medians (p99 for
        W3) with each contender's ratio to raw C. Datasets are generated once per size and seed into
        --work-dir (default .bench-data) and reused. W7 starts the `catalog` executable at --catalog
        (default ../.build/release/catalog: `swift build -c release --product catalog` at the root).

        --without-accelerators makes the store's searches read none of the named search accelerators (the
        dataset keeps them, unread): W3 then shows what each one buys.

        --child W4-writer is W4's writer in another process: it commits one insert, one rename and one
        delete (the JSON of a LiveChange, by default run 1's) to PATH, prints
        `WROTE <begin ns> <commit ns> <inserted id>` (CLOCK_MONOTONIC) and exits.
        """

    struct UsageError: Error, CustomStringConvertible {
        var description: String
    }

    init(arguments: [String]) throws {
        var iterator = arguments.makeIterator()
        func value(_ flag: String) throws -> String {
            guard let value = iterator.next() else { throw UsageError(description: "\(flag) needs a value\n\(Self.usage)") }
            return value
        }
        func number(_ flag: String) throws -> Int {
            let text = try value(flag).replacingOccurrences(of: "_", with: "")
            guard let number = Int(text), number >= 0 else { throw UsageError(description: "\(flag): expected a count, got \(text)") }
            return number
        }
        var childWorkload: String?, childContender: String?, childDatabase: String?
        while let argument = iterator.next() {
            switch argument {
            case "--tiny":
                repetitions = 1
                warmups = 0
                insertRows = 2_000
                bulkRows = 2_000
                bulkAddedRows = 200
                seedCount = 2_000
                fetchRows = 2_000
                searchRows = 2_000
                queries = 40
                liveSizes = [2_000]
                openRows = 2_000
                memoryRows = 2_000
                startUpRuns = 3
                concurrencyRows = 2_000
                concurrencyWindow = .milliseconds(200)
            case "--seed": seed = UInt64(try number(argument))
            case "--repetitions": repetitions = max(1, try number(argument))
            case "--warmups": warmups = try number(argument)
            case "--insert-rows": insertRows = try number(argument)
            case "--bulk-rows": bulkRows = try number(argument)
            case "--bulk-added-rows": bulkAddedRows = try number(argument)
            case "--seed-count": seedCount = max(1, try number(argument))
            case "--fetch-rows": fetchRows = try number(argument)
            case "--search-rows": searchRows = try number(argument)
            case "--queries": queries = try number(argument)
            case "--live-sizes":
                liveSizes = try value(argument).split(separator: ",").map {
                    guard let size = Int($0.replacingOccurrences(of: "_", with: "")), size >= 100 else {
                        throw UsageError(description: "--live-sizes: expected sizes of 100 or more, got \($0)")
                    }
                    return size
                }
            case "--open-rows": openRows = try number(argument)
            case "--memory-rows": memoryRows = try number(argument)
            case "--batch-size": batchSize = max(1, try number(argument))
            case "--concurrency-rows": concurrencyRows = try number(argument)
            case "--concurrency-seconds": concurrencyWindow = .seconds(max(1, try number(argument)))
            case "--concurrency-reads":
                let kinds = ConcurrentLoad.Read.allCases.map { "\($0)" }
                concurrencyReads = Set(try value(argument).split(separator: ",").map {
                    guard kinds.contains(String($0)) else {
                        throw UsageError(description: "--concurrency-reads: expected \(kinds.joined(separator: " or ")), got \($0)")
                    }
                    return String($0)
                })
            case "--concurrency-tasks":
                concurrencyTasks = try value(argument).split(separator: ",").map {
                    guard let tasks = Int($0), tasks >= 1 else {
                        throw UsageError(description: "--concurrency-tasks: expected counts of 1 or more, got \($0)")
                    }
                    return tasks
                }
            case "--only": workloads = Set(try value(argument).uppercased().split(separator: ",").map(String.init))
            case "--contenders": contenders = Set(try value(argument).split(separator: ",").map(String.init))
            case "--work-dir": workDirectory = try value(argument)
            case "--output": output = try value(argument)
            case "--query-log": queryLog = try value(argument)
            case "--without-accelerators":
                withoutAccelerators = Set(try value(argument).split(separator: ",").map(String.init))
            case "--catalog": catalogBinary = try value(argument)
            case "--start-up-runs": startUpRuns = max(1, try number(argument))
            case "--child": childWorkload = try value(argument)
            case "--contender": childContender = try value(argument)
            case "--database": childDatabase = try value(argument)
            case "--change": change = try value(argument)
            case "-h", "--help": throw UsageError(description: Self.usage)
            default: throw UsageError(description: "unknown argument \(argument)\n\(Self.usage)")
            }
        }
        if let childWorkload {
            guard let childDatabase else { throw UsageError(description: "--child needs --database\n\(Self.usage)") }
            // The writer is always the raw C API, whatever observes it.
            child = (childWorkload, childContender ?? (childWorkload == "W4-writer" ? "raw C" : ""), childDatabase)
        }
    }
}
