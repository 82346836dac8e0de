import Catalog
import FetchedResults
import Foundation
import Testing

/// The catalog's fetch requests: sections by type and by folded initial, search with scope.
@Suite struct CatalogFetchTests {
    @Test func phonesSectionByFoldedInitial() throws {
        let store = try CatalogStore.inMemory()
        for (name, maker) in [("Éclair", "Zed"), ("eve", "Acme"), ("Echo", "acme"), ("Alpha", "Beta")] {
            try store.insert(Phone(name: name, maker: maker, yearReleased: 2020, operatingSystem: "X", screenInches: 5))
        }
        let sections: [EntitySection<Phone>] = try store.sections(ListRequest<Phone>())
        #expect(sections.map(\.name) == ["A", "E"])
        #expect(sections[1].records.map(\.name) == ["Echo", "Éclair", "eve"])

        let byMaker: [EntitySection<Phone>] = try store.sections(ListRequest<Phone>(sort: .maker))
        #expect(byMaker.map(\.name) == ["Acme", "acme", "Beta", "Zed"], "a maker section is the maker as spelled, in folded order")
        #expect(byMaker[0].records.map(\.name) == ["eve"])
    }

    @Test func productsSectionByTypeAndResolvePathsInTheFilteredResult() throws {
        let store = try CatalogStore.inMemory()
        try store.seed(SeedFile.builtIn)
        let all: [EntitySection<Product>] = try store.sections(ListRequest())
        #expect(all.map(\.name) == ["Desktop", "Device", "Portable"])

        let search = ListRequest<Product>(scope: .portable, searchText: "book")
        let found: [EntitySection<Product>] = try store.sections(search)
        #expect(found.map(\.name) == ["Portable"])
        #expect(found[0].records.map(\.name) == ["MacBook Air", "MacBook Pro"])
        #expect(try store.record(at: ItemPath(section: 0, row: 1), in: search).name == "MacBook Pro")
        #expect(try store.itemPath(ofID: found[0].records[1].id!, in: search) == ItemPath(section: 0, row: 1))
        #expect(throws: CatalogError.indexPathOutOfRange("1.0", sectionCount: 1)) {
            try store.record(at: ItemPath(section: 1, row: 0), in: search)
        }
    }
}
