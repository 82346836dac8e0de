import Catalog

/// The browse screen's worker driven as the terminal driver drives it, with scripted searches: each
/// fetch in a task of its own on the pool's readers, followed by the tracking of its result, and
/// cancelled, tracking included, by the next search. The browse benchmark times through it what a
/// keystroke costs on the driver's path, and whether a tracking read still running delays the next
/// search.
@_spi(Benchmarks) public final class ScriptedWorker {
    /// How long a search took, and how long the search before it took to end once cancelled.
    public struct Timing: Sendable {
        /// From asking for the search until its result arrived (nil when it failed).
        public var answered: Duration?
        /// From asking for the search until the task of the search before it ended (its fetch or the
        /// tracking that followed it, cancelled: its running statement interrupted); nil for the first.
        public var previousEnded: Duration?
    }

    private let worker: BrowseWorker
    /// How many rows on each side of the selection a fetch reads (a screenful).
    private let window: Int
    private var version = 0
    /// The task of the last search: its fetch, then its tracking.
    private var running: Task<Void, Never>?

    /// A worker on the catalog at `databasePath`, fetching for a screen of `lines` lines.
    public init(databasePath: String, lines: Int = 24) throws {
        worker = BrowseWorker(catalog: try CatalogStore(path: databasePath))
        window = BrowseState(size: TerminalSize(columns: TerminalSize.minimum.columns, lines: lines)).listHeight + 1
    }

    /// Searches products for `text` as the driver does once the debounce delay is over, cancelling
    /// the search before; returns once the result has arrived and the search before has ended. Its
    /// tracking then starts in the background, as it does after the driver draws.
    public func search(_ text: String) async -> Timing {
        version += 1
        let order = FetchOrder(
            version: version, request: ListChoice(entity: .products, searchText: text), follow: nil, fallback: 0, window: window)
        let (events, sink) = AsyncStream.makeStream(of: BrowseEvent.self)
        let previous = running
        let start = ContinuousClock.now
        running = worker.fetch(order) { answers in
            for answer in answers { sink.yield(answer) }
        }
        let previousEnded = Task { () -> Duration? in
            guard let previous else { return nil }
            await previous.value
            return ContinuousClock.now - start
        }
        var answered: Duration?
        for await event in events {
            if case .resultArrived = event { answered = ContinuousClock.now - start }
            break
        }
        return Timing(answered: answered, previousEnded: await previousEnded.value)
    }

    /// Waits until the last search's tracking has ended.
    public func settle() async {
        await running?.value
    }
}

@available(*, unavailable, message: "It holds the task of the last search, which each search replaces.")
extension ScriptedWorker: Sendable {}
