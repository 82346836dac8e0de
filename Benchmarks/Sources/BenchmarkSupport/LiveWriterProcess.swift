import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// W4 "from another process": a writer process that commits a ``LiveChange`` to a database and exits,
/// for an observer in the benchmark's own process to notice.
///
/// The runner's binary serves it: `catalog-bench --child W4-writer --database PATH --change JSON`
/// opens its own connection (the raw C API, as any other program would), commits the insert, the rename
/// and the delete in one transaction, and prints `WROTE <begin ns> <commit ns> <inserted id>` with the
/// times read from ``MonotonicTime``, the clock every process of the machine shares. So an observer
/// times its delivery from the writer's `BEGIN`, not from the process launch:
///
/// ```swift
/// let observer = try startObserving(path)              // the contender's live controller
/// let write = try LiveWriterProcess.run(databaseAt: path, change: change)
/// let delivered = observer.waitForChangeSet()          // records MonotonicTime.nanoseconds() on delivery
/// let latency = Duration.nanoseconds(delivered - write.beginNanoseconds)
/// ```
public enum LiveWriterProcess {
    /// What the writer process did.
    public struct Report: Sendable {
        /// ``MonotonicTime`` just before `BEGIN IMMEDIATE`.
        public var beginNanoseconds: Int64
        /// ``MonotonicTime`` just after `COMMIT` returned.
        public var commitNanoseconds: Int64
        /// The id the inserted product got.
        public var insertedID: Int64

        public init(beginNanoseconds: Int64, commitNanoseconds: Int64, insertedID: Int64) {
            self.beginNanoseconds = beginNanoseconds
            self.commitNanoseconds = commitNanoseconds
            self.insertedID = insertedID
        }

        /// The line the writer prints.
        public var line: String { "WROTE \(beginNanoseconds) \(commitNanoseconds) \(insertedID)" }

        /// Reads the writer's line.
        public init?(line: Substring) {
            let fields = line.split(separator: " ")
            guard fields.count == 4, fields[0] == "WROTE", let begin = Int64(fields[1]), let commit = Int64(fields[2]),
                  let id = Int64(fields[3])
            else { return nil }
            self.init(beginNanoseconds: begin, commitNanoseconds: commit, insertedID: id)
        }
    }

    public struct Failure: Error, CustomStringConvertible {
        public var description: String
    }

    /// The arguments of the writer process.
    public static func arguments(databaseAt path: String, change: LiveChange) throws -> [String] {
        let json = String(decoding: try JSONEncoder().encode(change), as: UTF8.self)
        return ["--child", "W4-writer", "--database", path, "--change", json]
    }

    /// Runs the writer process (this binary, re-executed) on `path` and waits for it to exit.
    ///
    /// Only for code running inside `catalog-bench`, whose executable serves `--child W4-writer`.
    public static func run(databaseAt path: String, change: LiveChange) throws -> Report {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        process.arguments = try arguments(databaseAt: path, change: change)
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let text = String(decoding: data, as: UTF8.self)
        guard process.terminationStatus == 0,
              let report = text.split(separator: "\n").last(where: { $0.hasPrefix("WROTE ") }).flatMap(Report.init(line:))
        else {
            throw Failure(description: "W4 writer exited with \(process.terminationStatus): \(text)")
        }
        return report
    }
}

/// `CLOCK_MONOTONIC`, which all processes of a machine share: for times compared across processes.
public enum MonotonicTime {
    public static func nanoseconds() -> Int64 {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return Int64(time.tv_sec) * 1_000_000_000 + Int64(time.tv_nsec)
    }
}
