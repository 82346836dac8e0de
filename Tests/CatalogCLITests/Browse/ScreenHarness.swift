import Catalog
import FetchedResults
import Foundation
import SQLiteStore
import TestSupport

@_spi(Benchmarks) @testable import CatalogCLI

/// ``ScriptedBrowse`` on a fresh database file (seeded with the built-in records unless told not to),
/// with the helpers the screen tests use.
final class ScreenHarness {
    let directory: TemporaryDirectory
    let catalog: CatalogStore
    let scripted: ScriptedBrowse

    init(seeded: Bool = true, size: TerminalSize = TerminalSize(columns: 80, lines: 24), saved: SavedBrowseState? = nil) throws {
        directory = try TemporaryDirectory()
        catalog = try CatalogStore(path: directory.path("catalog.sqlite"))
        if seeded { try catalog.seed(SeedFile.builtIn) }
        scripted = ScriptedBrowse(catalog: catalog, size: size, saved: saved)
    }

    var state: BrowseState {
        get { scripted.state }
        set { scripted.state = newValue }
    }

    var didQuit: Bool { scripted.didQuit }

    func send(_ event: BrowseEvent) { scripted.send(event) }

    func press(_ keys: Key...) {
        for key in keys { scripted.send(.key(key)) }
    }

    func type(_ text: String) { scripted.type(text) }

    func elapse() { scripted.elapse() }

    /// The screen as text lines.
    var screen: [String] { scripted.screen }

    /// The list area as drawn (lines after the column titles, up to the status line).
    var listText: String { screen[BrowseState.linesAbove..<(screen.count - BrowseState.linesBelow)].joined(separator: "\n") }

    /// The fetches asked for so far.
    var fetchCount: Int { scripted.effects.filter { if case .fetch = $0 { true } else { false } }.count }
}
