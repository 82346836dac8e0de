import Catalog
import FetchedResults
import Foundation
import Testing
import TestSupport
import TextSearch

/// Random and mutated input thrown at every parser of user text, a fixed count of inputs each: none
/// may crash, each throws only its own error type, and what it accepts is exactly what its contract
/// says (a simple oracle written independently of the parser).
///
/// To cover another parser (the search-query parser, the `#Predicate` translator), add one line to
/// ``ParserPropertyTests/parsers``.
struct ParserPropertyTests {
    /// The inputs each parser gets: 1,000, a fixed count rather than a time budget, so that a loaded
    /// machine tries exactly what an idle one does (the slowest parser, the search SQL on a real
    /// database, takes about 2 ms an input).
    static let inputsPerParser = 1_000

    static let parsers: [ParserContract] = [
        .text("ItemPath(parsing:)", corpus: ["0.0", "1.2", "12.345", "999999999.0"], itemPath),
        .text("FieldParsing.year", corpus: ["2007", " 1900 ", "0"], year),
        .text("FieldParsing.amount", corpus: ["599", "599.00", "0.5", " 12.25 "], amount),
        .text("ProductType(parsing:)", corpus: ["device", "Desktop", " PORTABLE "], productType),
        .text("record name validation", corpus: ["iPod", " Café Crème ", "東京タワー", String(repeating: "n", count: 200)], name),
        ParserContract(name: "SeedFile(data:path:)", corpus: seedCorpus, check: seedFile),
        .text("SearchQuery and the search SQL", corpus: ["mac", "iphone 599 2007", "東京　タワー", "\"*^:()- AND OR NEAR"], search),
        .text("#Predicate translation of captured text", corpus: ["Mac", "o", "%", "_", "'"], predicate),
    ]

    @Test(arguments: parsers)
    func keepsItsContractOnRandomInput(_ parser: ParserContract) {
        var generator = InputGenerator(seed: 0x5EED ^ UInt64(truncatingIfNeeded: parser.name.utf8.count))
        var failures: [String] = []
        var tried = 0
        while tried < Self.inputsPerParser && failures.count < 5 {
            let input = generator.next(mutating: parser.corpus)
            if let failure = parser.check(input) {
                failures.append("\(String(reflecting: String(decoding: input.prefix(80), as: UTF8.self))): \(failure)")
            }
            tried += 1
        }
        #expect(failures.isEmpty, "\(parser.name) broke its contract on \(failures.count) of \(tried) inputs:\n\(failures.joined(separator: "\n"))")
    }

    // MARK: - Contracts

