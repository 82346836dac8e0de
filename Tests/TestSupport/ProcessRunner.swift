import Foundation

/// What a finished process printed and how it exited.
public struct ProcessResult: Sendable, CustomStringConvertible {
    /// The exit status.
    public let status: Int32
    /// Standard output, as UTF-8 text.
    public let output: String
    /// Standard error, as UTF-8 text.
    public let error: String

    public var description: String { "status \(status)\n--- stdout\n\(output)--- stderr\n\(error)" }
}

/// Runs executables built by this package, such as `catalog`, as a user would.
public enum ProcessRunner {
    /// The folder holding the package's built products (`.build/<triple>/debug`), found from the test
    /// runner's own path.
    public static var productsDirectory: URL {
        var url = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
        while url.pathComponents.count > 1 {
            url.deleteLastPathComponent()
            if FileManager.default.fileExists(atPath: url.appendingPathComponent("catalog").path) { return url }
        }
        return URL(fileURLWithPath: FileManager.default.currentDirectoryPath).appendingPathComponent(".build/debug")
    }

    /// Runs a built product with arguments, an environment added to this process's, and optional input.
    ///
    /// The environment's `HOME` and `XDG_DATA_HOME` are replaced by `home` when given, so a test never
    /// touches the user's default database.
    public static func run(
        _ product: String, _ arguments: [String], environment: [String: String] = [:], home: String? = nil,
        input: String? = nil
    ) throws -> ProcessResult {
        try run(
            executable: productsDirectory.appendingPathComponent(product), arguments, environment: environment,
            home: home, input: input)
    }

    /// Runs any executable the same way, such as a system tool wrapping a built product.
    public static func run(
        executable: URL, _ arguments: [String], environment: [String: String] = [:], home: String? = nil,
        input: String? = nil
    ) throws -> ProcessResult {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        process.environment = Self.environment(home: home, adding: environment)
        let outputPipe = Pipe()
        let errorPipe = Pipe()
        let inputPipe = Pipe()
        process.standardOutput = outputPipe
        process.standardError = errorPipe
        process.standardInput = inputPipe
        try process.run()
        if let input { inputPipe.fileHandleForWriting.write(Data(input.utf8)) }
        try inputPipe.fileHandleForWriting.close()
        // Read both pipes to the end before waiting, so a large output cannot block the child.
        let group = DispatchGroup()
        nonisolated(unsafe) var errorData = Data()
        group.enter()
        DispatchQueue.global().async {
            errorData = errorPipe.fileHandleForReading.readDataToEndOfFile()
            group.leave()
        }
        let outputData = outputPipe.fileHandleForReading.readDataToEndOfFile()
        group.wait()
        process.waitUntilExit()
        return ProcessResult(
            status: process.terminationStatus,
            output: String(decoding: outputData, as: UTF8.self),
            error: String(decoding: errorData, as: UTF8.self))
    }

    /// This process's environment for a child: without `CATALOG_DATABASE`, with `HOME` and
    /// `XDG_DATA_HOME` under `home` when given (so a test never touches the user's default database),
    /// and with `additions` on top.
    public static func environment(home: String?, adding additions: [String: String] = [:]) -> [String: String] {
        var environment = ProcessInfo.processInfo.environment
        environment.removeValue(forKey: "CATALOG_DATABASE")
        if let home {
            environment["HOME"] = home
            environment["XDG_DATA_HOME"] = home + "/data"
        }
        environment.merge(additions) { $1 }
        return environment
    }
}
