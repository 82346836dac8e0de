import Catalog
import Foundation
import TestSupport
import TextSearch

/// The brute-force definition of search: the same terms as the library (``SearchQuery``), folded by
/// the independent reference (``FoldingReference``: ``prepare(_:)`` the texts first), matched in plain
/// Swift on every record, then sorted and sectioned as a list is.
enum SearchReference {
    /// Folds the names and terms the reference will compare, in one run of the folding reference.
    static func prepare(names: [String], queries: [String]) throws {
        try FoldingReference.prepare(names + queries.flatMap { SearchQuery($0).terms.map(\.text) })
    }

    /// A name folded by the reference.
    static func fold(_ text: String) -> String { FoldingReference.folded(text) }

    /// Whether `text`, folded, contains the folded term scalar for scalar.
    static func contains(_ text: String, _ term: SearchTerm) -> Bool {
        let haystack = Array(fold(text).utf8)
        let needle = Array(fold(term.text).utf8)
        if needle.isEmpty { return true }
        guard needle.count <= haystack.count else { return false }
        for start in 0...(haystack.count - needle.count) where haystack[start] == needle[0] {
            if haystack[start..<(start + needle.count)].elementsEqual(needle) { return true }
        }
        return false
    }

    /// Whether a product matches every term of the query.
    static func matches(_ product: Product, _ query: SearchQuery) -> Bool {
        query.terms.allSatisfy { term in
            contains(product.name, term)
                || term.number.map { Double(product.yearIntroduced) == $0 || product.introPrice == $0 } == true
        }
    }

    /// Whether a phone matches every term of the query.
    static func matches(_ phone: Phone, _ query: SearchQuery) -> Bool {
        query.terms.allSatisfy { contains(phone.name, $0) || contains(phone.maker, $0) }
    }

    /// SQLite's BINARY order of two texts: their UTF-8 bytes.
    static func less(_ a: String, _ b: String) -> Bool? {
        let (x, y) = (Array(a.utf8), Array(b.utf8))
        return x == y ? nil : x.lexicographicallyPrecedes(y)
    }

    /// The products of a request, as `(section name, id)` in order.
    static func products(_ all: [Product], _ request: ListRequest<Product>) -> [(String, Int64)] {
        let query = request.searchQuery
        let kept = all.filter { (request.scope == nil || $0.type == request.scope) && matches($0, query) }
        let sorted = kept.sorted { a, b in
            if let order = less(a.type.rawValue, b.type.rawValue) { return order }
            let key: Bool? = switch request.sort {
            case .year: a.yearIntroduced == b.yearIntroduced ? nil : a.yearIntroduced < b.yearIntroduced
            case .price: a.introPrice == b.introPrice ? nil : a.introPrice < b.introPrice
            default: less(fold(a.name), fold(b.name))
            }
            if let key { return key != request.isReversed }
            return a.id! < b.id!
        }
        return sorted.map { ($0.type.title, $0.id!) }
    }

    /// The phones of a request, as `(section name, id)` in order.
    static func phones(_ all: [Phone], _ request: ListRequest<Phone>) -> [(String, Int64)] {
        let query = request.searchQuery
        let kept = all.filter { matches($0, query) }
        let sorted = kept.sorted { a, b in
            let (fa, fb) = (fold(a.name), fold(b.name))
            let key: Bool? = switch request.sort {
            // Maker sections are the maker as spelled, in the order of the folded maker (the Commands article:
            // makers sort ignoring case and diacritics), spellings that fold alike by their bytes.
            case .maker: less(fold(a.maker), fold(b.maker)) ?? less(a.maker, b.maker)
            case .year: a.yearReleased == b.yearReleased ? nil : a.yearReleased < b.yearReleased
            default: less(fa, fb)
            }
            if let key { return key != request.isReversed }
            if request.sort != .name, let name = less(fa, fb) { return name }
            return a.id! < b.id!
        }
        return sorted.map { phone in
            let section = switch request.sort {
            case .maker: phone.maker
            case .year: String(phone.yearReleased)
            // The section of a name: the first Unicode scalar of the folded name, uppercased.
            default: String(String.UnicodeScalarView(fold(phone.name).unicodeScalars.prefix(1))).uppercased()
            }
            return (section, phone.id!)
        }
    }
}
