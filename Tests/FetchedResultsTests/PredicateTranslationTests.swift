import FetchedResults
import Foundation
import Testing
import TestSupport

/// Each supported `#Predicate` construct, evaluated by each engine, selects the rows
/// `Predicate.evaluate` selects, over random rows.
@Suite struct PredicateTranslationTests {
    static let yes = true
    static let limit = 2
    static let text = "a"
    static let wanted: [Int] = [-1, 0, 3]
    static let names: [String?] = ["a", nil, "b"]

    /// One predicate per construct (and a few mixes), named for the failure message.
    static let supported: [(String, Predicate<Item>)] = [
        ("comparison <", #Predicate { $0.score < 2 }),
        ("comparison <=", #Predicate { $0.score <= limit }),
        ("comparison >", #Predicate { $0.price > 2.5 }),
        ("comparison >=", #Predicate { $0.price >= 2.5 }),
        ("string comparison", #Predicate { $0.name < "aB" }),
        ("==", #Predicate { $0.name == text }),
        ("!=", #Predicate { $0.name != text }),
        ("== bool", #Predicate { $0.flag == true }),
        ("bool key path", #Predicate { $0.flag }),
        ("optional == nil", #Predicate { $0.nick == nil }),
        ("optional != nil", #Predicate { $0.nick != nil }),
        ("optional == value", #Predicate { $0.nick == "a" }),
        ("optional != value", #Predicate { $0.nick != "a" }),
        ("&&", #Predicate { $0.score > 0 && $0.flag }),
        ("||", #Predicate { $0.score > 3 || $0.name == "a" }),
        ("!", #Predicate { !($0.score > 0) }),
        ("! of optional ==", #Predicate { !($0.nick == "b") }),
        ("contains", #Predicate { $0.name.contains("a") }),
        ("contains captured", #Predicate { $0.name.contains(text) }),
        ("contains non-ASCII", #Predicate { $0.name.contains("é") }),
        ("starts(with:)", #Predicate { $0.name.starts(with: "a") }),
        ("starts(with:) empty", #Predicate { $0.name.starts(with: "") }),
        ("+", #Predicate { $0.score + 2 > 3 }),
        ("-", #Predicate { $0.score - $0.score == 0 }),
        ("*", #Predicate { $0.price * 2 >= 5 }),
        ("/ double", #Predicate { $0.price / 2 < 1 }),
        ("/ int", #Predicate { $0.score / 2 == 1 }),
        ("%", #Predicate { $0.score % 3 == -1 }),
        ("unary minus", #Predicate { -$0.score > 2 }),
        ("flatMap ??", #Predicate { ($0.nick.flatMap { $0.contains("a") } ?? false) }),
        ("?? value", #Predicate { ($0.nick ?? "zz") == "zz" }),
        ("ternary", #Predicate { $0.flag ? $0.score > 0 : $0.score < 0 }),
        ("! bool key path", #Predicate { !$0.flag }),
        ("bool key path || comparison", #Predicate { $0.flag || $0.score > 3 }),
        ("captured bool", #Predicate { $0.score > 0 && yes }),
        ("bool == comparison", #Predicate { $0.flag == ($0.score > 0) }),
        ("comparison != bool key path", #Predicate { ($0.price > 2) != $0.flag }),
        ("ternary of bool key paths", #Predicate { $0.score > 0 ? $0.flag : !$0.flag }),
        ("ternary of a bool key path and a comparison", #Predicate { $0.price < 2 ? $0.flag : $0.score < 1 }),
        ("ternary of captured values", #Predicate { ($0.flag ? 1 : -1) == $0.score }),
        ("ternary of values", #Predicate { ($0.flag ? $0.score : -$0.score) > 1 }),
        ("ternary of optionals", #Predicate { ($0.flag ? $0.nick : nil) == nil }),
        ("ternary compared with a bool key path", #Predicate { ($0.score > 0 ? $0.score < 3 : yes) == $0.flag }),
        ("bool ?? bool key path", #Predicate { ($0.nick.flatMap { $0.contains("a") } ?? $0.flag) }),
        ("captured array contains", #Predicate { wanted.contains($0.score) }),
        ("captured optional array contains", #Predicate { names.contains($0.nick) }),
        ("nested", #Predicate { !($0.flag && ($0.nick == nil || $0.name.starts(with: "b"))) || $0.price * 4 == 3 }),
    ]

    @Test(arguments: StoreEngine.all, supported.indices)
    func theEngineAgreesWithEvaluate(engine: StoreEngine, _ index: Int) throws {
        let (name, predicate) = Self.supported[index]
        let database = try ItemDatabase(engine: engine)
        try database.insert(ItemDatabase.randomItems(300, seed: 42))
        let expected = Set(try database.items.filter { try predicate.evaluate($0) }.map { $0.id! })
        let actual = try database.ids(matching: predicate)
        #expect(actual == expected, "\(name): \(engine) and Predicate.evaluate disagree")
        #expect(!expected.isEmpty || name == "==", "\(name): the random rows should exercise the predicate")
    }

    static let unsupported: [(String, Predicate<Item>)] = [
        ("ForcedUnwrap", #Predicate { $0.nick! == "a" }),
        ("SequenceMaximum", #Predicate { (wanted.max() ?? 0) < $0.score }),
        ("RangeExpressionContains", #Predicate { (0...3).contains($0.score) }),
        ("SequenceAllSatisfy", #Predicate { $0.flag && wanted.allSatisfy { x in x < 5 } }),
        ("Variable", #Predicate { $0 == $0 }),
    ]

    @Test(arguments: StoreEngine.all, unsupported.indices)
    func unsupportedConstructsAreRejectedByName(engine: StoreEngine, _ index: Int) throws {
        let (name, predicate) = Self.unsupported[index]
        let database = try ItemDatabase(engine: engine)
        let error = #expect(throws: FetchError.self) { try database.ids(matching: predicate) }
        #expect(error?.description.contains(name) == true, "\(error.map(String.init(describing:)) ?? "no error") should name \(name)")
    }

    @Test(arguments: StoreEngine.all) func unmappedKeyPathsAreRejected(engine: StoreEngine) throws {
        let database = try ItemDatabase(engine: engine)
        #expect(throws: FetchError.self) { try database.ids(matching: #Predicate { $0.name.count > 2 }) }
    }

    /// A key path of an attribute's value (`$0.name.count`) is no column of the entity: the error names
    /// its type, not the address a computed key path of the standard library prints as.
    @Test(arguments: StoreEngine.all) func aKeyPathOfAValueIsRejectedByItsType(engine: StoreEngine) throws {
        let database = try ItemDatabase(engine: engine)
        for predicate in [#Predicate<Item> { $0.name.count > 2 }, #Predicate<Item> { $0.name.isEmpty }] {
            let error = #expect(throws: FetchError.self) { try database.ids(matching: predicate) }
            let description = error.map(String.init(describing:)) ?? ""
            #expect(description.hasPrefix("unsupported predicate construct KeyPath of String"), "\(description)")
            #expect(!description.contains("0x"), "\(description)")
        }
    }

    @Test(arguments: StoreEngine.all) func valuesAreBoundNeverSpliced(engine: StoreEngine) throws {
        let database = try ItemDatabase(engine: engine)
        try database.insert([Item(name: "x'); DROP TABLE items; --", nick: nil, score: 0, price: 0, flag: false)])
        let hostile = "x'); DROP TABLE items; --"
        #expect(try database.ids(matching: #Predicate { $0.name == hostile }).count == 1)
        #expect(try database.writer.read { db in try db.scalar(Int.self, sql: "SELECT count(*) FROM items") } == 1)
    }
}
