import Catalog
import FetchedResults
import Foundation
import SQLiteStore
import TestSupport

@testable import CatalogCLI

/// Drives the browse screen model without a terminal: events in, effects carried out at once against
/// a real SQLite file, and a fake clock (debounce timers fire only when the test says so).
final class ScreenHarness {
    let directory: TemporaryDirectory
    let catalog: CatalogStore
    var state: BrowseState
    private let products: ResultSource<Product>
    private let phones: ResultSource<Phone>
    /// The debounce timers started and not fired yet (the fake clock).
    private(set) var timers: [Int] = []
    /// Every effect the model asked for, in order.
    private(set) var effects: [BrowseEffect] = []
    private(set) var didQuit = false

    init(seeded: Bool = true, size: TerminalSize = TerminalSize(columns: 80, lines: 24), saved: SavedBrowseState? = nil) throws {
        directory = try TemporaryDirectory()
        catalog = try CatalogStore(path: directory.path("catalog.sqlite"))
        if seeded { try catalog.seed(SeedFile.builtIn) }
        products = ResultSource(catalog: catalog)
        phones = ResultSource(catalog: catalog)
        state = BrowseState(size: size, saved: saved)
        run(state.start())
    }

    /// Sends an event and carries out the effects it leads to, and theirs, until none is left.
    func send(_ event: BrowseEvent) {
        run(state.update(event))
    }

    /// Presses keys.
    func press(_ keys: Key...) {
        for key in keys { send(.key(key)) }
    }

    /// Types text one character at a time, as a person does.
    func type(_ text: String) {
        for character in text { send(.key(.text(String(character)))) }
    }

    /// Lets the debounce delay pass: fires every pending timer, oldest first.
    func elapse() {
        let due = timers
        timers = []
        for edit in due { send(.debounceElapsed(edit: edit)) }
    }

    /// The screen as text lines.
    var screen: [String] { state.render().text }

    /// The rows of the list as drawn (lines after the column titles, up to the status line).
    var listText: String { screen[BrowseState.linesAbove..<(screen.count - BrowseState.linesBelow)].joined(separator: "\n") }

    /// Counts the fetches asked for so far.
    var fetchCount: Int { effects.filter { if case .fetch = $0 { true } else { false } }.count }

    private func run(_ initial: [BrowseEffect]) {
        var queue = initial
        while !queue.isEmpty {
            let effect = queue.removeFirst()
            effects.append(effect)
            for event in perform(effect) { queue += state.update(event) }
        }
    }

    private func perform(_ effect: BrowseEffect) -> [BrowseEvent] {
        do {
            switch effect {
            case .startTimer(let edit, _):
                timers.append(edit)
                return []
            case .suggest(let edit, let prefix, let entity):
                return [.completions(edit: edit, try catalog.suggest(prefix: prefix, limit: BrowseState.completionLimit, entity: entity))]
            case .fetch(let order):
                switch order.request.entity {
                case .products:
                    return [.resultArrived(try products.fetch(order))]
                        + (try products.startTracking(window: order.window, selection: order.fallback)).map { [.changesApplied($0)] }.orEmpty
                case .phones:
                    return [.resultArrived(try phones.fetch(order))]
                        + (try phones.startTracking(window: order.window, selection: order.fallback)).map { [.changesApplied($0)] }.orEmpty
                }
            case .loadRows(let stamp, let range):
                let rows = state.entity == .products ? try products.rows(range) : try phones.rows(range)
                return [.rowsLoaded(stamp: stamp, rows: rows)]
            case .applyChanges(let order):
                let arrival = state.entity == .products ? try products.applyChanges(order) : try phones.applyChanges(order)
                return [arrival.map(BrowseEvent.changesApplied) ?? .nothingChanged]
            case .delete(let entity, let id):
                let summary = entity == .products
                    ? try catalog.delete(Product.self, id: id).summary : try catalog.delete(Phone.self, id: id).summary
                return [.deleted(summary)]
            case .quit:
                didQuit = true
                return []
            }
        } catch {
            return [.failed("\(error)")]
        }
    }
}

extension Optional where Wrapped == [BrowseEvent] {
    var orEmpty: [BrowseEvent] { self ?? [] }
}
