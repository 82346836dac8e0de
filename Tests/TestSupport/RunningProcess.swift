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

    /// Sends `signal` and waits for the process to exit; returns its status and what it wrote on
    /// standard error.
    public func stop(with signal: Int32 = SIGINT) -> (status: Int32, error: String) {
        kill(process.processIdentifier, signal)
        process.waitUntilExit()
        let error = errors.fileHandleForReading.readDataToEndOfFile()
        return (process.terminationStatus, String(decoding: error, as: UTF8.self))
    }
}
