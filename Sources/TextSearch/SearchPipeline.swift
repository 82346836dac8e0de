import AsyncAlgorithms
import Synchronization

/// As-you-type search: results for a stream of search texts, as a search bar's embedder wants them.
///
/// ```swift
/// let pages = SearchPipeline.results(for: searchBar.texts) { query in
///     try await pool.read { db in try films.page(query, order: byTitle, limit: 50, selection: columns, db, decode: Film.init) }
/// }
/// for try await page in pages { show(page.records, total: page.totalCount) }
/// ```
///
/// - Texts are debounced (`debounce`, 200 ms by default: a text is searched once typing pauses that
///   long) and a text whose folded terms are those of the text before it is dropped (`mac ` after
///   `mac`, `MAC` after `mac`).
/// - Stale queries are cancelled: a text that a newer one replaces before its search starts is never
///   searched, and a search that a newer text overtakes while it runs is cancelled (the task running
///   it is; an `async` read of a `DatabasePool` or `DatabaseQueue` then interrupts its statement) and
///   what it returns or throws is dropped. Typing never waits for a query nobody wants.
/// - A result is emitted only when `isSame` says it differs from the last one emitted.
///
/// The sequence ends when `texts` ends, and throws the first error of `texts` or of a search.
public enum SearchPipeline {
    /// The results of `search` for each text worth searching among `texts`.
    ///
    /// - Parameters:
    ///   - texts: the search field's successive texts.
    ///   - debounce: how long typing must pause before a text is searched.
    ///   - isSame: whether two results show the same thing (then the second is not emitted).
    ///   - search: runs one query, in a task of its own that is cancelled when a newer query
    ///     overtakes it (what it returns or throws then is dropped).
    public static func results<Texts: AsyncSequence & Sendable, Result: Sendable>(
        for texts: Texts, debounce: Duration = .milliseconds(200),
        isSame: @escaping @Sendable (Result, Result) -> Bool,
        search: @escaping @Sendable (SearchQuery) async throws -> Result
    ) -> AsyncThrowingStream<Result, any Error> where Texts.Element == String {
        let (pending, pendingInput) = AsyncThrowingStream.makeStream(of: SearchQuery.self, bufferingPolicy: .bufferingNewest(1))
        let (output, outputInput) = AsyncThrowingStream.makeStream(of: Result.self)
        let generation = QueryGeneration()
        let running = RunningSearch<Result>()
        let producer = Task {
            do {
                let queries = texts.debounce(for: debounce).map { SearchQuery($0) }
                    .removeDuplicates { $0.foldedTerms == $1.foldedTerms }
                for try await query in queries {
                    generation.value.add(1, ordering: .sequentiallyConsistent)
                    running.cancel()
                    pendingInput.yield(query)
                }
                pendingInput.finish()
            } catch {
                pendingInput.finish(throwing: error)
            }
        }
        let consumer = Task {
            var last: Result?
            do {
                for try await query in pending {
                    let started = generation.value.load(ordering: .sequentiallyConsistent)
                    try Task.checkCancellation()
                    let task = Task { try await search(query) }
                    running.start(task)
                    // A query that came after `started` was read but before the task was stored.
                    if generation.value.load(ordering: .sequentiallyConsistent) != started { task.cancel() }
                    let outcome = await withTaskCancellationHandler {
                        await task.result
                    } onCancel: {
                        task.cancel()
                    }
                    try Task.checkCancellation()
                    // Overtaken: whatever it returned or threw (`CancellationError`, mostly) is stale.
                    guard generation.value.load(ordering: .sequentiallyConsistent) == started else { continue }
                    let result = try outcome.get()
                    if let last, isSame(last, result) { continue }
                    last = result
                    outputInput.yield(result)
                }
                outputInput.finish()
            } catch {
                outputInput.finish(throwing: error)
            }
        }
        outputInput.onTermination = { _ in
            producer.cancel()
            consumer.cancel()
        }
        return output
    }
}

/// How many queries the debounced texts have produced: a search whose count changed while it ran was
/// overtaken by a newer query.
private final class QueryGeneration: Sendable {
    let value = Atomic<Int>(0)
}

/// The task of the search running now: cancelled when a newer query arrives.
private final class RunningSearch<Success: Sendable>: Sendable {
    private let task = Mutex<Task<Success, any Error>?>(nil)

    func start(_ search: Task<Success, any Error>) { task.withLock { $0 = search } }

    func cancel() { task.withLock { $0?.cancel() } }
}
