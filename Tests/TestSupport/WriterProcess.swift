import Foundation

/// The `store-writer-fixture` executable, running SQL lines in a second process.
public final class WriterProcess {
    private let process = Process()
    private let input = Pipe()
    private let output = Pipe()
    private var buffered = Data()

    /// The fixture binary, built next to the test bundle.
    public static var executable: URL {
        URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appending(path: "store-writer-fixture")
    }

    /// Starts the fixture on the database at `path`.
    public init(path: String) throws {
        process.executableURL = Self.executable
        process.arguments = [path]
        process.standardInput = input
        process.standardOutput = output
        try process.run()
    }

    deinit {
        if process.isRunning { process.terminate() }
    }

    /// Runs one SQL statement in the other process and returns its answer (`ok` or `error: …`).
    @discardableResult
    public func run(_ sql: String) throws -> String {
        precondition(!sql.contains("\n"), "one line of SQL per call")
        input.fileHandleForWriting.write(Data((sql + "\n").utf8))
        while true {
            if let newline = buffered.firstIndex(of: UInt8(ascii: "\n")) {
                let line = String(decoding: buffered[..<newline], as: UTF8.self)
                buffered.removeSubrange(...newline)
                return line
            }
            let chunk = output.fileHandleForReading.availableData
            guard !chunk.isEmpty else { throw CocoaError(.fileReadUnknown) }
            buffered.append(chunk)
        }
    }

    /// Kills the process with SIGKILL, wherever it is, and waits for it to die.
    public func kill() {
        Foundation.kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
    }

    /// Closes its input, so that it closes the database and exits, and waits for it.
    public func finish() {
        try? input.fileHandleForWriting.close()
        process.waitUntilExit()
    }
}
