import AsyncAlgorithms
import Synchronization

extension CatalogStore {
    /// As-you-type search: pages of results for a stream of search texts, as a search bar's embedder
    /// wants them.
    ///
    /// ```swift
    /// for try await page in store.searchResults(for: searchBar.texts, Product.self, in: ListRequest(scope: .portable)) {
    ///     show(page.records, total: page.totalCount)
    /// }
    /// ```
    ///
    /// - Texts are debounced (`debounce`, 200 ms by default: a text is searched once typing pauses that
    ///   long) and repeats of the same parsed query are dropped (`"mac "` after `"mac"`).
    /// - Stale queries are cancelled: a text that a newer one replaces before its search starts is never
    ///   searched, and the page of a search that a newer text overtook while it ran is dropped.
    /// - A page is emitted only when its records or total differ from the last page emitted.
    ///
    /// The sequence ends when `texts` ends, and throws the first error of `texts` or of a search.
    ///
    /// - Parameters:
    ///   - texts: the search field's successive texts.
    ///   - type: the record type searched, which must be `request.entity`'s.
    ///   - request: the scope and sort; its `searchText` is replaced by each text.
    ///   - limit: the page size.
    ///   - debounce: how long typing must pause before a text is searched.
    public func searchResults<Texts: AsyncSequence & Sendable, Record: CatalogRecord>(
        for texts: Texts, _ type: Record.Type, in request: ListRequest, limit: Int = 50,
        debounce: Duration = .milliseconds(200)
    ) -> AsyncThrowingStream<SearchPage<Record>, any Error> where Texts.Element == String {
        let (pending, pendingInput) = AsyncThrowingStream.makeStream(of: SearchQuery.self, bufferingPolicy: .bufferingNewest(1))
        let (output, outputInput) = AsyncThrowingStream.makeStream(of: SearchPage<Record>.self)
        let generation = QueryGeneration()
        let producer = Task {
            do {
                let queries = texts.debounce(for: debounce).map { SearchQuery($0) }.removeDuplicates()
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
            var last: SearchPage<Record>?
            do {
                for try await query in pending {
                    let started = generation.value.load(ordering: .sequentiallyConsistent)
                    try Task.checkCancellation()
                    var searched = request
                    searched.searchText = query.text
                    let page = try self.searchPage(Record.self, searched, limit: limit)
                    guard generation.value.load(ordering: .sequentiallyConsistent) == started else { continue }
                    if let last, last.hasSameResults(as: page) { continue }
                    last = page
                    outputInput.yield(page)
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
