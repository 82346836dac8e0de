import Catalog
import FetchedResults
import Foundation
import SQLiteStore
import Testing

@testable import CatalogCLI

/// The browse screen model, driven by scripted keys and a fake clock against real SQLite files.
struct BrowseScreenTests {
    @Test func firstScreenShowsSectionsWithCountsAndTheSelection() throws {
        let harness = try ScreenHarness()
        let screen = harness.screen
        #expect(screen.count == 24)
        #expect(screen.allSatisfy { DisplayWidth.of($0) <= 80 })
        #expect(screen[0].contains("[products]") && screen[0].contains("[All]") && screen[0].contains("Sort: name ↑ asc"))
        #expect(screen[1].hasPrefix(" Search:"))
        #expect(harness.listText.contains(" Desktop (2)"))
        #expect(harness.listText.contains("› iMac"))
        #expect(harness.listText.contains(" Portable (2)"))
        #expect(screen[20].contains("9 products in 3 sections"))
        #expect(screen[20].contains("last change none yet"))
        // The section index: the controller's titles down the right edge.
        #expect(screen[4].hasSuffix(" D") && screen[5].hasSuffix(" P"))
    }

    @Test func typingIsDebouncedAndOnlyTheLastTextIsSearched() throws {
        let harness = try ScreenHarness()
        let before = harness.fetchCount
        harness.type("mac")
        #expect(harness.fetchCount == before, "no search before the pause")
        #expect(harness.state.field.text == "mac")
        harness.elapse()  // three timers fire; only the last edit's searches
        #expect(harness.fetchCount == before + 1)
        #expect(harness.listText.contains(" Desktop (2)") && harness.listText.contains("MacBook Air"))
        #expect(!harness.listText.contains("iPod"))
        // The same search again (a trailing space) is a repeat: dropped.
        harness.type(" ")
        harness.elapse()
        #expect(harness.fetchCount == before + 1)
    }

    @Test func staleResultsAreDroppedAndAnUnchangedResultIsNotRedrawn() throws {
        let harness = try ScreenHarness()
        harness.type("ipod")
        harness.elapse()
        let shown = harness.state
        let screen = harness.state.render()
        // An answer to an older fetch (version 1: the first screen) arrives late: dropped.
        let stale = ResultArrival(version: 1, summary: ResultSummary(sections: [SectionSummary(name: "X", indexTitle: "X", count: 1)]),
                                  rows: [0: BrowseRow(id: 99, cells: ["Stale"], fields: [])], followed: nil)
        harness.send(.resultArrived(stale))
        #expect(harness.state == shown)
        // The same result again (the same text under another version): the state stays, nothing to redraw.
        var same = harness.state
        let effects = same.fetch(following: nil)
        guard case .fetch(let order) = effects.first else { Issue.record("no fetch"); return }
        let again = try ResultSource<Product>(catalog: harness.catalog).fetch(order)
        harness.state = same
        harness.send(.resultArrived(again))
        #expect(harness.state.render() == screen)
        #expect(harness.state.stamp == shown.stamp)
    }

    @Test func completionsShowUnderTheFieldTabTakesOneEnterSearchesAsTyped() throws {
        let harness = try ScreenHarness()
        harness.type("macb")
        #expect(harness.state.completions == ["MacBook Air", "MacBook Pro"])
        #expect(harness.screen[2].contains("[MacBook Air]") && harness.screen[2].contains("MacBook Pro") && harness.screen[2].contains("(Tab takes it)"))
        harness.press(.control("n"))
        #expect(harness.screen[2].contains("[MacBook Pro]"))
        harness.press(.tab)
        #expect(harness.state.field.text == "MacBook Pro")
        #expect(harness.listText.contains("MacBook Pro") && !harness.listText.contains("MacBook Air"))
        #expect(harness.screen[2].trimmingCharacters(in: .whitespaces).isEmpty)

        harness.press(.control("u"))
        harness.type("ip")
        harness.press(.enter)  // searched at once, as typed, without waiting for the pause
        #expect(harness.state.searchedText == "ip")
        #expect(harness.listText.contains("iPod touch") && harness.listText.contains("iPhone"))
        harness.press(.enter)
        #expect(harness.state.mode == .detail)
    }