    static func itemPath(_ text: String) -> String? {
        let parts = Array(text.utf8).split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false)
        var expected: ItemPath?
        if parts.count == 2, let section = digits(parts[0], upTo: 9), let row = digits(parts[1], upTo: 9) {
            expected = ItemPath(section: section, row: row)
        }
        do {
            let path = try ItemPath(parsing: text)
            if path != expected { return "parsed as \(path), expected \(String(describing: expected))" }
            if (try? ItemPath(parsing: path.description)) != path { return "\(path.description) does not parse back" }
            return nil
        } catch let error as ItemPathParseError {
            return expected == nil && error.text == text ? nil : "refused, expected \(String(describing: expected))"
        } catch {
            return "threw \(error)"
        }
    }

    static func year(_ text: String) -> String? {
        let expected = digits(Array(text.trimmingCharacters(in: .whitespaces).utf8), upTo: 9)
        return outcome(expected, field: "year") { try FieldParsing.year(text) }
    }

    static func amount(_ text: String) -> String? {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        let parts = Array(trimmed.utf8).split(separator: UInt8(ascii: "."), maxSplits: 1, omittingEmptySubsequences: false)
        // Guarantees: at most 2 decimals once trailing zeros are dropped.
        let decimals = parts.count == 2 ? String(decoding: parts[1], as: UTF8.self).replacingOccurrences(of: "0+$", with: "", options: .regularExpression).count : 0
        let wellFormed = trimmed.utf8.count <= 24 && parts.allSatisfy { digits($0, upTo: 24) != nil } && decimals <= 2
        return outcome(wellFormed ? Double(trimmed) : nil, field: "price") { try FieldParsing.amount(text, field: "price", decimals: 2) }
    }

    static func productType(_ text: String) -> String? {
        let expected = ProductType(rawValue: TextFolding.fold(text.trimmingCharacters(in: .whitespaces)))
        return outcome(expected, field: "type") { try ProductType(parsing: text) }
    }

    static func name(_ text: String) -> String? {
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        let valid = !trimmed.isEmpty && trimmed.count <= 200
            && !trimmed.unicodeScalars.contains { $0.properties.generalCategory == .control || $0 == "\u{FFFD}" }
        return outcome(valid ? trimmed : nil, field: "name") {
            try Product(type: .device, name: text, yearIntroduced: 2000, introPrice: 1).validated().name
        }
    }

    /// The seeded catalog the search and predicate contracts run against.
    static let catalog: CatalogStore = {
        do {
            let store = try CatalogStore.inMemory()
            try store.seed(SeedFile.builtIn)
            return store
        } catch {
            fatalError("cannot make the test catalog: \(error)")
        }
    }()

    /// Terms are the text's white-space-separated runs that fold to something, and searching never
    /// raises an SQLite error: the text is data, never syntax.
    static func search(_ text: String) -> String? {
        let query = SearchQuery(text)
        let runs = text.unicodeScalars.split(whereSeparator: { $0.properties.isWhitespace })
            .map { String(String.UnicodeScalarView($0)) }.filter { !TextFolding.fold($0).isEmpty }
        if query.terms.map(\.text) != runs { return "terms \(query.terms.map(\.text)), expected \(runs)" }
        do {
            func search<Entity: CatalogEntity>(_ type: Entity.Type) throws {
                let request = ListRequest<Entity>(searchText: text)
                _ = try catalog.searchCount(request)
                _ = try catalog.sections(request)
            }
            for entity in EntityKind.allCases { try search(entity.entityType) }
            return nil
        } catch {
            return "threw \(error)"
        }
    }

    /// A predicate capturing the text selects in SQLite exactly the rows `Predicate.evaluate` selects.
    static func predicate(_ text: String) -> String? {
        let predicate = #Predicate<Product> { $0.name.contains(text) || $0.name.starts(with: text) || $0.name == text }
        do {
            let products = try catalog.fetchAll(Product.self)
            let expected = Set(try products.filter { try predicate.evaluate($0) }.compactMap(\.id))
            let request = FetchRequest<Product>(predicate: predicate, sortDescriptors: [SortDescriptor(\.name)])
            let controller = FetchedResultsController(request: request, reader: catalog.file!)
            try controller.performFetch()
            let actual = Set(try controller.fetchedObjects.compactMap(\.id))
            return actual == expected ? nil : "SQLite selected \(actual.sorted()), Swift \(expected.sorted())"
        } catch {
            return "threw \(error)"
        }
    }

    static let seedCorpus = [
        #"[{"type":"device","name":"iPod","yearIntroduced":2001,"introPrice":399}]"#,
        #"[{"name":"N95","maker":"Nokia","yearReleased":2007,"operatingSystem":"Symbian","screenInches":2.6}]"#,
        #"[{"type":"portable","name":"Café","yearIntroduced":2008,"introPrice":1799.5,"id":3},{"type":"desktop","name":"iMac","yearIntroduced":1998,"introPrice":1299}]"#,
        "[]",
    ]

    static func seedFile(_ bytes: [UInt8]) -> String? {
        do {
            let file = try SeedFile(data: Data(bytes), path: "fuzz.json")
            func problem<Entity: CatalogEntity>(_ type: Entity.Type) -> String? {
                file.records(of: type)!.allSatisfy { $0.id == nil && (try? $0.validated()) == $0 }
                    ? nil : "accepted an invalid \(file.entity.singular)"
            }
            return problem(file.entity.entityType)
        } catch CatalogError.invalidFile(path: "fuzz.json", _) {
            return nil
        } catch {
            return "threw \(error)"
        }
    }

    /// Compares a parse with its oracle: both accept the same value, or the parser throws
    /// `CatalogError.invalidValue` for `field` where the oracle refuses.
    private static func outcome<T: Equatable>(_ expected: T?, field: String, _ parse: () throws -> T) -> String? {
        do {
            let value = try parse()
            return value == expected ? nil : "parsed as \(value), expected \(String(describing: expected))"
        } catch CatalogError.invalidValue(field, _, _) {
            return expected == nil ? nil : "refused, expected \(expected!)"
        } catch {
            return "threw \(error)"
        }
    }

    /// The number written by 1 to `limit` ASCII digits, else nil.
    private static func digits(_ bytes: some Collection<UInt8>, upTo limit: Int) -> Int? {
        guard (1...limit).contains(bytes.count), bytes.allSatisfy({ (48...57).contains($0) }) else { return nil }
        return bytes.count > 18 ? Int.max : bytes.reduce(0) { $0 * 10 + Int($1 - 48) }
    }
}

