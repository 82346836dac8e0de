import Catalog
import PostgreSQLStore
import Dispatch
import SQLiteStore
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Runs the browse screen on the terminal: feeds keys, resizes, timers, commits and the answers of
/// effects into ``BrowseState/update(_:)``, performs the effects it returns, and draws
/// ``BrowseState/render()`` after each change. Everything it does not own (what to show, what to
/// fetch) is the screen model's.
struct BrowseDriver {
    let catalog: CatalogStore
    let terminal: TerminalSession

    /// Runs until a quit key, SIGINT, SIGTERM or the end of input; returns the last state.
    func run(_ initial: BrowseState) async throws -> BrowseState {
        let (events, sink) = AsyncStream.makeStream(of: BrowseEvent.self)
        let worker = BrowseWorker(catalog: catalog)

        let keys = try KeyReader()
        keys.start { batch in
            for key in batch ?? [.control("q")] { sink.yield(.key(key)) }
        }
        defer { keys.stop() }

        // SIGWINCH redraws at the new size; SIGINT and SIGTERM quit (the terminal is restored on the way out).
        let signals = SignalHandlers([SIGWINCH, SIGINT, SIGTERM]) { number in
            sink.yield(number == SIGWINCH ? .resize(TerminalSize.current) : .key(.control("c")))
        }
        defer { withExtendedLifetime(signals) {} }

        // Commits from any process: the monitor (a file's) or the server's notifications wake the
        // screen, which then asks for the change set.
        let file = catalog.file
        let monitor = file.flatMap { try? ChangeMonitor(path: $0.path) }
        if let monitor, let file { try? monitor.observeCommits(of: file) }
        let server = ServerCommits(catalog.writer as? PostgreSQLCluster)
        let isOnServer = file == nil
        let watcher = Task {
            if let monitor {
                for await _ in monitor.changes() { sink.yield(.commitNoticed) }
            } else if isOnServer {
                do { for try await _ in server.wakeUps() { sink.yield(.commitNoticed) } } catch {}
            }
        }
        defer {
            watcher.cancel()
            monitor?.stop()
            server.stop()
        }

        var iterator = events.makeAsyncIterator()
        var state = initial
        var pending = state.start()
        terminal.draw(state.render())
        while true {
            if pending.contains(.quit) { break }
            for effect in pending { perform(effect, worker, sink) }
            guard let event = await iterator.next() else { break }
            if case .resize = event { terminal.invalidate() }
            let before = state
            pending = state.update(event)
            if state != before { terminal.draw(state.render()) }
        }
        return state
    }

    /// Starts the work of an effect; its outcome comes back through `sink`.
    private func perform(_ effect: BrowseEffect, _ worker: BrowseWorker, _ sink: AsyncStream<BrowseEvent>.Continuation) {
        switch effect {
        case .startTimer(let edit, let delay):
            Task {
                try await Task.sleep(for: delay)
                sink.yield(.debounceElapsed(edit: edit))
            }
        case .suggest(let edit, let prefix, let entity):
            let catalog = catalog
            Task {
                // On a reader connection, off the cooperative pool's threads.
                let names = (try? await catalog.suggest(prefix: prefix, limit: BrowseState.completionLimit, entity: entity)) ?? []
                sink.yield(.completions(edit: edit, names))
            }
        case .fetch(let order):
            // Cancels the fetch still running: its statement is interrupted, and it answers nothing.
            worker.fetch(order) { events in
                for event in events { sink.yield(event) }
            }
        case .loadRows(let stamp, let range):
            Task {
                for event in await worker.rows(stamp: stamp, range: range) { sink.yield(event) }
            }
        case .applyChanges(let order):
            Task {
                for event in await worker.applyChanges(order) { sink.yield(event) }
            }
        case .delete(let entity, let id):
            Task {
                for event in await worker.delete(entity: entity, id: id) { sink.yield(event) }
            }
        case .quit:
            break
        }
    }
}

extension TerminalSize {
    /// The size of the terminal on standard output.
    static var current: TerminalSize {
        var window = winsize()
        guard ioctl(STDOUT_FILENO, UInt(TIOCGWINSZ), &window) == 0, window.ws_col > 0, window.ws_row > 0 else {
            return .minimum
        }
        return TerminalSize(columns: Int(window.ws_col), lines: Int(window.ws_row))
    }
}