    /// README: Esc clears the field when no completions are shown, and Enter opens the detail when
    /// the text is searched: one press each, also when completions were asked for and none came.
    @Test func escAndEnterTakeOnePressWhenNoCompletionIsShown() throws {
        let harness = try ScreenHarness()
        harness.type("zzq")
        harness.elapse()
        #expect(harness.state.completions.isEmpty)
        harness.press(.escape)
        #expect(harness.state.field.text.isEmpty, "one Esc clears the field")
        #expect(!harness.didQuit)

        harness.type("pod")  // iPod and iPod touch: found, but no name starts with it
        harness.elapse()
        #expect(harness.state.completions.isEmpty)
        #expect(harness.listText.contains("iPod touch"))
        harness.press(.enter)
        #expect(harness.state.mode == .detail, "one Enter opens the detail")
    }

    /// At 80 columns a long message (the warning about a damaged state file names its path) is cut
    /// to leave the counts on the status line.
    @Test func aLongMessageLeavesTheCountsOnTheStatusLine() throws {
        let harness = try ScreenHarness()
        harness.state.message = "warning: ignoring the damaged state file /root/.local/state/catalog/some/long/folder/browse.json"
        let status = harness.screen[20]
        #expect(status.contains("warning: ignoring the damaged state"), "\(status)")
        #expect(status.hasSuffix("9 products in 3 sections · row 1 of 9"), "\(status)")
        #expect(DisplayWidth.of(status) <= 80)
    }

    @Test func scopeSortAndEntity() throws {
        let harness = try ScreenHarness()
        harness.type("mac")
        harness.elapse()
        harness.press(.control("t"), .control("t"))
        #expect(harness.screen[0].contains("[Desktop]"))
        #expect(harness.listText.contains(" Desktop (2)") && !harness.listText.lowercased().contains("portable"))
        harness.press(.backTab)
        #expect(harness.screen[0].contains("[Device]"))
        #expect(harness.listText.contains("No results for \"mac\""))
        harness.press(.backTab, .control("u"))
        harness.elapse()
        harness.press(.control("o"))  // sort by year
        #expect(harness.screen[0].contains("Sort: year ↑ asc"))
        let device = harness.listText.split(separator: "\n").filter { $0.contains("device ") && !$0.contains("(") }
        #expect(device.first?.contains("iPod") == true)  // 2001 first
        harness.press(.control("r"))
        #expect(harness.screen[0].contains("Sort: year ↓ desc"))
        harness.press(.control("x"))
        #expect(harness.screen[0].contains("[phones]") && !harness.screen[0].contains("Scope"))
        #expect(harness.screen[3].contains("MAKER"))
        #expect(harness.state.sort == .year)
        harness.press(.control("o"))
        #expect(harness.state.sort == .name)
    }

    @Test func movingJumpingAndTheDetail() throws {
        let harness = try ScreenHarness()
        harness.press(.down)
        #expect(harness.listText.contains("› Mac Pro"))
        harness.press(.end)
        #expect(harness.listText.contains("› MacBook Pro"))
        harness.press(.home)
        #expect(harness.listText.contains("› iMac"))
        harness.press(.pageDown)
        #expect(harness.listText.contains("› MacBook Pro"))
        harness.press(.pageUp, .alt("p"))
        #expect(harness.listText.contains("› MacBook Air"))
        harness.press(.enter)
        #expect(harness.state.mode == .detail)
        let detail = harness.listText
        #expect(detail.contains("index path:") && detail.contains("2.0 (section Portable, row 1)"))
        #expect(detail.contains("id:") && detail.contains("name:") && detail.contains("MacBook Air"))
        #expect(detail.contains("year introduced:") && detail.contains("intro price:") && detail.contains("$1,799.00"))
        harness.press(.escape)
        #expect(harness.state.mode == .list)
        harness.press(.escape)
        #expect(harness.didQuit)
    }

    @Test func deleteAsksThenTheNeighbourIsSelected() throws {
        let harness = try ScreenHarness()
        harness.press(.down)  // Mac Pro
        harness.press(.control("d"))
        #expect(harness.screen[20].contains("Delete \"Mac Pro\""))
        harness.press(.text("n"))
        #expect(try harness.catalog.count(Product.self) == 9)
        harness.press(.control("d"), .text("y"))
        #expect(try harness.catalog.count(Product.self) == 8)
        #expect(harness.screen[20].contains("Deleted product"))
        #expect(harness.listText.contains(" Desktop (1)"))
        // Mac Pro was the last Desktop row: its neighbour, the first Device row, is selected.
        #expect(harness.listText.contains("› iPad"))
        #expect(harness.state.lastChange?.hasSuffix("(1 deleted)") == true)
    }

