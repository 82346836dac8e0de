import Foundation
import Testing

/// `show` and `delete --at` resolve an index path in the result `list` prints with the same options,
/// run through the built `catalog` binary on a temporary database.
@Suite struct IndexPathCommandTests {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("catalog-cli-\(UUID().uuidString)")
    var database: String { directory.appendingPathComponent("catalog.sqlite").path }

    /// Runs `catalog` with `arguments` and `--database`; returns its exit status, stdout and stderr.
    func catalog(_ arguments: String...) throws -> (status: Int32, output: String, error: String) {
        let binary = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("catalog")
        let fallback = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../../.build/debug/catalog")
        let process = Process()
        process.executableURL = FileManager.default.isExecutableFile(atPath: binary.path) ? binary : fallback
        process.arguments = arguments + ["--database", database]
        let (output, error) = (Pipe(), Pipe())
        process.standardOutput = output
        process.standardError = error
        try process.run()
        let out = output.fileHandleForReading.readDataToEndOfFile()
        let err = error.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: out, as: UTF8.self), String(decoding: err, as: UTF8.self))
    }

    @Test func showAndDeleteAtResolveInTheSearchedScopedResult() throws {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        #expect(try catalog("seed").status == 0)

        let list = try catalog("list", "--search", "mac", "--scope", "portable", "--reverse")
        #expect(list.status == 0)
        #expect(list.output.contains("0.0   MacBook Pro"), "\(list.output)")

        let shown = try catalog("show", "0.1", "--search", "mac", "--scope", "portable", "--reverse")
        #expect(shown.status == 0)
        #expect(shown.output.contains("name:             MacBook Air"), "\(shown.output)")
        // Without the options, 0.1 is another row: the unfiltered list's.
        #expect(try catalog("show", "0.1").output.contains("Mac Pro"))

        let deleted = try catalog("delete", "--at", "0.0", "--search", "mac", "--scope", "portable", "--reverse")
        #expect(deleted.status == 0)
        #expect(deleted.output.contains("MacBook Pro"), "\(deleted.output)")
        let after = try catalog("list", "--search", "mac", "--scope", "portable")
        #expect(!after.output.contains("MacBook Pro") && after.output.contains("MacBook Air"))
    }

    @Test(arguments: ["-1.0", "1.", "a.b", "9.0", "0.99"])
    func badIndexPathsFail(_ path: String) throws {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        _ = try catalog("seed")
        let result = try catalog("show", "--search", "mac", path)
        #expect(result.status != 0)
        #expect(!result.error.isEmpty)
        let deleted = try catalog("delete", "--at=\(path)", "--search", "mac")
        #expect(deleted.status != 0)
    }
}
