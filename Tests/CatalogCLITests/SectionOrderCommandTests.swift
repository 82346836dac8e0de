import Foundation
import TestSupport
import Testing

/// Sections by maker are in the order the Commands article gives lists: makers ignoring case and diacritics
/// (folded), spellings that fold alike next to each other by their UTF-8 bytes; each section is one
/// maker as spelled.
struct SectionOrderCommandTests {
    /// Makers that sort differently by their bytes than folded: capitals before lowercase, a letter
    /// with a diacritic after `z`.
    let makers = ["Zeta", "apple", "Nokia", "Apple", "Äpple", "banana", "Éclair", "eclair", "Banana"]

    /// A catalog of `engine` with a phone of each of ``makers``.
    private func workspace(_ engine: StoreEngine) throws -> Workspace {
        let workspace = try Workspace(engine: engine)
        let lines = makers.enumerated().map { index, maker in
            #"{"name":"Phone \#(index)","maker":"\#(maker)","yearReleased":2020,"operatingSystem":"Android","screenInches":6.1}"#
        }
        let imported = try workspace.catalog(
            ["import", "-", "--format", "jsonl", "--entity", "phones"], input: lines.joined(separator: "\n") + "\n")
        #expect(imported.status == 0, "\(imported)")
        return workspace
    }

    /// The makers in the Commands article's order, from its words: folded text (the independent reference
    /// folding), then the spelling, both compared by UTF-8 bytes as SQLite's BINARY collation does.
    private func readmeOrder(_ makers: [String]) throws -> [String] {
        let folded = Dictionary(uniqueKeysWithValues: zip(makers, try FoldingReference.fold(makers)))
        return makers.sorted { a, b in
            let (foldedA, foldedB) = (Array(folded[a]!.utf8), Array(folded[b]!.utf8))
            if foldedA != foldedB { return foldedA.lexicographicallyPrecedes(foldedB) }
            return Array(a.utf8).lexicographicallyPrecedes(Array(b.utf8))
        }
    }

    /// The section names `list` prints as JSON with `arguments`.
    private func sectionNames(_ arguments: [String], _ workspace: Workspace) throws -> [String] {
        let result = try workspace.catalog(["list", "phones", "--json"] + arguments)
        #expect(result.status == 0, "\(result)")
        let json = try #require(try JSONSerialization.jsonObject(with: Data(result.output.utf8)) as? [String: Any])
        let sections = try #require(json["sections"] as? [[String: Any]])
        return sections.compactMap { $0["name"] as? String }
    }

    @Test(arguments: StoreEngine.all) func makerSectionsAreInFoldedOrder(engine: StoreEngine) throws {
        let workspace = try workspace(engine)
        let expected = try readmeOrder(makers)
        #expect(expected.prefix(3) == ["Apple", "apple", "Äpple"], "the reference itself: \(expected)")
        #expect(try sectionNames(["--sort", "maker"], workspace) == expected)
        #expect(try sectionNames(["--sort", "maker", "--reverse"], workspace) == expected.reversed())
    }

    /// Index paths follow the same order: `show` resolves a path in the maker-sorted list.
    @Test(arguments: StoreEngine.all) func showResolvesAPathInTheMakerSections(engine: StoreEngine) throws {
        let workspace = try workspace(engine)
        let expected = try readmeOrder(makers)
        let shown = try workspace.catalog("show", "1.0", "--entity", "phones", "--sort", "maker", "--format", "jsonl")
        #expect(shown.status == 0, "\(shown)")
        #expect(shown.output.contains(#""maker":"\#(expected[1])""#), "\(shown)")
    }

    /// A new maker's section goes where that order puts it while `watch` runs (the live
    /// change set places it by the same key as the fetch).
    @Test(arguments: StoreEngine.all) func watchInsertsANewMakerSectionInFoldedOrder(engine: StoreEngine) throws {
        let workspace = try workspace(engine)
        let watch = try RunningProcess("catalog", ["watch", "phones", "--sort", "maker", "--json", "--database", workspace.database])
        let first = try #require(watch.nextLine(), "watch printed nothing in time")
        #expect(first.contains(#""state":"results""#), "\(first)")
        let added = try workspace.catalog(
            "add", "phone", "--name", "New", "--maker", "aPPLE", "--year", "2024", "--os", "Android", "--screen", "6")
        #expect(added.status == 0, "\(added)")
        let index = try #require(try readmeOrder(makers + ["aPPLE"]).firstIndex(of: "aPPLE"))
        #expect(index == 1, "between Apple and apple by their bytes")
        let line = try #require(watch.nextLine(), "no change set")
        let change = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        let inserted = change["insertedSections"] as? [[String: Any]] ?? []
        #expect(inserted.map { $0["index"] as? Int } == [index] && inserted.map { $0["name"] as? String } == ["aPPLE"], "\(line)")
        #expect((change["changes"] as? [[String: Any]])?.map { $0["path"] as? String } == ["\(index).0"], "\(line)")
        let (status, error) = try watch.stop()
        #expect(status == 0 && error.isEmpty)
    }
}
