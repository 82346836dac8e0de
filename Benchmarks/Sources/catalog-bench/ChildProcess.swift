import BenchmarkSupport
import Foundation
import RawSQLiteContender

/// Work that runs in a process of its own: the runner re-executes itself with `--child W6 --contender
/// NAME --database PATH` (W6 measures memory), or with `--child W4-writer --database PATH --change
/// JSON` (W4's writer in another process, see ``LiveWriterProcess``); the child prints one result line.
enum ChildProcess {
    struct Result {
        var measured: Measured
        var peakMegabytes: Double
    }

    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    /// Runs one workload in a new process and reads its result.
    static func run(workload: String, contender: String, database: String, options: Options) throws -> Result {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        process.arguments = ["--child", workload, "--contender", contender, "--database", database,
                             "--batch-size", String(options.batchSize)]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let text = String(decoding: data, as: UTF8.self)
        guard process.terminationStatus == 0,
              let line = text.split(separator: "\n").last(where: { $0.hasPrefix("RESULT ") })
        else {
            if text.contains("PENDING ") { throw Pending(String(text.split(separator: "PENDING ").last ?? "").trimmingCharacters(in: .whitespacesAndNewlines)) }
            throw Failure(description: "child \(workload) \(contender) exited with \(process.terminationStatus): \(text)")
        }
        let fields = line.split(separator: " ")
        guard fields.count == 4, let nanoseconds = Int64(fields[1]), let fingerprint = UInt64(fields[2], radix: 16),
              let peakKilobytes = Double(fields[3])
        else { throw Failure(description: "unreadable child result: \(line)") }
        return Result(
            measured: Measured(duration: .nanoseconds(nanoseconds), fingerprint: Fingerprint(rawValue: fingerprint)),
            peakMegabytes: peakKilobytes / 1024)
    }

    /// The child's side: runs the workload and prints `RESULT <ns> <fingerprint> <VmHWM kB>`.
    static func serve(workload: String, contender: any Contender, database: String, options: Options) throws {
        guard workload == "W6" else { throw Options.UsageError(description: "--child: W6 or W4-writer, not \(workload)") }
        do {
            let measured = try contender.controller(databaseAt: database, batchSize: options.batchSize)
            let nanoseconds = Int64(measured.duration.milliseconds * 1e6)
            print("RESULT \(nanoseconds) \(String(measured.fingerprint.value, radix: 16)) \(peakResidentKilobytes())")
        } catch let pending as Pending {
            print("PENDING \(pending.reason)")
        }
    }

    /// The W4 writer's side: commits the change (run 1's unless `--change` gives one) and prints
    /// `WROTE <begin ns> <commit ns> <inserted id>`.
    static func serveWriter(database: String, options: Options) throws {
        let change = try options.change.map { try JSONDecoder().decode(LiveChange.self, from: Data($0.utf8)) }
            ?? LiveChange.forRun(1)
        let report = try RawSQLiteContender.writeInThisProcess(change, databaseAt: database)
        print(report.line)
    }

    /// The process's peak resident set size so far: `VmHWM` in `/proc/self/status`, in kB.
    static func peakResidentKilobytes() -> Int {
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return -1 }
        for line in status.split(separator: "\n") where line.hasPrefix("VmHWM:") {
            return Int(line.split(separator: " ").dropFirst().first ?? "") ?? -1
        }
        return -1
    }
}
