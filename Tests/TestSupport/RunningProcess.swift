import Foundation

/// A built product running in the background, whose standard output is read line by line as it comes:
/// for long-running commands such as `catalog watch`.
public final class RunningProcess {
    private let process = Process()
    private let output = Pipe()
    private let errors = Pipe()
    private var buffer = Data()

    /// Starts `product` with `arguments`; `HOME` and `XDG_DATA_HOME` point under `home` when given, and
    /// `environment` is added to this process's.
    public init(_ product: String, _ arguments: [String], home: String? = nil, environment: [String: String] = [:]) throws {
        process.executableURL = ProcessRunner.productsDirectory.appendingPathComponent(product)
        process.arguments = arguments
        process.environment = ProcessRunner.environment(home: home, adding: environment)
        process.standardOutput = output
        process.standardError = errors
        process.standardInput = FileHandle.nullDevice
        try process.run()
    }

    deinit {
        if process.isRunning { process.terminate() }
    }

    /// The next line of standard output, without its newline; nil when the output ended or nothing came
    /// within `timeout`.
    public func nextLine(timeout: Duration = .seconds(30)) -> String? {
        let deadline = ContinuousClock.now + timeout
        while true {
            if let newline = buffer.firstIndex(of: UInt8(ascii: "\n")) {
                let line = String(decoding: buffer[..<newline], as: UTF8.self)
                buffer.removeSubrange(...newline)
                return line
            }
            guard ContinuousClock.now < deadline else { return nil }
            var pollDescriptor = pollfd(fd: output.fileHandleForReading.fileDescriptor, events: Int16(POLLIN), revents: 0)
            guard poll(&pollDescriptor, 1, 100) > 0 else { continue }
            let chunk = output.fileHandleForReading.availableData
            if chunk.isEmpty { return nil }  // end of output
            buffer.append(chunk)
        }
    }

    /// Whether the process has written to standard output what ``nextLine(timeout:)`` has not read
    /// yet, or writes within `timeout`. The pipe holds 64 KiB: a process writing more waits in its
    /// write until the rest is read.
    public func hasOutput(within timeout: Duration) -> Bool {
        if !buffer.isEmpty { return true }
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            var pollDescriptor = pollfd(fd: output.fileHandleForReading.fileDescriptor, events: Int16(POLLIN), revents: 0)
            if poll(&pollDescriptor, 1, 100) > 0 { return true }
        }
        return false
    }

    /// How long ``stop(with:)`` waits for the process to exit after the signal, then after `SIGKILL`.
    /// Generous: `catalog watch` exits within milliseconds of `SIGINT`, a few seconds on a loaded
    /// machine; a wait longer than this is a hang, which once held a test run for 13 minutes.
    public static let exitTimeout = Duration.seconds(60)

    /// The process did not exit within ``RunningProcess/exitTimeout`` of a signal.
    public struct ExitTimeout: Error, CustomStringConvertible {
        public let description: String
    }

    /// Sends `signal` and waits up to `timeout` for the process to exit; returns its status and what
    /// it wrote on standard error.
    ///
    /// - Throws: ``ExitTimeout`` when it is still running then (it is killed with `SIGKILL`), saying
    ///   what it wrote on standard error and whether it was still running or had exited unnoticed.
    public func stop(with signal: Int32 = SIGINT, timeout: Duration = exitTimeout) throws -> (status: Int32, error: String) {
        let pid = process.processIdentifier
        kill(pid, signal)
        guard waitForExit(within: timeout) else {
            // A zombie would mean the process exited and only the wait missed it.
            let state = processState(pid)
            kill(pid, SIGKILL)
            let killed = waitForExit(within: Self.exitTimeout)
            throw ExitTimeout(description: """
                \(process.executableURL?.lastPathComponent ?? "process") \(process.arguments ?? []) did not exit \
                within \(timeout) of signal \(signal) (process state then: \(state)); \
                \(killed ? "killed" : "still running after SIGKILL"); standard error: \(killed ? errorText() : "unread")
                """)
        }
        return (process.terminationStatus, errorText())
    }

    /// Waits up to `timeout` for the process to exit by itself; returns its status and what it wrote
    /// on standard error, or nil when it is still running then.
    public func exited(within timeout: Duration) -> (status: Int32, error: String)? {
        guard waitForExit(within: timeout) else { return nil }
        return (process.terminationStatus, errorText())
    }

    /// Whether the process exited within `limit`.
    private func waitForExit(within limit: Duration) -> Bool {
        let deadline = ContinuousClock.now + limit
        while process.isRunning {
            guard ContinuousClock.now < deadline else { return false }
            usleep(10_000)
        }
        return true
    }

    /// The state letter of `/proc/<pid>/stat` (R running, S sleeping, Z exited but not reaped…), or
    /// "unknown" where there is no `/proc`.
    private func processState(_ pid: Int32) -> String {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
            let end = stat.lastIndex(of: ")")
        else { return "unknown" }
        return stat[stat.index(after: end)...].split(separator: " ").first.map(String.init) ?? "unknown"
    }

    private func errorText() -> String {
        String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    }
}
