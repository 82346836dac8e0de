import Foundation
import TestSupport
import Testing

/// `catalog browse` in a real terminal: a tmux pane on a temp database, keys sent, the screen captured.
@Suite(.enabled(if: TmuxPane.isAvailable, "needs tmux (CI installs it)"), .serialized)
struct BrowseTerminalTests {
    let directory: TemporaryDirectory
    let database: String
    let catalogPath: String

    init() throws {
        directory = try TemporaryDirectory()
        database = directory.path("catalog.sqlite")
        catalogPath = ProcessRunner.productsDirectory.appendingPathComponent("catalog").path
        let seeded = try ProcessRunner.run("catalog", ["seed", "--database", database], home: directory.path("home"))
        #expect(seeded.status == 0)
    }

    private func pane(columns: Int = 100) throws -> TmuxPane {
        try TmuxPane(
            directory: directory.path(""), columns: columns,
            environment: ["XDG_STATE_HOME": directory.path("state"), "HOME": directory.path("home")])
    }

    private func browse(_ pane: TmuxPane, _ arguments: String = "") throws {
        try pane.type("'\(catalogPath)' browse --database '\(database)' \(arguments); echo \"exit=$?\"")
        try pane.press("Enter")
    }

    private func catalog(_ arguments: String...) throws -> ProcessResult {
        try ProcessRunner.run("catalog", arguments + ["--database", database], home: directory.path("home"))
    }

    /// Lines of the list area that show rows or section headers.
    private func list(_ screen: String) -> [Substring] {
        screen.split(separator: "\n", omittingEmptySubsequences: false).dropFirst(4).dropLast(4)
    }

    @Test func typeNarrowScopeDetailLiveAndQuit() throws {
        let pane = try pane()
        try browse(pane)
        try pane.wait(for: "the first screen") { $0.contains("9 products in 3 sections") && $0.contains("› iMac") }

        try pane.type("mac")
        let searched = try pane.wait(for: "the results of mac") { $0.contains("4 products in 2 sections") }
        #expect(searched.contains(" Desktop (2)") && searched.contains(" Portable (2)") && searched.contains("MacBook Air"))
        #expect(!searched.contains("iPod"))

        try pane.press("C-t", "C-t")
        let desktop = try pane.wait(for: "the Desktop scope") { $0.contains("[Desktop]") && $0.contains("2 products in 1 section") }
        #expect(!list(desktop).contains { $0.lowercased().contains("portable") })

        try pane.press("Enter", "Enter")
        let detail = try pane.wait(for: "the detail") { $0.contains("index path:") }
        #expect(detail.contains("id:") && detail.contains("iMac") && detail.contains("year introduced:"))
        try pane.press("Escape")
        try pane.wait(for: "the list again") { !$0.contains("index path:") && $0.contains("› iMac") }

        // Another process adds a product that matches: it appears without a key press.
        let added = try catalog("add", "product", "--type", "desktop", "--name", "Mac Studio", "--year", "2022", "--price", "1999")
        #expect(added.status == 0, "\(added)")
        let live = try pane.wait(for: "the added product") { $0.contains("Mac Studio") && $0.contains("3 products in 1 section") }
        #expect(live.contains("1 inserted"))
        #expect(live.contains("› iMac"), "the selection stays on its record")

        try pane.press("C-q")
        let after = try pane.wait(for: "the shell prompt") { $0.contains("exit=0") }
        #expect(after.contains("PANE$"))
        #expect(!after.contains("Search:"), "the main screen is back")
    }

    /// The screen on a PostgreSQL server: the same first screen and search, and another process's
    /// commit shown live (woken by the server's notifications).
    @Test(.enabled(if: StoreEngine.all.contains(.postgreSQL))) func searchesAServerLive() throws {
        let server = try Workspace(engine: .postgreSQL)
        #expect(try server.catalog("seed").status == 0)
        let pane = try pane()
        try pane.type("'\(catalogPath)' browse --database '\(server.database)'; echo \"exit=$?\"")
        try pane.press("Enter")
        try pane.wait(for: "the first screen") { $0.contains("9 products in 3 sections") && $0.contains("› iMac") }
        try pane.type("mac")
        try pane.wait(for: "the results of mac") { $0.contains("4 products in 2 sections") }
        let added = try server.catalog("add", "product", "--type", "desktop", "--name", "Mac Studio", "--year", "2022", "--price", "1999")
        #expect(added.status == 0, "\(added)")
        try pane.wait(for: "the added product") { $0.contains("Mac Studio") && $0.contains("5 products in 2 sections") }
        try pane.press("C-q")
        try pane.wait(for: "the shell prompt") { $0.contains("exit=0") }
    }

