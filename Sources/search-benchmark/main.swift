// Search latency on synthetic products: our search (FTS5 trigrams + short grams) against a plain
// `LIKE '%term%'` scan, for as-you-type queries (prefixes of 1 to 8 characters of real names), each
// the first page of 50 results plus the total count.
//
//   swift run -c release search-benchmark [count] [database path]
//
// The catalog is generated from a fixed seed and kept at the path, so later runs skip generation; a
// file whose migrations changed since (another schema) is generated anew. LIKE runs on every 4th
// name and on every Japanese one.
import TextSearch
import Catalog
import Foundation
import SQLiteStore

extension SplitMix64 {
    mutating func below(_ bound: Int) -> Int { Int(next() % UInt64(bound)) }
    mutating func pick<T>(_ elements: [T]) -> T { elements[below(elements.count)] }
}

let arguments = CommandLine.arguments
let count = arguments.count > 1 ? Int(arguments[1]) ?? 1_000_000 : 1_000_000
let path = arguments.count > 2 ? arguments[2] : NSTemporaryDirectory() + "search-benchmark-\(count).sqlite"
var random = SplitMix64(seed: 2024)

// MARK: - Vocabulary: Latin words, some with diacritics, and Japanese words.

let onsets = ["b", "c", "d", "f", "g", "k", "l", "m", "n", "p", "r", "s", "t", "v", "z", "br", "st", "tr", "ch", "pl"]
let vowels = ["a", "e", "i", "o", "u", "ai", "ou", "io"]
let accented = ["é", "è", "ü", "ö", "ñ", "å", "ç", "á"]
let kana = Array("あいうえおかきくけこさしすせそたちつてとなにぬねのまみむめもやゆよらりるれろわがぎぐげござじずぜぞアイウエオカキクケコサシスセソタチツテトナニヌネノマミムメモラリルレロン").map(String.init)
let kanji = Array("東京大阪山川田中本日月火水木金土空海星光電話機器具新型白黒赤青").map(String.init)

var latinWords: [String] = []
while latinWords.count < 1_500 {
    var word = ""
    for _ in 0..<(2 + random.below(2)) { word += random.pick(onsets) + random.pick(vowels) }
    if random.below(100) < 15 {
        var characters = Array(word)
        let index = random.below(characters.count)
        if "aeiou".contains(characters[index]) { characters[index] = Character(random.pick(accented)) }
        word = String(characters)
    }
    if random.below(2) == 0 { word = word.prefix(1).uppercased() + word.dropFirst() }
    latinWords.append(word)
}
var japaneseWords: [String] = []
while japaneseWords.count < 500 {
    japaneseWords.append((0..<(2 + random.below(3))).map { _ in random.below(3) == 0 ? random.pick(kanji) : random.pick(kana) }.joined())
}

@MainActor func makeName(_ random: inout SplitMix64) -> (String, isJapanese: Bool) {
    let words = 2 + random.below(2)
    if random.below(10) == 0 {
        return ((0..<words).map { _ in random.pick(japaneseWords) }.joined(), true)
    }
    return ((0..<words).map { _ in random.pick(latinWords) }.joined(separator: " "), false)
}

// MARK: - Generation

/// The catalog at `path`, made anew when an earlier version of the schema (a changed migration) made it.
func openStore(_ path: String) throws -> CatalogStore {
    do {
        return try CatalogStore(path: path)
    } catch let error as MigrationError {
        guard case .checksumMismatch = error else { throw error }
        print("\(path) has an older schema (\(error)); generating it anew")
        for suffix in ["", "-wal", "-shm"] where FileManager.default.fileExists(atPath: path + suffix) {
            try FileManager.default.removeItem(atPath: path + suffix)
        }
        return try CatalogStore(path: path)
    }
}

let store = try openStore(path)
let existing = try store.count(Product.self)
if existing < count {
    print("Generating \(count) products into \(path)…")
    let start = ContinuousClock.now
    var batch: [Product] = []
    var generated = existing
    while generated < count {
        let (name, _) = makeName(&random)
        batch.append(Product(
            type: random.pick(ProductType.allCases), name: name, yearIntroduced: 1980 + random.below(46),
            introPrice: Double(49 + random.below(3_000)) + (random.below(2) == 0 ? 0 : 0.99)))
        if batch.count == min(50_000, count - generated) {
            generated += try store.seed([.products(batch)]).productsInserted
            batch.removeAll(keepingCapacity: true)
        }
    }
    let elapsed = ContinuousClock.now - start
    let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
    print("Inserted \(generated - existing) products in \(String(format: "%.1f", seconds)) s (\(Int(Double(generated - existing) / seconds)) per second, with the FTS5 and gram triggers)")
}
let total = try store.count(Product.self)

// MARK: - Queries

let products = try store.queue.read { db in
    try db.fetchAll(sql: "SELECT \(Product.selection) FROM products WHERE id % 997 = 0 ORDER BY id") { try Product(row: $0) }
}
var sampler = SplitMix64(seed: 7)
let sample = (0..<60).map { _ in sampler.pick(products) }

