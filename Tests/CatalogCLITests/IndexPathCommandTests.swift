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

    @Test func showAndDeleteAtResolveInTheSearchedScopedResult() throws {
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

    @Test(arguments: ["-1.0", "1.", "a.b", "9.0", "0.99"])
    func badIndexPathsFail(_ path: String) throws {
        _ = try workspace.catalog("seed")
        let result = try workspace.catalog("show", "--search", "mac", path)
        #expect(result.status != 0)
        #expect(!result.error.isEmpty)
        let deleted = try workspace.catalog("delete", "--at=\(path)", "--search", "mac")
        #expect(deleted.status != 0)
    }
}
