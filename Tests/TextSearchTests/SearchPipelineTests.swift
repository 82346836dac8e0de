import Synchronization
import Testing
import TextSearch

/// ``SearchPipeline``: repeats are told by folded terms.
struct SearchPipelineTests {
    /// `mac`, `mac `, `MAC`, `ｍａｃ` are one query: never searched twice in a row.
    @Test func textsWithTheSameFoldedTermsAreSearchedOnce() async throws {
        let typed = ["mac", "mac ", "MAC", " ｍａｃ", "mac pro", "mac  pro", "MAC PRO"]
        let texts = AsyncStream<String> { continuation in
            Task {
                for text in typed {
                    continuation.yield(text)
                    try? await Task.sleep(for: .milliseconds(40))
                }
                continuation.finish()
            }
        }
        let searched = Mutex<[SearchQuery]>([])
        let results = SearchPipeline.results(for: texts, debounce: .milliseconds(5), isSame: { _, _ in false }) { query in
            searched.withLock { $0.append(query) }
            return query.foldedTerms
        }
        var emitted: [[String]] = []
        for try await result in results { emitted.append(result) }
        let queries = searched.withLock { $0 }
        #expect(zip(queries, queries.dropFirst()).allSatisfy { $0.foldedTerms != $1.foldedTerms }, "\(queries)")
        #expect(queries.count <= 2, "\(queries)")
        #expect(emitted.last == ["mac", "pro"])
    }
}
