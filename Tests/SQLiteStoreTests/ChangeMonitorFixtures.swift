import Foundation
import SQLiteStore
import Testing

/// Iterates `sequence` until the deliveries received so far satisfy `done`, or `timeout` passes.
///
/// - Returns: the deliveries received, in order.
func collect(
    _ sequence: DatabaseChangeSequence, timeout: Duration = .seconds(20),
    until done: @escaping @Sendable ([DatabaseChanges]) -> Bool
) async -> [DatabaseChanges] {
    await withTaskGroup(of: [DatabaseChanges]?.self) { group in
        group.addTask {
            var received: [DatabaseChanges] = []
            for await changes in sequence {
                received.append(changes)
                if done(received) { break }
            }
            return received
        }
        group.addTask {
            try? await Task.sleep(for: timeout)
            return nil
        }
        var result: [DatabaseChanges] = []
        for await outcome in group {
            if let outcome {
                result = outcome
                group.cancelAll()
            } else {
                group.cancelAll()
            }
            break
        }
        return result
    }
}

/// All deliveries merged into one.
func merged(_ deliveries: [DatabaseChanges]) -> DatabaseChanges? {
    guard var first = deliveries.first else { return nil }
    for next in deliveries.dropFirst() { first.append(next) }
    return first
}

/// The `store-writer-fixture` executable, running SQL lines in a second process.
final class WriterProcess {
    private let process = Process()
    private let input = Pipe()
    private let output = Pipe()
    private var buffered = Data()

    /// The fixture binary, built next to the test bundle.
    static var executable: URL {
        URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appending(path: "store-writer-fixture")
    }

    init(path: String) throws {
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
    func run(_ sql: String) throws -> String {
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
    func kill() {
        Foundation.kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
    }

    /// Closes its input, so that it closes the database and exits, and waits for it.
    func finish() {
        try? input.fileHandleForWriting.close()
        process.waitUntilExit()
    }
}