    @Test func liveChangesKeepTheSelectionOnItsRecord() throws {
        let harness = try ScreenHarness()
        harness.type("mac")
        harness.elapse()
        harness.press(.end)  // MacBook Pro
        let other = try CatalogStore(path: harness.catalog.file!.path)
        _ = try other.insert(Product(type: .desktop, name: "Mac Studio", yearIntroduced: 2022, introPrice: 1999))
        _ = try other.insert(Product(type: .portable, name: "MacBook Neo", yearIntroduced: 2025, introPrice: 999))
        harness.send(.commitNoticed)
        #expect(harness.listText.contains("Mac Studio") && harness.listText.contains("MacBook Neo"))
        #expect(harness.listText.contains("› MacBook Pro"))
        #expect(harness.screen[20].contains("last change") && harness.screen[20].contains("2 inserted"))
        // The selected record is deleted elsewhere: its neighbour is selected.
        _ = try other.delete(Product.self, id: harness.state.selectedID!)
        harness.send(.commitNoticed)
        #expect(!harness.listText.contains("MacBook Pro"))
        #expect(harness.listText.contains("› MacBook Neo"))
    }

    @Test func emptyStoreAndNoResultsAreDifferentStates() throws {
        let empty = try ScreenHarness(seeded: false)
        #expect(empty.listText.contains("No products yet — `catalog seed` adds the samples"))
        let seeded = try ScreenHarness()
        seeded.type("zzz")
        seeded.elapse()
        #expect(seeded.listText.contains("No results for \"zzz\""))
    }

    @Test func japaneseAndHalfWidthKanaAreSearchedAndDrawnByWidth() throws {
        let harness = try ScreenHarness()
        _ = try harness.catalog.insert(Product(type: .device, name: "東京タワー限定モデル with a very long name that does not fit", yearIntroduced: 2020, introPrice: 10))
        harness.send(.key(.text("東京")))  // committed by an input method in one piece
        harness.elapse()
        #expect(harness.listText.contains("東京タワー限定モデル"))
        #expect(harness.listText.contains("…"))
        #expect(harness.screen.allSatisfy { DisplayWidth.of($0) <= 80 })
        harness.press(.control("u"))
        harness.type("ﾀﾜｰ")  // half-width katakana folds to タワー
        harness.elapse()
        #expect(harness.listText.contains("東京タワー"))
        #expect(harness.state.render().cursor == Screen.Cursor(line: 1, column: 9 + 3))
    }

    @Test func aSmallTerminalSaysSo() throws {
        let harness = try ScreenHarness(size: TerminalSize(columns: 60, lines: 20))
        #expect(harness.screen[0].contains("at least 80×24"))
        harness.send(.resize(TerminalSize(columns: 100, lines: 30)))
        #expect(harness.screen.count == 30 && harness.listText.contains("› iMac"))
    }

    @Test func noColourUnderNoColorOrDumb() {
        #expect(ScreenStyle(environment: ["NO_COLOR": "1"]) == .monochrome)
        #expect(ScreenStyle(environment: ["TERM": "dumb"]) == .plain)
        #expect(ScreenStyle(environment: ["TERM": "xterm-256color"]) == .color)
        for role in [ScreenLine.Role.title, .chosen, .header, .selected, .dim, .indexCurrent, .alert] {
            #expect(Escape.attributes(for: role, style: .plain) == "")
            #expect(!Escape.attributes(for: role, style: .monochrome).contains(";3"))
        }
    }

    @Test func theKeyLinesFitAndNameEveryKey() {
        let lines = BrowseState.keyLines(for: .list)
        #expect(lines.allSatisfy { DisplayWidth.of($0) <= 80 })
        let text = lines.joined(separator: " ")
        for key in ["↑↓", "PgUp", "PgDn", "Home", "End", "Alt+letter", "Enter", "Esc", "Tab", "^N", "^P", "←→", "^A", "^E",
                    "Bksp", "Del", "^U", "^T", "⇧Tab", "^O", "^R", "^X", "^D", "^Q"] {
            #expect(text.contains(key), "key line lacks \(key)")
        }
    }
}
