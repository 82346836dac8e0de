import Catalog
import Dispatch
import SQLiteStore
import Synchronization
import TestSupport
import Testing

@_spi(Benchmarks) @testable import CatalogCLI

/// The browse screen's worker: a fetch that a newer one replaces is cancelled, not waited for.
@Suite(.timeLimit(.minutes(10)))  // generous: a loaded machine can starve the cooperative pool for minutes
struct BrowseWorkerTests {
    static func order(_ version: Int, searching text: String) -> FetchOrder {
        FetchOrder(version: version, request: ListChoice(entity: .products, searchText: text), follow: nil, fallback: 0, window: 10)
    }

    /// Every reader of the pool is held busy, so the first fetch cannot read: it ends (answering
    /// nothing) as soon as the second is asked for, while the readers are still busy; the second
    /// answers once they are free.
    @Test func aFetchReplacedByANewerOneIsCancelled() async throws {
        let directory = try TemporaryDirectory()
        let catalog = try CatalogStore(path: directory.path("catalog.sqlite"))
        try catalog.seed(SeedFile.builtIn)
        let gate = DispatchSemaphore(value: 0)
        let (busy, readerBusy) = AsyncStream.makeStream(of: Void.self)
        let blockers = (0..<DatabasePool.defaultMaximumReaderCount).map { _ in
            Task {
                try await catalog.file!.read { _ in
                    readerBusy.yield()
                    gate.wait()
                }
            }
        }
        var busyReaders = 0
        for await _ in busy {
            busyReaders += 1
            if busyReaders == blockers.count { break }
        }

        let worker = BrowseWorker(catalog: catalog)
        let answers = Mutex<[Int: [BrowseEvent]]>([:])
        let first = worker.fetch(Self.order(1, searching: "mac")) { events in answers.withLock { $0[1, default: []] += events } }
        let second = worker.fetch(Self.order(2, searching: "ipod")) { events in answers.withLock { $0[2, default: []] += events } }
        await first.value
        #expect(answers.withLock { $0[1] ?? [] } == [])

        for _ in blockers { gate.signal() }
        for blocker in blockers { try await blocker.value }
        await second.value
        let events = answers.withLock { $0[2] ?? [] }
        guard case .resultArrived(let arrival) = events.first else {
            Issue.record("the second fetch answered \(events)")
            return
        }
        #expect(arrival.version == 2)
        #expect(arrival.rows.keys.sorted().compactMap { arrival.rows[$0]?.cells.first } == ["iPod", "iPod touch"])
    }

    /// The benchmark's driver's path: each search answers, and the search before it (its tracking)
    /// has ended by the time it returns.
    @Test func scriptedSearchesAnswerAndEndTheSearchBefore() async throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("catalog.sqlite")
        try CatalogStore(path: path).seed(SeedFile.builtIn)
        let worker = try ScriptedWorker(databasePath: path)
        let first = await worker.search("mac")
        #expect(first.answered != nil && first.previousEnded == nil)
        for text in ["", "ipod", "xyz"] {
            let timing = await worker.search(text)
            #expect(timing.answered != nil && timing.previousEnded != nil, "searching \(text)")
        }
        await worker.settle()
    }
}
