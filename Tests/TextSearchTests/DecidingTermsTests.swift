import Testing
import TextSearch

/// `SearchQuery.decidingTerms`: a term inside another that is not a number is left out (a text holding
/// the longer one holds it), every term once, in the order typed. Each row says why.
struct DecidingTermsTests {
    static let rows: [(text: String, terms: [String], why: String)] = [
        ("max a", ["max"], "a short term inside a long one"),
        ("a max", ["max"], "whichever comes first"),
        ("ca cafe café", ["cafe"], "folded alike, then inside"),
        ("mac mac", ["mac"], "twice"),
        ("mac book", ["mac", "book"], "neither inside the other"),
        ("3 a3", ["a3"], "a number inside a plain term"),
        ("20 2000", ["20", "2000"], "a number implies nothing: it may match by a number column"),
        ("東 東京", ["東京"], "any script, compared by bytes"),
    ]

    @Test(arguments: rows)
    func termsLeftOut(_ row: (text: String, terms: [String], why: String)) {
        let terms = SearchQuery(row.text).decidingTerms { $0.number != nil }
        #expect(terms.map(\.folded) == row.terms, "\(row.why)")
    }
}
