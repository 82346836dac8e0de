import Catalog
import Foundation
import TestSupport

extension SplitMix64 {
    /// A number in `0..<bound`.
    mutating func next(below bound: Int) -> Int { Int(next() % UInt64(bound)) }

    /// One of `elements`.
    mutating func pick<T>(_ elements: [T]) -> T { elements[next(below: elements.count)] }
}

/// Random catalogs and queries in every script the search must handle.
enum RandomCatalog {
    static let latin = Array("abcdeimnoprstuxyzABCMPXZ").map(String.init)
    static let accented = ["é", "É", "è", "ü", "Ü", "ñ", "å", "Å", "ç", "ø", "ß", "ﬁ", "œ", "Æ", "e\u{301}", "İ", "ı", "Σ", "ς"]
    static let wide = ["Ａ", "ｂ", "Ｍ", "ａ", "ｃ", "１", "ﾀ", "ｶﾞ", "ﾃﾞｼﾞﾀﾙ", "ﾊﾟ", "ﾊ", "ﾞ", "ｼｬｰﾌﾟ"]
    static let japanese = [
        "東", "京", "タ", "ワ", "ー", "が", "か", "ガ", "カ", "の", "日本", "ア", "か\u{3099}", "テ\u{3099}", "デジタル", "パ",
        "ハ\u{309A}", "シャープ",
    ]
    static let hangul = ["삼성", "\u{1109}\u{1161}\u{11B7}", "가", "\u{1100}\u{1161}"]
    static let emoji = ["😀", "👨‍👩‍👧", "🇯🇵", "👍🏽", "🍎", "❤️", "\u{FE0F}", "🏽"]
    static let marks = ["¨", "\"", "*", "^", ":", "(", ")", "-", "'", "%", "_", ".", "1", "2", "0", "9"]
    static let hostile = [
        "\"", "*", "^", ":", "(", ")", "-", "AND", "OR", "NOT", "NEAR", "NEAR(", "\"a", "a*", "'", "';--", "%", "_",
        "\u{1}", "x\u{0}", "\u{7F}", "{name_folded}:", "\u{301}", "\u{200D}",
    ]
    static let separators = [" ", "\u{3000}", "\t", "\n", "  ", "\u{A0}"]

    /// A piece of a name from one of the scripts.
    static func piece(_ random: inout SplitMix64) -> String {
        switch random.next(below: 11) {
        case 0...4: random.pick(latin)
        case 5: random.pick(accented)
        case 6: random.pick(wide)
        case 7: random.pick(japanese)
        case 8: random.pick(emoji)
        case 9: random.pick(hangul)
        default: random.pick(marks)
        }
    }

    /// A valid name: 1-3 words of 1-6 pieces.
    static func name(_ random: inout SplitMix64) -> String {
        (0...random.next(below: 3)).map { _ in
            (0...random.next(below: 6)).map { _ in piece(&random) }.joined()
        }.joined(separator: " ")
    }

    static let prices: [Double] = [0, 0.5, 99, 199.99, 599, 1299, 2007, 2010]

    /// Inserts, renames, retypes and deletes some products and phones.
    static func mutate(_ store: CatalogStore, _ random: inout SplitMix64) throws {
        for _ in 0..<random.next(below: 8) {
            let product = Product(
                type: random.pick(ProductType.allCases), name: name(&random),
                yearIntroduced: 1995 + random.next(below: 20), introPrice: random.pick(prices))
            _ = try? store.insert(product)
        }
        for _ in 0..<random.next(below: 3) {
            let phone = Phone(
                name: name(&random), maker: random.pick(["Apple", "Sämsung", "ソニー", "Nokia", "ＬＧ"]),
                yearReleased: 2000 + random.next(below: 20), operatingSystem: "OS", screenInches: 5)
            _ = try? store.insert(phone)
        }
        var products = try store.fetchAll(Product.self)
        if !products.isEmpty && random.next(below: 3) == 0 {
            var product = products[random.next(below: products.count)]
            product.name = name(&random)
            product.type = random.pick(ProductType.allCases)
            try? store.update(product)
        }
        products = try store.fetchAll(Product.self)
        if products.count > 40 || (!products.isEmpty && random.next(below: 4) == 0) {
            try store.delete(Product.self, id: products[random.next(below: products.count)].id!)
        }
        let phones = try store.fetchAll(Phone.self)
        if phones.count > 15 {
            try store.delete(Phone.self, id: phones[random.next(below: phones.count)].id!)
        }
    }

    /// A query of 1-3 terms (sometimes none) separated by any white space.
    static func query(names: [String], products: [Product], _ random: inout SplitMix64) -> String {
        if random.next(below: 40) == 0 { return random.pick(["", " ", "\u{3000}"]) }
        if random.next(below: 3) == 0, !names.isEmpty { return mixedQuery(names: names, &random) }
        if random.next(below: 300) == 0 { return String(repeating: random.pick(["ab", "\"", "東京"]), count: 5_000) }
        let terms = (0...random.next(below: 3)).map { _ in term(names: names, products: products, &random) }
        var text = random.next(below: 4) == 0 ? random.pick(separators) : ""
        for term in terms { text += term + random.pick(separators) }
        return text
    }

    /// Terms of 1-2 scalars and of 3+ scalars together (`pro pa`, `touch s`, `東京タワー zo`), cut from
    /// the names (or now and then from anywhere), in any order.
    static func mixedQuery(names: [String], _ random: inout SplitMix64) -> String {
        func cut(_ lengths: ClosedRange<Int>) -> String {
            if random.next(below: 8) == 0 { return (0..<lengths.lowerBound).map { _ in piece(&random) }.joined() }
            let scalars = Array(random.pick(names).unicodeScalars)
            let length = min(scalars.count, lengths.lowerBound + random.next(below: lengths.count))
            let start = random.next(below: scalars.count - length + 1)
            return String(String.UnicodeScalarView(scalars[start..<(start + length)]))
        }
        var terms = (0...random.next(below: 2)).map { _ in cut(1...2) } + (0...random.next(below: 2)).map { _ in cut(3...8) }
        if random.next(below: 2) == 0 { terms.reverse() }
        return terms.joined(separator: random.pick(separators))
    }

    static func term(names: [String], products: [Product], _ random: inout SplitMix64) -> String {
        switch random.next(below: 12) {
        case 0...5 where !names.isEmpty:
            let name = Array(random.pick(names))
            let start = random.next(below: name.count)
            let length = 1 + random.next(below: min(12, name.count - start))
            let text = String(name[start..<(start + length)]).trimmingCharacters(in: .whitespaces)
            switch random.next(below: 4) {
            case 0: return text.uppercased()
            case 1: return text.applyingTransform(.fullwidthToHalfwidth, reverse: true) ?? text
            default: return text.isEmpty ? "a" : text
            }
        case 6 where !products.isEmpty:
            let product = random.pick(products)
            return random.pick([String(product.yearIntroduced), String(format: "%.2f", product.introPrice),
                                String(Int(product.introPrice)), "0", "5"])
        case 7: return random.pick(hostile)
        case 8: return (0...random.next(below: 3)).map { _ in random.pick(japanese) }.joined()
        default: return (0...random.next(below: 3)).map { _ in piece(&random) }.joined()
        }
    }
}