enum Kind: String, CaseIterable { case short = "1-2 chars", long = "3+ chars", japanese = "Japanese (1-8 chars)" }

func isJapanese(_ name: String) -> Bool { name.unicodeScalars.contains { $0.value >= 0x3040 } }

struct Sample { var ours: [Double] = []; var like: [Double] = [] }
var byKind: [Kind: Sample] = [:]
var byLength: [Int: Sample] = [:]
var timings: [(kind: Kind, text: String, milliseconds: Double, total: Int)] = []

func milliseconds(_ body: () throws -> Void) rethrows -> Double {
    let start = ContinuousClock.now
    try body()
    let elapsed = ContinuousClock.now - start
    return Double(elapsed.components.seconds) * 1e3 + Double(elapsed.components.attoseconds) / 1e15
}

@MainActor func likeSearch(_ text: String) throws -> (Int, [Product]) {
    let terms = SearchQuery(text).terms.map { term in
        "%" + term.folded.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "%", with: "\\%")
            .replacingOccurrences(of: "_", with: "\\_") + "%"
    }
    let condition = terms.isEmpty ? "1" : terms.map { _ in "name_folded LIKE ? ESCAPE '\\'" }.joined(separator: " AND ")
    let values = StatementArguments(terms)
    return try store.queue.read { db in
        let count = try db.scalar(Int.self, sql: "SELECT count(*) FROM products WHERE \(condition)", arguments: values) ?? 0
        let page = try db.fetchAll(
            sql: "SELECT \(Product.selection) FROM products WHERE \(condition) ORDER BY type, name_folded, id LIMIT 50",
            arguments: values) { try Product(row: $0) }
        return (count, page)
    }
}

print("Running \(sample.count) names × prefixes 1…8 on \(total) products…")
for (index, product) in sample.enumerated() {
    let characters = Array(product.name)
    for length in 1...min(8, characters.count) {
        let text = String(characters.prefix(length))
        let kind: Kind = isJapanese(product.name) ? .japanese : (text.trimmingCharacters(in: .whitespaces).count <= 2 ? .short : .long)
        var page: SearchPage<Product>?
        _ = try store.searchPage(Product.self, ListRequest(searchText: text))  // warm
        let ours = try milliseconds { page = try store.searchPage(Product.self, ListRequest(searchText: text)) }
        byKind[kind, default: Sample()].ours.append(ours)
        timings.append((kind, text, ours, page!.totalCount))
        byLength[length, default: Sample()].ours.append(ours)
        if index % 4 == 0 || isJapanese(product.name) {
            var baseline: (Int, [Product])?
            let like = try milliseconds { baseline = try likeSearch(text) }
            byKind[kind, default: Sample()].like.append(like)
            byLength[length, default: Sample()].like.append(like)
            if SearchQuery(text).terms.allSatisfy({ $0.number == nil }), baseline!.0 != page!.totalCount {
                print("warning: counts differ for \(String(reflecting: text)): LIKE \(baseline!.0), search \(page!.totalCount)")
            }
        }
    }
}

func percentile(_ values: [Double], _ p: Double) -> Double {
    guard !values.isEmpty else { return .nan }
    let sorted = values.sorted()
    return sorted[min(sorted.count - 1, Int((Double(sorted.count - 1) * p).rounded()))]
}

func row(_ label: String, _ sample: Sample) -> String {
    let (om, op) = (percentile(sample.ours, 0.5), percentile(sample.ours, 0.99))
    let (lm, lp) = (percentile(sample.like, 0.5), percentile(sample.like, 0.99))
    return String(format: "| %@ | %d | %.2f | %.2f | %d | %.1f | %.1f | %.0f× |", label, sample.ours.count, om, op, sample.like.count, lm, lp, lm / om)
}

print("")
let version = try store.queue.read { db in try db.scalar(String.self, sql: "SELECT sqlite_version()") } ?? "?"
print("\(total) products, SQLite \(version), page of 50 + total count, milliseconds")
print("")
print("| query | n | search median | search p99 | n LIKE | LIKE median | LIKE p99 | median ratio |")
print("|---|---:|---:|---:|---:|---:|---:|---:|")
for kind in Kind.allCases { if let sample = byKind[kind] { print(row(kind.rawValue, sample)) } }
for length in 1...8 { if let sample = byLength[length] { print(row("prefix length \(length)", sample)) } }

print("")
print("Slowest searches per class (milliseconds, total count):")
for kind in Kind.allCases {
    let slowest = timings.filter { $0.kind == kind }.sorted { $0.milliseconds > $1.milliseconds }.prefix(5)
    print("  \(kind.rawValue): " + slowest.map { String(format: "%@ %.2f (%d)", String(reflecting: $0.text), $0.milliseconds, $0.total) }.joined(separator: ", "))
}
