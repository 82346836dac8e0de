import Catalog
import FetchedResults

/// The browse screen without a terminal: the screen model fed with scripted events, its effects
/// carried out at once, in order, against the database, and a fake clock (the debounce timer fires
/// when ``elapse()`` says so). The tests and the browse benchmark drive the screen through it.
///
/// As in the terminal driver, a fetch answers first and tracking starts afterwards (it reads the ids
/// of the whole result, unless the fetch read them): ``settle()`` does that part, and ``send(_:)`` calls it unless told not to, so
/// a benchmark can time the answer drawn on screen apart from the tracking that follows.
@_spi(Benchmarks) public final class ScriptedBrowse {
    let catalog: CatalogStore
    var state: BrowseState
    /// A result source per entity.
    private let sources: [EntityKind: any EntityResultSource]
    /// The debounce timers started and not fired yet: the fake clock.
    private(set) var timers: [Int] = []
    /// Fetches answered whose tracking has not started yet.
    private var untracked: [FetchOrder] = []
    /// Every effect the model asked for, in order.
    private(set) var effects: [BrowseEffect] = []
    /// Whether the model asked to quit.
    private(set) var didQuit = false
    /// Where the time went since the screen started, by part (set it to `BrowseTimes()` to start over).
    public var times = BrowseTimes()

    /// A screen of `size` on `catalog`, started: the first fetch answered (and tracked unless
    /// `tracking` is false).
    init(catalog: CatalogStore, size: TerminalSize, saved: SavedBrowseState? = nil, tracking: Bool = true) {
        self.catalog = catalog
        sources = EntityKind.resultSources(catalog)
        state = BrowseState(size: size, saved: saved)
        run(state.start(), tracking: tracking)
    }

    /// Opens the catalog at `databasePath` and shows products by name on a `columns`×`lines` screen:
    /// the first screen is drawn when this returns (tracking not started yet: see ``settle()``).
    public convenience init(databasePath: String, columns: Int = 80, lines: Int = 24) throws {
        self.init(catalog: try CatalogStore(path: databasePath), size: TerminalSize(columns: columns, lines: lines), tracking: false)
    }

    /// The screen as text lines.
    public var screen: [String] { state.render().text }

    /// Types text one key per character; only timers start (see ``elapse()``).
    public func type(_ text: String, tracking: Bool = true) {
        for character in text { send(.key(.text(String(character))), tracking: tracking) }
    }

    /// Empties the search field (Ctrl-U) and lets the search of the empty text run.
    public func clearField(tracking: Bool = true) {
        send(.key(.control("u")), tracking: tracking)
        elapse(tracking: tracking)
    }

    /// Lets the debounce delay pass: fires every pending timer, oldest first, and carries out the
    /// search the last one starts.
    public func elapse(tracking: Bool = true) {
        let due = timers
        timers = []
        for edit in due { send(.debounceElapsed(edit: edit), tracking: tracking) }
    }

    /// Starts tracking the fetches answered so far, as the terminal driver does after drawing.
    public func settle() {
        while !untracked.isEmpty {
            let order = untracked.removeFirst()
            // A newer fetch replaced this one's controller: nothing to track.
            guard untracked.isEmpty else { continue }
            let start = ContinuousClock.now
            let event: BrowseEvent?
            do {
                let arrival = try sources[order.request.entity]!.startTracking(window: order.window, selection: order.fallback)
                event = arrival.map(BrowseEvent.changesApplied)
            } catch {
                event = .failed("error: " + explain(error).0)
            }
            times.tracking += ContinuousClock.now - start
            if let event { send(event, tracking: false) }
        }
    }

    /// Sends an event and carries out the effects it leads to, and theirs, until none is left.
    func send(_ event: BrowseEvent, tracking: Bool = true) {
        run(update(event), tracking: tracking)
    }

    private func run(_ initial: [BrowseEffect], tracking: Bool) {
        var queue = initial
        while !queue.isEmpty {
            let effect = queue.removeFirst()
            effects.append(effect)
            let start = ContinuousClock.now
            let events = perform(effect)
            add(ContinuousClock.now - start, for: effect)
            for event in events { queue += update(event) }
        }
        if tracking { settle() }
    }

    /// The model's update, timed.
    private func update(_ event: BrowseEvent) -> [BrowseEffect] {
        let start = ContinuousClock.now
        defer { times.model += ContinuousClock.now - start }
        return state.update(event)
    }

    /// Adds the time an effect took to its part of ``times``.
    private func add(_ duration: Duration, for effect: BrowseEffect) {
        switch effect {
        case .suggest: times.suggestions += duration
        case .fetch(let order):
            let controllerFetch = sources[order.request.entity]!.lastControllerFetch
            times.controllerFetch += controllerFetch
            times.rows += duration - controllerFetch
        case .loadRows: times.rows += duration
        case .applyChanges: times.tracking += duration
        case .startTimer, .delete, .quit: break  // no reading: starting a timer, or not part of a search
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
                untracked.append(order)
                return [.resultArrived(try sources[order.request.entity]!.fetch(order))]
            case .loadRows(let stamp, let range):
                return [.rowsLoaded(stamp: stamp, rows: try sources[state.entity]!.rows(range))]
            case .applyChanges(let order):
                return [try sources[state.entity]!.applyChanges(order).map(BrowseEvent.changesApplied) ?? .nothingChanged]
            case .delete(let entity, let id):
                return [.deleted(try catalog.deleteEntity(of: entity, id: id))]
            case .quit:
                didQuit = true
                return []
            }
        } catch {
            return [.failed("error: " + explain(error).0)]
        }
    }
}

@available(*, unavailable, message: "It holds controllers, which are used from one task at a time.")
extension ScriptedBrowse: Sendable {}
