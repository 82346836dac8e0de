import Catalog
import Foundation
import Testing

/// The as-you-type pipeline: debounce, repeats dropped, only changed results emitted.
@Suite(.timeLimit(.minutes(10)))  // generous: a loaded machine can starve the cooperative pool for minutes
struct SearchPipelineTests {
    @Test func typingEmitsOnePagePerPauseAndOnlyNewResults() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("search-pipe-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = try CatalogStore(path: directory.appendingPathComponent("catalog.sqlite").path)
        try store.seed(SeedFile.builtIn)

        let (texts, typing) = AsyncStream.makeStream(of: String.self)
        let pages = store.searchResults(for: texts, in: ListRequest<Product>(), debounce: .milliseconds(50))
        var iterator = pages.makeAsyncIterator()
        var seen: [(text: String, names: [String])] = []
        // Each burst is typed at once, then the test waits for its answer (a loaded machine may take
        // seconds): "mac " repeats "mac" (never searched), and "macbook" finds what "macboo" found
        // (searched or not, never emitted).
        let bursts: [(texts: [String], answer: [String])] = [
            (["m", "ma", "mac"], ["iMac", "Mac Pro", "MacBook Air", "MacBook Pro"]),
            (["mac ", "macb", "macbo", "macboo"], ["MacBook Air", "MacBook Pro"]),
            (["macbook", "ipod"], ["iPod", "iPod touch"]),
        ]
        for burst in bursts {
            for text in burst.texts { typing.yield(text) }
            while let page = try await iterator.next() {
                seen.append((page.query.text, page.records.map(\.name)))
                if page.records.map(\.name) == burst.answer { break }
            }
        }
        typing.finish()
        while let page = try await iterator.next() { seen.append((page.query.text, page.records.map(\.name))) }
        // Texts typed within one burst are debounced into its last one, unless the machine pauses
        // longer than the debounce between two of them; an answer equal to the one before is not emitted.
        #expect(zip(seen, seen.dropFirst()).allSatisfy { $0.names != $1.names }, "\(seen)")
        #expect(!seen.contains { ["mac ", "macbook"].contains($0.text) }, "\(seen)")
        #expect(seen.map(\.names).filter { names in bursts.contains { $0.answer == names } } == bursts.map(\.answer), "\(seen)")
        #expect(seen.last?.text == "ipod")
    }

    @Test func suggestionsCompleteAFoldedPrefix() throws {
        let store = try CatalogStore.inMemory()
        try store.seed(SeedFile.builtIn)
        #expect(try store.suggest(prefix: "mac") == ["Mac Pro", "MacBook Air", "MacBook Pro"])
        #expect(try store.suggest(prefix: "  ＭＡＣＢ", limit: 1) == ["MacBook Air"])
        #expect(try store.suggest(prefix: "\"*'") == [])
        #expect(try store.suggest(prefix: "", limit: 2) == ["iMac", "iPad"])
    }
}
