import Catalog
import FetchedResults
import Foundation
import Testing

/// A list request takes the sorts and the scope of its entity type, and nothing else.
@Suite struct ListRequestTests {
    /// The sorts each entity type offers, as the Commands article's `list --sort` says.
    @Test func sortFieldsAreTheRecordTypes() {
        #expect(Product.sortFields == [.name, .year, .price])
        #expect(Phone.sortFields == [.name, .maker, .year])
    }

    @Test func aSortTheRecordTypeDoesNotOfferIsRefused() throws {
        #expect(throws: CatalogError.invalidValue(field: "sort", value: "price", reason: "phones sort by name, maker, year")) {
            try ListRequest<Phone>(sort: .price).validate()
        }
        #expect(throws: CatalogError.invalidValue(field: "sort", value: "maker", reason: "products sort by name, year, price")) {
            try ListRequest<Product>(sort: .maker).fetchRequest()
        }
        let store = try CatalogStore.inMemory()
        #expect(throws: CatalogError.self) { try store.sections(ListRequest<Phone>(sort: .price)) }
    }

    /// A scope limits the list to one value of the scope attribute; an entity type without one has
    /// no value to give.
    @Test func theScopeIsTheRecordTypesScopeAttribute() throws {
        let store = try CatalogStore.inMemory()
        try store.seed(SeedFile.builtIn)
        let desktops = try store.sections(ListRequest<Product>(scope: .desktop)).flatMap(\.records)
        #expect(!desktops.isEmpty && desktops.allSatisfy { $0.type == .desktop })
        #expect(try store.hasEntities(ListRequest<Product>(scope: .portable)))
        #expect(NoScope.allCases.isEmpty)
        #expect(throws: CatalogError.self) { try NoScope(parsing: "device") }
    }

    /// The order of a request is its fetch request's: section key, sort field, then id.
    @Test func theOrderIsTheFetchRequests() throws {
        #expect(try ListRequest<Product>(sort: .price, isReversed: true).fetchRequest().orderSQL()
            == #""type" ASC, "intro_price" DESC, id ASC"#)
        #expect(try ListRequest<Phone>(sort: .maker).fetchRequest().orderSQL()
            == #""maker_folded" || char(1) || "maker" ASC, "maker_folded" ASC, "name_folded" ASC, id ASC"#)
    }
}
