import Catalog
import Foundation
import SQLiteStore
import Testing
import TextSearch

/// The worked examples of Apple's UISearchBar samples, on the nine seed products.
struct SearchSeedTests {
    let store: CatalogStore
    let directory: URL

    init() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("search-seed-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        store = try CatalogStore(path: directory.appendingPathComponent("catalog.sqlite").path)
        try store.seed(SeedFile.builtIn)
    }

    /// The names found, section by section.
    func names(_ text: String, scope: ProductType? = nil, sort: SortField = .name) throws -> [[String]] {
        let sections: [EntitySection<Product>] = try store.search(SearchQuery(text), in: ListRequest(scope: scope, sort: sort))
        return sections.map { $0.records.map(\.name) }
    }

    @Test func iphone599And2007FindOnlyTheIPhone() throws {
        #expect(try names("iphone 599 2007") == [["iPhone"]])
    }

    @Test func theYear2007FindsTheIPhoneAndTheIPodTouch() throws {
        #expect(try names("2007") == [["iPhone", "iPod touch"]])
    }

    @Test func macInScopeDesktopFindsIMacAndMacPro() throws {
        #expect(try names("mac", scope: .desktop) == [["iMac", "Mac Pro"]])
    }

    @Test func macFindsEveryMacInItsSection() throws {
        #expect(try names("mac") == [["iMac", "Mac Pro"], ["MacBook Air", "MacBook Pro"]])
    }

    @Test func ipodFindsBothIPods() throws {
        #expect(try names("ipod") == [["iPod", "iPod touch"]])
    }

    @Test func aPriceWithCentsFindsItsProduct() throws {
        #expect(try names("599.00") == [["iPhone"]])
        #expect(try names("１２９９") == [["iMac"]])
    }

    @Test func caseDiacriticsAndWidthAreIgnored() throws {
        #expect(try names("ＭａｃＢｏｏｋ") == [["MacBook Air", "MacBook Pro"]])
        #expect(try names("ｉｐｈｏｎｅ") == [["iPhone"]])
        #expect(try names("PRÓ") == [["Mac Pro"], ["MacBook Pro"]])
    }

    @Test func shortTermsAreAnsweredExactly() throws {
        #expect(try names("ad") == [["iPad", "iPad mini"]])
        #expect(try names("x") == [])
        #expect(try names("i m") == [["iMac"], ["iPad mini"], ["MacBook Air"]])
    }

    @Test func theOrderAndSectionsOfTheListAreKept() throws {
        #expect(try names("pro", sort: .price) == [["Mac Pro"], ["MacBook Pro"]])
        #expect(try names("i", sort: .year) == [["iMac"], ["iPod", "iPhone", "iPod touch", "iPad", "iPad mini"], ["MacBook Air"]])
    }

    @Test func noTermsListEverything() throws {
        #expect(try names(" \u{3000}\t").joined().count == 9)
    }

    @Test func anEmptyStoreIsToldApartFromNoMatch() throws {
        #expect(try store.hasEntities(ListRequest<Product>(searchText: "zzz")))
        #expect(try names("zzz") == [])
        let empty = try CatalogStore.inMemory()
        #expect(try !empty.hasEntities(ListRequest<Product>()))
    }

    @Test func pagesCountTheWholeResult() throws {
        let page = try store.searchPage(ListRequest<Product>(searchText: "i"), limit: 2, offset: 1)
        #expect(page.totalCount == 7)
        #expect(page.records.map(\.name) == ["iPad", "iPad mini"])
    }

    @Test func aPageOfANumberCountsItsYearAndPriceMatches() throws {
        let page = try store.searchPage(ListRequest<Product>(searchText: "2007"), limit: 1, offset: 1)
        #expect(page.totalCount == 2)
        #expect(page.records.map(\.name) == ["iPod touch"])
        let all = try store.searchPage(ListRequest<Product>(searchText: "2007"), limit: 50)
        #expect(all.records.map(\.name) == ["iPhone", "iPod touch"])
    }

    @Test func phonesMatchOnNameOrMaker() throws {
        let sections: [EntitySection<Phone>] = try store.search(SearchQuery("samsung galaxy"), in: ListRequest<Phone>())
        #expect(!sections.isEmpty)
        #expect(sections.allSatisfy { $0.records.allSatisfy { $0.maker == "Samsung" } })
    }

    @Test(arguments: ["\"", "*", "^", ":", "(", ")", "-", "AND", "OR", "NOT", "NEAR", "NEAR(a b)", "a OR b", "'; DROP TABLE products; --",
                      "\u{0}", "\u{1}x", "\"mac\"*", "{name_folded}:mac", "a\"b", String(repeating: "ab\"", count: 3_400)])
    func hostileInputIsDataNeverSyntax(_ text: String) throws {
        _ = try names(text)
        _ = try store.searchPage(ListRequest<Product>(searchText: text))
        _ = try store.searchCount(ListRequest<Phone>(searchText: text))
    }

    @Test func normalTermsUseTheIndexes() throws {
        func plan(_ text: String) throws -> [String] {
            try store.file!.read { db in
                let condition = try Product.searchDescription.condition(for: SearchQuery(text), alias: "p", db)
                return try db.fetchAll(sql: "EXPLAIN QUERY PLAN SELECT p.id FROM products p WHERE \(condition.sql)", arguments: condition.arguments) {
                    try $0.decode(String.self, at: 3)
                }
            }
        }
        func scansTable(_ plan: [String]) -> Bool { plan.contains("SCAN p") }
        let long = try plan("macbook")
        #expect(long.contains { $0.contains("products_search VIRTUAL TABLE INDEX") }, "\(long)")
        #expect(!scansTable(long), "\(long)")
        let short = try plan("ma")
        #expect(short.contains { $0.contains("products_grams VIRTUAL TABLE INDEX") }, "\(short)")
        #expect(!scansTable(short), "\(short)")
        let numeric = try plan("2007")
        #expect(!scansTable(numeric), "\(numeric)")
    }
}