/// A parser under test: its name, valid inputs to mutate, and a check that returns what broke, if anything.
struct ParserContract: Sendable, CustomTestStringConvertible {
    let name: String
    let corpus: [String]
    let check: @Sendable ([UInt8]) -> String?

    var testDescription: String { name }

    /// A parser of text: the bytes are decoded as UTF-8, invalid sequences becoming U+FFFD as they do
    /// in command-line arguments.
    static func text(_ name: String, corpus: [String], _ check: @escaping @Sendable (String) -> String?) -> ParserContract {
        ParserContract(name: name, corpus: corpus) { check(String(decoding: $0, as: UTF8.self)) }
    }
}

/// Inputs from a seeded generator: random bytes, random runs of tokens that parsers care about, and
/// valid inputs with a few mutations.
struct InputGenerator {
    private var random: SplitMix64

    static let tokens: [String] = [
        "0", "1", "7", "9", ".", "-", "+", "e", "E", "x", "nan", "inf", " ", "\t", "\n", "\u{0}", "\u{7F}",
        "\"", "[", "]", "{", "}", ":", ",", "\\", "\\u0000", "null", "true", "1e400", "2001.5", "999999999",
        "9999999999999999999999", "é", "١", "\u{301}", "\u{FFFD}", "\u{202E}", "\u{3000}", "東", "🤖",
        #""type":"device""#, #""maker":"M""#, #""name":"#, String(repeating: "x", count: 201),
    ]

    init(seed: UInt64) { random = SplitMix64(seed: seed) }

    mutating func next(mutating corpus: [String]) -> [UInt8] {
        switch random.next() % 4 {
        case 0:
            return (0..<Int(random.next() % 33)).map { _ in UInt8(truncatingIfNeeded: random.next()) }
        case 1:
            return Array((0..<Int(random.next() % 13)).map { _ in token() }.joined().utf8)
        default:
            var bytes = Array(corpus.randomElement(using: &random)!.utf8)
            for _ in 0...Int(random.next() % 4) { mutate(&bytes) }
            return bytes
        }
    }

    private mutating func token() -> String { Self.tokens.randomElement(using: &random)! }

    private mutating func mutate(_ bytes: inout [UInt8]) {
        let position = bytes.isEmpty ? 0 : Int(random.next() % UInt64(bytes.count))
        switch random.next() % 5 {
        case 0 where !bytes.isEmpty: bytes[position] = UInt8(truncatingIfNeeded: random.next())
        case 1: bytes.insert(contentsOf: Array(token().utf8), at: position)
        case 2: bytes.removeSubrange(position..<min(bytes.count, position + Int(random.next() % 8)))
        case 3: bytes.insert(contentsOf: bytes[position..<min(bytes.count, position + 16)], at: position)
        default: bytes.removeSubrange(position..<bytes.count)
        }
    }
}
