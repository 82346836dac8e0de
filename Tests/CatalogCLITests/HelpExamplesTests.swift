import Foundation
import TestSupport
import Testing

/// Every example that `catalog --help` and `catalog help <command>` show runs as written: each help's
/// examples in the order shown, in a fresh home whose default database a first `catalog list` made,
/// exit 0.
struct HelpExamplesTests {
    /// The helps read: the root's, then each subcommand's.
    static let helps = [["--help"]] + [
        "list", "search", "suggest", "show", "add", "update", "delete", "seed", "import", "export", "backup", "migrate", "check",
    ].map { ["help", $0] }
    /// Examples that do not end by themselves (`watch`) or need a terminal (`browse`); the tests of
    /// those commands run them.
    static let notRunHere = ["catalog watch", "catalog browse"]
    /// `seed --count`'s example count (100,000), lowered to keep a debug build's test short: the
    /// example's syntax is what is checked.
    static let syntheticCount = (example: "--count 100000", run: "--count 1000")

    /// The example command lines of a help text: the lines under `Examples:`, with the lines the help
    /// wrapped joined back, each cut before the two spaces that start its comment.
    static func examples(in help: String) -> [String] {
        guard let start = help.range(of: "Examples:\n") else { return [] }
        var lines: [String] = []
        for line in help[start.upperBound...].split(separator: "\n", omittingEmptySubsequences: false) {
            if line.isEmpty { break }
            if line.hasPrefix("  ") || lines.isEmpty {
                lines.append(line.trimmingCharacters(in: .whitespaces))
            } else {
                lines[lines.count - 1] += " " + line
            }
        }
        return lines.map { line in line.range(of: "  ").map { String(line[..<$0.lowerBound]) } ?? line }
    }

    /// A fresh workspace whose folder `cwd` holds the files the examples name (`Seeds/`, `more-phones.csv`).
    private static func workspace() throws -> Workspace {
        let workspace = try Workspace()
        try FileManager.default.createDirectory(atPath: workspace.path("cwd"), withIntermediateDirectories: true)
        let package = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        try FileManager.default.copyItem(atPath: package.appendingPathComponent("Seeds").path, toPath: workspace.path("cwd/Seeds"))
        try workspace.write(
            "name,maker,yearReleased,operatingSystem,screenInches\nFairphone 5,Fairphone,2023,Android,6.46\n", to: "cwd/more-phones.csv")
        // The default database, created and seeded by a first command: `backup` and `check` never
        // create one.
        #expect(try ProcessRunner.run("catalog", ["list"], home: workspace.path("home")).status == 0)
        return workspace
    }

    /// Runs `command` with a shell in the workspace's `cwd`, with the built `catalog` first on `PATH`.
    private static func shell(_ command: String, in workspace: Workspace) throws -> ProcessResult {
        let path = ProcessRunner.productsDirectory.path + ":" + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin")
        return try ProcessRunner.run(
            executable: URL(fileURLWithPath: "/bin/sh"), ["-c", "cd \"$0\" && " + command, workspace.path("cwd")],
            environment: ["PATH": path], home: workspace.path("home"))
    }

    @Test(arguments: helps)
    func everyHelpExampleRuns(help: [String]) throws {
        let workspace = try Self.workspace()
        let examples = Self.examples(in: try ProcessRunner.run("catalog", help, home: workspace.path("home")).output)
        #expect(!examples.isEmpty, "\(help) shows examples")
        for example in examples where !Self.notRunHere.contains(where: example.hasPrefix) {
            #expect(example.hasPrefix("catalog "), "\(example)")
            let result = try Self.shell(
                example.replacingOccurrences(of: Self.syntheticCount.example, with: Self.syntheticCount.run), in: workspace)
            #expect(result.status == 0, "\(example): \(result)")
        }
    }
}
