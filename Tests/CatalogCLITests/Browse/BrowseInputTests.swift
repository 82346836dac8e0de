import Catalog
import Foundation
import TestSupport
import Testing

@testable import CatalogCLI

/// Keys from terminal bytes, the search field's grapheme editing, display widths and the state file.
struct BrowseInputTests {
    @Test func decodesKeysEscapeSequencesAndUTF8CutAnywhere() {
        var decoder = KeyDecoder()
        #expect(decoder.decode(Array("\u{1B}[A\u{1B}[B\u{1B}OC\u{1B}[D".utf8)) == [.up, .down, .right, .left])
        #expect(decoder.decode(Array("\u{1B}[5~\u{1B}[6~\u{1B}[H\u{1B}[F\u{1B}[1~\u{1B}[4~\u{1B}[3~\u{1B}[Z".utf8))
            == [.pageUp, .pageDown, .home, .end, .home, .end, .delete, .backTab])
        #expect(decoder.decode([0x0D, 0x09, 0x7F, 0x15, 0x03, 0x14]) == [.enter, .tab, .backspace, .control("u"), .control("c"), .control("t")])
        #expect(decoder.decode(Array("\u{1B}p".utf8)) == [.alt("p")])
        // An input method commits 東京 in one write: one text key.
        #expect(decoder.decode(Array("東京".utf8)) == [.text("東京")])
        // A character cut between two reads waits for its last byte.
        let bytes = Array("ｶ".utf8)
        #expect(decoder.decode(Array(bytes.prefix(2))).isEmpty)
        #expect(decoder.decode(Array(bytes.dropFirst(2))) == [.text("ｶ")])
        // A sequence cut between reads too; a lone Escape is a key once no more bytes come.
        #expect(decoder.decode([0x1B, UInt8(ascii: "[")]).isEmpty)
        #expect(decoder.decode([UInt8(ascii: "A")]) == [.up])
        #expect(decoder.decode([0x1B]).isEmpty)
        #expect(decoder.flush() == [.escape])
    }

    @Test func editsByGraphemeCluster() {
        var field = SearchField()
        field.insert("cafe")
        field.insert("\u{301}")  // a combining acute typed after the e joins it
        #expect(field.text == "cafe\u{301}" && field.cursor == 4 && field.cursorColumn == 4)
        field.deleteBackward()
        #expect(field.text == "caf")
        field.insert("東京👍🏽")
        #expect(field.cursorColumn == 3 + 4 + 2)
        field.moveCursor(by: -1)
        field.deleteBackward()
        #expect(field.text == "caf東👍🏽")
        field.moveCursor(toEnd: false)
        field.deleteForward()
        #expect(field.text == "af東👍🏽" && field.cursor == 0)
        field.insert("x\u{7}\ty")  // control characters dropped, a tab becomes a space
        #expect(field.text == "x yaf東👍🏽")
        field.clear()
        #expect(field.text.isEmpty && field.cursor == 0)
    }

    /// A grapheme cluster is as wide as a terminal draws it: an emoji presentation sequence (ZWJ,
    /// skin tone, flag, VS16, keycap) one wide glyph. The widths are Python's `wcwidth.wcswidth` (the
    /// package `wcwidth` 0.7.0, the reference of `displayWidthAgreesWithWcwidth`), run on each text.
    @Test func aGraphemeClusterIsAsWideAsATerminalDrawsIt() {
        let wcswidth: [(String, Int)] = [
            ("👨\u{200D}👩\u{200D}👧", 2), ("🏳\u{FE0F}\u{200D}🌈", 2), ("👍🏽", 2), ("🇯🇵", 2), ("🇯🇵🇫🇷", 4), ("❤\u{FE0F}", 2),
            ("#\u{FE0F}\u{20E3}", 2), ("👩\u{200D}💻", 2), ("e\u{301}", 1), ("\u{1100}\u{1161}\u{11A8}", 2),
            ("iPhone 👨\u{200D}👩\u{200D}👧 東京", 14), ("☺", 1),
        ]
        // An emoji modifier sequence on a text-default base is one wide glyph too (UTS #51: the modifier
        // implies emoji presentation). `wcwidth` 0.7.0 keeps the base's width, 1, for ☝🏽; the widths
        // here are the package `uwcwidth` 1.0.0's `wcswidth`, which follows UTS #51.
        let modifierSequences: [(String, Int)] = [
            ("\u{261D}\u{1F3FD}", 2), ("\u{270C}\u{1F3FD}", 2), ("\u{270D}\u{1F3FD}", 2),
            ("\u{26F9}\u{1F3FD}\u{200D}\u{2642}\u{FE0F}", 2), ("\u{1F9D1}\u{1F3FD}\u{200D}\u{1F4BB}", 2),
        ]
        for (text, width) in wcswidth + modifierSequences {
            #expect(DisplayWidth.of(text) == width, "\(text.unicodeScalars.map { String($0.value, radix: 16) })")
        }
        // A table's columns line up after such a cell.
        let widths = [DisplayWidth.of("Family 👨\u{200D}👩\u{200D}👧"), 4]
        #expect(TextTable.line(["Family 👨\u{200D}👩\u{200D}👧", "2024"], widths: widths, rightAligned: [])
            == "Family 👨\u{200D}👩\u{200D}👧  2024")
        #expect(TextTable.line(["Plain", "2024"], widths: widths, rightAligned: []) == "Plain      2024")
    }

    @Test func displayWidthAgreesWithWcwidth() {
        var mismatches: [String] = []
        for (index, run) in wcwidthReference.enumerated() where run.width >= 0 {
            let end = index + 1 < wcwidthReference.count ? wcwidthReference[index + 1].first : 0x40000
            for value in run.first..<end {
                guard let scalar = Unicode.Scalar(value) else { continue }
                let width = DisplayWidth.of(scalar)
                if width != run.width { mismatches.append(String(format: "U+%04X: %d, wcwidth %d", value, width, run.width)) }
            }
        }
        #expect(mismatches.count <= 0, "\(mismatches.count) differ, first: \(mismatches.prefix(20))")
    }

    @Test func truncatesByColumnsWithAnEllipsis() {
        #expect(DisplayWidth.of("東京ｶﾀｶﾅe\u{301}") == 4 + 4 + 1)
        #expect(DisplayWidth.truncating("MacBook Pro", toWidth: 8) == "MacBook…")
        #expect(DisplayWidth.truncating("東京タワー", toWidth: 6) == "東京…")  // 4 + 1, a wide char does not straddle
        #expect(DisplayWidth.fitting("東京", toWidth: 6) == "東京  ")
        #expect(DisplayWidth.fitting("42", toWidth: 4, alignRight: true) == "  42")
        #expect(DisplayWidth.truncating("short", toWidth: 10) == "short")
    }

    @Test func stateFileRoundTripsAndADamagedOneIsIgnored() throws {
        let directory = try TemporaryDirectory()
        let url = SavedBrowseState.fileURL(environment: ["XDG_STATE_HOME": directory.path("state"), "HOME": "/nowhere"])
        #expect(url.path == directory.path("state") + "/catalog/browse.json")
        #expect(SavedBrowseState.fileURL(environment: ["XDG_STATE_HOME": "relative", "HOME": "/home/u"]).path
            == "/home/u/.local/state/catalog/browse.json")
        #expect(SavedBrowseState.load(from: url) == .none)

        var state = BrowseState(size: TerminalSize.minimum)
        state.scope = .portable
        state.sort = .price
        state.isReversed = true
        state.field = SearchField("macbook")
        state.selectedID = 8
        try state.saved(databasePath: "/db/a.sqlite").save(to: url)
        guard case .loaded(let saved) = SavedBrowseState.load(from: url) else { Issue.record("not loaded"); return }
        let restored = BrowseState(size: TerminalSize.minimum, saved: saved)
        #expect(restored.scope == .portable && restored.sort == .price && restored.isReversed)
        #expect(restored.field.text == "macbook" && restored.searchedText == "macbook" && restored.selectedID == 8)
        #expect(saved.restored(forDatabase: "/db/other.sqlite").selectedID == nil)

        try Data("{not json".utf8).write(to: url)
        guard case .damaged(let reason) = SavedBrowseState.load(from: url) else { Issue.record("not damaged"); return }
        #expect(reason.contains("damaged") && reason.contains(url.path))
        try Data(#"{"databasePath":"/x","entity":"phones","scope":"desktop","sort":"name","isReversed":false,"searchText":""}"#.utf8).write(to: url)
        #expect(SavedBrowseState.load(from: url) != .none)
        if case .loaded = SavedBrowseState.load(from: url) { Issue.record("a phone scope was accepted") }
    }
}
