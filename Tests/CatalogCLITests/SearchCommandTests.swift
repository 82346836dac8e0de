import Foundation
import TestSupport
import Testing

/// `catalog search` and `catalog suggest`, run as the built binary on a temp database.
struct SearchCommandTests {
    let workspace: Workspace

    init() throws {
        workspace = try Workspace()
        #expect(try workspace.catalog("seed").status == 0)
    }

    @Test func searchPrintsSectionsWithIndexPaths() throws {
        let result = try workspace.catalog(["search", "mac", "--scope", "desktop"])
        #expect(result.status == 0)
        #expect(result.output == """
            PATH  NAME     TYPE     YEAR     PRICE  ID
            Desktop (2)
            0.0   iMac     desktop  1997  1,299.00   6
            0.1   Mac Pro  desktop  2006  2,499.00   7

            """)
        let shown = try workspace.catalog(["show", "0.1", "--search", "mac", "--scope", "desktop"])
        #expect(shown.output.contains("Mac Pro"))
    }

    @Test func noMatchIsToldApartFromAnEmptyStore() throws {
        #expect(try workspace.catalog(["search", "zzz"]).output == "No results for \"zzz\"\n")
        let result = try workspace.catalog(["search", "mac"], database: workspace.path("empty.sqlite"))
        #expect(result.output.hasPrefix("No products yet — "))
    }

    @Test func suggestCompletesNames() throws {
        #expect(try workspace.catalog(["suggest", "macb"]).output == "MacBook Air\nMacBook Pro\n")
        #expect(try workspace.catalog(["suggest", "i", "--limit", "2", "--json"]).output == "[\n  \"iMac\",\n  \"iPad\"\n]\n")
    }

    @Test(arguments: ["\"", "*", "^", ":", "(", ")", "-", "--x", "-s", "AND", "OR", "NOT", "NEAR", "NEAR(a b, 2)", "a OR b",
                      "'; DROP TABLE products; --", "\u{1}", "\u{7F}", "\\", "%", "_", "{name_folded}: x", "\"mac\" *",
                      String(repeating: "x\"*", count: 3_334)])
    /// Text that looks like an option goes after `--`, or in `--search=…`, as with any command.
    func hostileInputExitsZeroWithoutError(_ text: String) throws {
        for command in [["search", text], ["search", "--entity", "phones", text], ["list", "--search=" + text], ["suggest", "--", text]] {
            let result = try workspace.catalog(command)
            #expect(result.status == 0, "\(command.prefix(4)): \(result.error)")
            #expect(result.error.isEmpty, "\(result.error)")
        }
    }
}
