import SQLiteStore
import Synchronization
import Testing
import TextSearch

/// ``SearchPipeline``: repeats are told by folded terms; a search overtaken by a newer text is cancelled.
@Suite(.timeLimit(.minutes(10)))  // generous: a loaded machine can starve the cooperative pool for minutes
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

    /// Types `slow`, waits until its search has started, types `fast`, and returns what the pipeline
    /// emits: each search calls `started` once it runs.
    static func emittedWhenFastOvertakesSlow(
        _ search: @escaping @Sendable (_ query: SearchQuery, _ started: @escaping @Sendable () -> Void) async throws -> String
    ) async throws -> [String] {
        let (texts, typing) = AsyncStream.makeStream(of: String.self)
        let (started, searchStarted) = AsyncStream.makeStream(of: String.self)
        let results = SearchPipeline.results(for: texts, debounce: .milliseconds(5), isSame: { $0 == $1 }) { query in
            try await search(query) { searchStarted.yield(query.text) }
        }
        typing.yield("slow")
        for await text in started where text == "slow" { break }
        typing.yield("fast")
        typing.finish()
        var emitted: [String] = []
        for try await result in results { emitted.append(result) }
        return emitted
    }

    /// A search that a newer text overtakes is cancelled, not waited for: the slow search here would
    /// sleep an hour, and the pipeline ends as soon as the fast one is done.
    @Test func aSearchOvertakenByANewerTextIsCancelled() async throws {
        let cancelled = Mutex<[String]>([])
        let emitted = try await Self.emittedWhenFastOvertakesSlow { query, started in
            started()
            guard query.text == "slow" else { return query.text }
            do {
                try await Task.sleep(for: .seconds(3600))
            } catch {
                cancelled.withLock { $0.append(query.text) }
                throw error
            }
            return query.text
        }
        #expect(emitted == ["fast"])
        #expect(cancelled.withLock { $0 } == ["slow"])
    }

    /// The statement of an overtaken search is interrupted: the slow search here never ends on its own
    /// (an endless recursive query), and the fast one waits for the same connection.
    @Test func theStatementOfAnOvertakenSearchIsInterrupted() async throws {
        let queue = try DatabaseQueue.inMemory()
        let endless = "WITH RECURSIVE n(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM n) SELECT count(*) FROM n"
        let failures = Mutex<[String]>([])
        let emitted = try await Self.emittedWhenFastOvertakesSlow { query, started in
            do {
                return try await queue.read { db in
                    started()
                    let sql = query.text == "slow" ? endless : "SELECT 1"
                    return "\(query.text): \(try db.scalar(Int.self, sql: sql) ?? 0)"
                }
            } catch {
                failures.withLock { $0.append("\(query.text): \(error is CancellationError ? "cancelled" : "\(error)")") }
                throw error
            }
        }
        #expect(emitted == ["fast: 1"])
        #expect(failures.withLock { $0 } == ["slow: cancelled"])
    }
}