    @Test func japaneseAndHalfWidthKanaThenStateIsRestored() throws {
        let added = try catalog("add", "product", "--type", "device", "--name", "東京タワー 限定モデル", "--year", "2020", "--price", "99")
        #expect(added.status == 0, "\(added)")
        let pane = try pane()
        try browse(pane)
        try pane.wait(for: "the first screen") { $0.contains("10 products in 3 sections") }
        try pane.type("東京")
        let japanese = try pane.wait(for: "the results of 東京") { $0.contains("1 product in 1 section") }
        #expect(japanese.contains("Search: 東京") && japanese.contains("東京タワー 限定モデル"))
        try pane.press("C-u")
        try pane.type("ﾀﾜｰ")
        let kana = try pane.wait(for: "the results of ﾀﾜｰ") { $0.contains("Search: ﾀﾜｰ") && $0.contains("1 product in 1 section") }
        #expect(kana.contains("東京タワー 限定モデル"))
        try pane.press("C-c")
        try pane.wait(for: "the shell prompt") { $0.contains("exit=0") }

        // The next browse comes back with the same search; --fresh starts clean.
        try browse(pane)
        try pane.wait(for: "the restored search") { $0.contains("Search: ﾀﾜｰ") && $0.contains("1 product in 1 section") }
        try pane.press("C-q")
        try pane.wait(for: "the shell prompt") { $0.components(separatedBy: "exit=0").count == 3 }
        try browse(pane, "--fresh")
        try pane.wait(for: "a fresh screen") { $0.contains("10 products in 3 sections") }
        try pane.press("C-q")
        try pane.wait(for: "the shell prompt") { $0.components(separatedBy: "exit=0").count == 4 }
    }

    /// One Esc clears a field with no completions shown; one Enter opens the detail of a text no name
    /// starts with; a damaged state file's warning leaves the counts on the 80-column status line.
    @Test func escAndEnterTakeOnePressAndTheWarningLeavesTheCounts() throws {
        let stateFile = directory.path("state") + "/catalog/browse.json"
        try FileManager.default.createDirectory(atPath: directory.path("state") + "/catalog", withIntermediateDirectories: true)
        try Data("{not json".utf8).write(to: URL(fileURLWithPath: stateFile))
        let pane = try pane(columns: 80)
        try browse(pane)
        let first = try pane.wait(for: "the first screen") { $0.contains("› iMac") }
        let status = first.split(separator: "\n").first { $0.contains("warning: ignoring the damaged") }
        #expect(status?.contains("9 products in 3 sections") == true, "\(first)")

        try pane.type("zzq")
        try pane.wait(for: "no results") { $0.contains("Search: zzq") && $0.contains("0 products") }
        try pane.press("Escape")
        try pane.wait(for: "the cleared field") { $0.contains("9 products in 3 sections") && !$0.contains("zzq") }

        try pane.type("pod")  // iPod and iPod touch: no name starts with it
        try pane.wait(for: "the results of pod") { $0.contains("2 products in 1 section") }
        try pane.press("Enter")
        let detail = try pane.wait(for: "the detail") { $0.contains("index path:") }
        #expect(detail.contains("iPod"))
        try pane.press("C-q")
        try pane.wait(for: "the shell prompt") { $0.contains("exit=0") }
    }

    @Test func sigtermRestoresTheTerminal() throws {
        let pane = try pane()
        try browse(pane)
        try pane.wait(for: "the first screen") { $0.contains("9 products in 3 sections") }
        let shell = try pane.shellPID()
        let children = try ProcessRunner.run(executable: URL(fileURLWithPath: "/usr/bin/pgrep"), ["-P", String(shell)])
        let pid = try #require(Int32(children.output.split(separator: "\n").first ?? ""), "no browse process: \(children)")
        #expect(kill(pid, SIGTERM) == 0)
        let after = try pane.wait(for: "the shell prompt") { $0.contains("exit=") }
        #expect(!after.contains("Search:"))
        // The terminal is out of raw mode: typed text echoes and runs.
        try pane.type("echo restored-$((40 + 2))")
        try pane.press("Enter")
        try pane.wait(for: "a working shell") { $0.contains("restored-42") }
    }

    @Test func notATerminalPointsToListAndSearch() throws {
        let result = try catalog("browse")
        #expect(result.status == 64)
        #expect(result.output.isEmpty)
        #expect(result.error.split(separator: "\n").count == 1)
        #expect(result.error.contains("catalog list") && result.error.contains("catalog search"))
    }
}
