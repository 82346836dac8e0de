import AsyncAlgorithms
import Synchronization

/// As-you-type search: results for a stream of search texts, as a search bar's embedder wants them.
///
/// ```swift
/// let pages = SearchPipeline.results(for: searchBar.texts) { query in
///     try queue.read { db in try films.page(query, order: byTitle, limit: 50, selection: columns, db, decode: Film.init) }
/// }
/// for try await page in pages { show(page.records, total: page.totalCount) }
/// ```
///
/// - Texts are debounced (`debounce`, 200 ms by default: a text is searched once typing pauses that
///   long) and a text whose folded terms are those of the text before it is dropped (`mac ` after
///   `mac`, `MAC` after `mac`).
/// - Stale queries are cancelled: a text that a newer one replaces before its search starts is never
///   searched, and the result of a search that a newer text overtook while it ran is dropped.
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
    ///   - search: runs one query.
    public static func results<Texts: AsyncSequence & Sendable, Result: Sendable>(
        for texts: Texts, debounce: Duration = .milliseconds(200),
        isSame: @escaping @Sendable (Result, Result) -> Bool,
        search: @escaping @Sendable (SearchQuery) throws -> Result
    ) -> AsyncThrowingStream<Result, any Error> where Texts.Element == String {
        let (pending, pendingInput) = AsyncThrowingStream.makeStream(of: SearchQuery.self, bufferingPolicy: .bufferingNewest(1))
        let (output, outputInput) = AsyncThrowingStream.makeStream(of: Result.self)
        let generation = QueryGeneration()
        let producer = Task {
            do {
                let queries = texts.debounce(for: debounce).map { SearchQuery($0) }
                    .removeDuplicates { $0.foldedTerms == $1.foldedTerms }
                for try await query in queries {
                    generation.value.add(1, ordering: .sequentiallyConsistent)
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
                    let result = try search(query)
                    guard generation.value.load(ordering: .sequentiallyConsistent) == started else { continue }
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
