import Foundation
import Testing

/// `catalog search` and `catalog suggest`, run as the built binary on a temp database.
struct SearchCommandTests {
    let database: String

    init() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("search-cli-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        database = directory.appendingPathComponent("catalog.sqlite").path
        #expect(try Self.run(["seed", "--database", database]).status == 0)
    }

    /// The `catalog` binary built next to this test bundle.
    static var binary: URL {
        let candidates = [Bundle.main.bundleURL.deletingLastPathComponent(),
                          URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent(),
                          URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../../.build/debug")]
        let found = candidates.map { $0.appendingPathComponent("catalog") }
            .first { FileManager.default.isExecutableFile(atPath: $0.path) }
        return found ?? candidates[0].appendingPathComponent("catalog")
    }

    /// Runs `catalog` with `arguments`; returns its exit status, standard output and standard error.
    static func run(_ arguments: [String]) throws -> (status: Int32, out: String, err: String) {
        let process = Process()
        process.executableURL = binary
        process.arguments = arguments
        var environment = ProcessInfo.processInfo.environment
        environment["CATALOG_DATABASE"] = "/nonexistent/never-used.sqlite"
        process.environment = environment
        let out = Pipe()
        let err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        let output = out.fileHandleForReading.readDataToEndOfFile()
        let error = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: output, as: UTF8.self), String(decoding: error, as: UTF8.self))
    }

    @Test func searchPrintsSectionsWithIndexPaths() throws {
        let result = try Self.run(["search", "mac", "--scope", "desktop", "--database", database])
        #expect(result.status == 0)
        #expect(result.out == """
            PATH  NAME     TYPE     YEAR     PRICE  ID
            Desktop (2)
            0.0   iMac     desktop  1997  1,299.00   6
            0.1   Mac Pro  desktop  2006  2,499.00   7

            """)
        let shown = try Self.run(["show", "0.1", "--search", "mac", "--scope", "desktop", "--database", database])
        #expect(shown.out.contains("Mac Pro"))
    }

    @Test func noMatchIsToldApartFromAnEmptyStore() throws {
        #expect(try Self.run(["search", "zzz", "--database", database]).out == "No results for \"zzz\"\n")
        let empty = database + "-empty.sqlite"
        let result = try Self.run(["search", "mac", "--database", empty])
        #expect(result.out.hasPrefix("No products yet — "))
    }

    @Test func suggestCompletesNames() throws {
        #expect(try Self.run(["suggest", "macb", "--database", database]).out == "MacBook Air\nMacBook Pro\n")
        #expect(try Self.run(["suggest", "i", "--limit", "2", "--json", "--database", database]).out == "[\n  \"iMac\",\n  \"iPad\"\n]\n")
    }

    @Test(arguments: ["\"", "*", "^", ":", "(", ")", "-", "--x", "-s", "AND", "OR", "NOT", "NEAR", "NEAR(a b, 2)", "a OR b",
                      "'; DROP TABLE products; --", "\u{1}", "\u{7F}", "\\", "%", "_", "{name_folded}: x", "\"mac\" *",
                      String(repeating: "x\"*", count: 3_334)])
    /// Text that looks like an option goes after `--`, or in `--search=…`, as with any command.
    func hostileInputExitsZeroWithoutError(_ text: String) throws {
        for command in [["search", "--database", database, text], ["search", "--database", database, "--entity", "phones", text],
                        ["list", "--database", database, "--search=" + text], ["suggest", "--database", database, "--", text]] {
            let result = try Self.run(command)
            #expect(result.status == 0, "\(command.prefix(4)): \(result.err)")
            #expect(result.err.isEmpty, "\(result.err)")
        }
    }

    /// `search --search=X`, `search --search X`, `search X` and `search -- X` print the same, whatever
    /// X starts with; a text that matches nothing is quoted as typed.
    @Test(arguments: ["mac", "\u{301}mac", "\u{FE0F}", "\u{3099}", "\u{1F3FD}", "\u{301}", "a'", "ﾃﾞ", "--", "ｍａｃ ｐｒｏ"])
    func everyArgumentFormSearchesTheSame(_ text: String) throws {
        // A text that starts with `-` reads as an option unless it follows `=` or `--`.
        let forms = [["--search=" + text], ["--", text]] + (text.hasPrefix("-") ? [] : [["--search", text], [text]])
        let results = try forms.map { try Self.run(["search", "--database", database] + $0) }
        for (form, result) in zip(forms, results) {
            #expect(result.status == 0 && result.out == results[0].out, "\(form): \(result)")
        }
        if results[0].out.hasPrefix("No results") {
            #expect(results[0].out == "No results for \"\(text)\"\n")
        }
    }

    @Test func halfWidthKanaFindFullWidthNames() throws {
        #expect(try Self.run(["add", "product", "--type", "device", "--name", "デジタル カメラ", "--year", "2020", "--price", "1",
                              "--database", database]).status == 0)
        #expect(try Self.run(["search", "ﾃﾞｼﾞﾀﾙ", "--database", database]).out.contains("デジタル カメラ"))
        #expect(try Self.run(["suggest", "ﾃﾞ", "--database", database]).out == "デジタル カメラ\n")
    }
}
