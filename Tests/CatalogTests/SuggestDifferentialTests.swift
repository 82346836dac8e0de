import Catalog
import Foundation
import TestSupport
import Testing

/// `suggest` against its definition on random catalogs of both engines: the names whose folded form
/// (by the independent ``FoldingReference``) starts with the folded prefix (leading white space
/// dropped), by folded name (its UTF-8 bytes) then id, the first `limit`. Seeded, so a failure
/// prints a case that reruns the same way.
struct SuggestDifferentialTests {
    static let seed: UInt64 = 0x5E6_6E57
    static let rounds = 40
    static let prefixesPerRound = 12

    @Test(arguments: StoreEngine.all) func suggestionsEqualTheReference(engine: StoreEngine) throws {
        let test = try engine.makeStore()
        let store = try CatalogStore(writer: test.writer)
        var random = SplitMix64(seed: Self.seed)
        var failures = 0
        for round in 0..<Self.rounds where failures == 0 {
            try RandomCatalog.mutate(store, &random)
            let products = try store.fetchAll(Product.self)
            let phones = try store.fetchAll(Phone.self)
            let names = products.map(\.name) + phones.map(\.name)
            let prefixes = (0..<Self.prefixesPerRound).map { _ in Self.prefix(names, &random) }
            let typed = prefixes.map { String(String.UnicodeScalarView($0.unicodeScalars.drop { $0.properties.isWhitespace })) }
            try FoldingReference.prepare(names + typed)
            for (prefix, text) in zip(prefixes, typed) where failures == 0 {
                let limit = random.next(below: 13)
                for (entity, records) in [(EntityKind.products, products.map { ($0.id!, $0.name) }), (.phones, phones.map { ($0.id!, $0.name) })] {
                    let expected = Self.reference(records, prefix: text, limit: limit)
                    let actual = try store.suggest(prefix: prefix, limit: limit, entity: entity)
                    if actual != expected {
                        Issue.record("seed \(Self.seed) round \(round) \(entity) \(String(reflecting: prefix)) limit \(limit): expected \(expected), got \(actual)")
                        failures += 1
                    }
                }
            }
        }
        #expect(failures == 0)
    }

    /// The definition: names whose folded form starts with the folded prefix, scalar for scalar, in
    /// the order of their folded forms' bytes, then their ids; the first `limit`.
    static func reference(_ records: [(id: Int64, name: String)], prefix: String, limit: Int) -> [String] {
        let folded = Array(FoldingReference.folded(prefix).utf8)
        let kept = records.map { (id: $0.id, name: $0.name, key: Array(FoldingReference.folded($0.name).utf8)) }
            .filter { $0.key.starts(with: folded) }
        let sorted = kept.sorted { a, b in a.key == b.key ? a.id < b.id : a.key.lexicographicallyPrecedes(b.key) }
        return sorted.prefix(limit).map(\.name)
    }

    /// Mostly the start of a name (1-4 characters, uppercased or widened now and then, after white
    /// space now and then), else nothing, white space or a random piece.
    static func prefix(_ names: [String], _ random: inout SplitMix64) -> String {
        switch random.next(below: 10) {
        case 0: return random.pick(["", " ", "\u{3000}", "\t"])
        case 1: return RandomCatalog.piece(&random)
        default:
            guard !names.isEmpty else { return "a" }
            let text = String(random.pick(names).prefix(1 + random.next(below: 4)))
            let shaped = switch random.next(below: 4) {
            case 0: text.uppercased()
            case 1: text.applyingTransform(.fullwidthToHalfwidth, reverse: true) ?? text
            default: text
            }
            return random.pick(["", "", " ", "\u{3000}"]) + shaped
        }
    }
}
