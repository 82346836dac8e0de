import Foundation
import TestSupport
import Testing

/// `show` and `delete --at` resolve an index path in the result `list` prints with the same options,
/// run through the built `catalog` binary on a temporary database.
@Suite struct IndexPathCommandTests {
    let workspace: Workspace

    init() throws {
        workspace = try Workspace()
    }

    @Test(arguments: StoreEngine.all) func showAndDeleteAtResolveInTheSearchedScopedResult(engine: StoreEngine) throws {
        let workspace = try Workspace(engine: engine)
        #expect(try workspace.catalog("seed").status == 0)

        let list = try workspace.catalog("list", "--search", "mac", "--scope", "portable", "--reverse")
        #expect(list.status == 0)
        #expect(list.output.contains("0.0   MacBook Pro"), "\(list.output)")

        let shown = try workspace.catalog("show", "0.1", "--search", "mac", "--scope", "portable", "--reverse")
        #expect(shown.status == 0)
        #expect(shown.output.contains("name:             MacBook Air"), "\(shown.output)")
        // Without the options, 0.1 is another row: the unfiltered list's.
        #expect(try workspace.catalog("show", "0.1").output.contains("Mac Pro"))

        let deleted = try workspace.catalog("delete", "--at", "0.0", "--search", "mac", "--scope", "portable", "--reverse")
        #expect(deleted.status == 0)
        #expect(deleted.output.contains("MacBook Pro"), "\(deleted.output)")
        let after = try workspace.catalog("list", "--search", "mac", "--scope", "portable")
        #expect(!after.output.contains("MacBook Pro") && after.output.contains("MacBook Air"))
    }

    /// A search's path past its result: the documented line and exit code (3), with the result's
    /// section count, though `show` counts no matches.
    @Test func showPastASearchedResultTellsItsSections() throws {
        _ = try workspace.catalog("seed")
        let sections = try workspace.catalog("list", "--search", "mac").output.components(separatedBy: "\n")
            .filter { $0.hasPrefix("0.0 ") || $0.hasPrefix("1.0 ") || $0.hasPrefix("2.0 ") }.count
        let past = try workspace.catalog("show", "9.0", "--search", "mac")
        #expect(past.status == 3)
        #expect(past.error.contains("no row at 9.0: the result has \(sections) section"), "\(past)")
        let absent = try workspace.catalog("show", "0.0", "--search", "zqx")
        #expect(absent.status == 3)
        #expect(absent.error.contains("no row at 0.0: the result is empty"), "\(absent)")
    }

    @Test(arguments: ["-1.0", "1.", "a.b", "9.0", "0.99"])
    func badIndexPathsFail(_ path: String) throws {
        _ = try workspace.catalog("seed")
        let result = try workspace.catalog("show", "--search", "mac", path)
        #expect(result.status != 0)
        #expect(!result.error.isEmpty)
        let deleted = try workspace.catalog("delete", "--at=\(path)", "--search", "mac")
        #expect(deleted.status != 0)
    }

    /// A negative, missing or malformed id or index path is a usage error told in one line of the
    /// command's own words (exit 64, then the usage text), the same in `update`, `delete` and `show`;
    /// nothing is written.
    @Test(arguments: [
        (["update", "-1", "--name", "x"], #"invalid id "-1": expected a record's id, such as 7"#),
        (["update", "--name", "x", "--", "-1"], #"invalid id "-1": expected a record's id, such as 7"#),
        (["update", "--price", "-5"], "give the id of the record to change"),
        (["update", "--name", "x"], "give the id of the record to change"),
        (["delete", "-1"], #"invalid id "-1": expected a record's id, such as 7"#),
        (["delete", "--", "-1"], #"invalid id "-1": expected a record's id, such as 7"#),
        (["delete", "--at", "-1.0"], #"invalid index path "-1.0": expected section.row, such as 0.2"#),
        (["show", "-1.0"], #"invalid index path "-1.0": expected section.row, such as 0.2"#),
        (["show", "-1"], #"invalid index path "-1": expected section.row, such as 0.2"#),
        (["show", "--id", "-1"], #"invalid id "-1": expected a record's id, such as 7"#),
    ])
    func aBadIDOrIndexPathIsOneUsageLine(arguments: [String], message: String) throws {
        try workspace.catalog("seed")
        let before = FileManager.default.contents(atPath: workspace.database)
        let result = try workspace.catalog(arguments)
        #expect(result.status == 64, "\(result)")
        let lines = result.error.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.first?.hasPrefix("Error: ") == true && lines.first?.hasSuffix(message) == true, "\(result)")
        #expect(lines.filter { $0.hasPrefix("Error:") }.count == 1, "one error line: \(result)")
        #expect(result.error.contains("Usage: catalog \(arguments[0]) \(arguments[0] == "delete" ? "[<id>]" : arguments[0] == "update" ? "<id>" : "[<section.row>]")"), "\(result)")
        #expect(result.output.isEmpty)
        #expect(FileManager.default.contents(atPath: workspace.database) == before)
    }

    /// `update`'s usage line, written out so that the id shows as required, names every option its help lists.
    @Test func updatesUsageNamesEveryOption() throws {
        let help = try ProcessRunner.run("catalog", ["help", "update"])
        let usage = try #require(help.output.split(separator: "\n").first { $0.hasPrefix("USAGE: ") })
        #expect(usage.hasPrefix("USAGE: catalog update <id> "), "\(help.output)")
        let options = try #require(help.output.components(separatedBy: "OPTIONS:").last)
        let listed = Set(options.split(whereSeparator: { $0 == " " || $0 == "\n" || $0 == "," })
            .filter { $0.hasPrefix("--") && $0.count > 2 && $0.allSatisfy { $0.isLetter || $0 == "-" } }.map(String.init))
        #expect(listed.count >= 11, "\(listed)")
        for option in listed.subtracting(["--help", "--version"]) {
            #expect(usage.contains("[\(option) ") || usage.contains("[\(option)]"), "\(option) missing from \(usage)")
        }
    }
}
