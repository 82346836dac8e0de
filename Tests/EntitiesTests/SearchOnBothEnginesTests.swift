import Entities
import FetchedResults
@_spi(Testing) import PostgreSQLSearch
import SQLiteStore
import TestSupport
import Testing
import TextSearch

/// A searchable entity's table made by its schema on either engine holds its search structures
/// (on PostgreSQL, PostgreSQLSearch's), kept by the entity's own writes: the same searches give the
/// same pages on both, and a fetch request's `searchText` the same results through the controller.
/// (The differential of every strategy on random texts is PostgreSQLSearchTests.)
struct SearchOnBothEnginesTests {
    static let names = [
        "Tarte Tatin", "Café crème", "ﾃﾞｼﾞﾀﾙ soup", "Pad thai", "Crème brûlée", "Ramen 20", "東京 ramen", "Straße salad",
        "Tea", "Matcha latte", "Apple tart", "Pâté",
    ]
    static let searches = ["cafe", "creme", "デジタル", "ra", "a", "t a", "20", "strasse", "京", "e", "tart", "zz", ""]

    @Test func theSameSearchesGiveTheSamePages() throws {
        let schema = try EntitySchema(identity: "org.example.kitchen.search", tables: [EntityTable(Dish.self)])
        var pages: [StoreEngine: [[Int64]]] = [:]
        var fetched: [StoreEngine: [[Int64?]]] = [:]
        for engine in StoreEngine.allCases {
            let store = try engine.makeStore()
            try schema.migrate(store.writer)
            try store.writer.write { db in
                for (index, name) in Self.names.enumerated() {
                    var dish = Dish(name: name, cuisine: ["French", "Thai"][index % 2], minutes: 10 + index)
                    try dish.insert(db)
                }
                // Updates and deletes through the entity, which the triggers follow.
                try Dish(id: 1, name: "Tarte tropézienne", cuisine: "French", minutes: 20).update(db)
                _ = try Dish.delete(id: 2, db)
            }
            fetched[engine] = try Self.searches.map { text in
                let controller = FetchedResultsController(
                    request: FetchRequest<Dish>(sortDescriptors: [SortDescriptor(\.name)], searchText: text),
                    reader: store.writer)
                try controller.performFetch()
                return try controller.fetchedObjects.map(\.id)
            }
            let order = SearchOrder(SQLFragment(sql: "dishes.name_folded, dishes.id"))
            pages[engine] = try store.writer.read { db in
                try Self.searches.map { text in
                    if let sqlite = db as? Database {
                        return try Dish.searchDescription.page(
                            SearchQuery(text), order: order, limit: 20, selection: "dishes.id", sqlite) { try $0.decode(Int64.self, at: 0) }
                        .records
                    }
                    return try PostgreSQLTextSearch(Dish.searchDescription).page(
                        SearchQuery(text), order: order, limit: 20, selection: "dishes.id", db
                    ) { row -> Int64 in if case .integer(let id) = row[0] { id } else { -1 } }.records
                }
            }
        }
        #expect(fetched[.postgreSQL] == fetched[.sqlite])
        #expect(fetched[.sqlite] == pages[.sqlite]?.map { $0.map(Optional.some) })
        #expect(pages[.sqlite]?.filter { $0.count > 1 }.count ?? 0 > 3)
        #expect(pages[.postgreSQL] == pages[.sqlite])
    }
}
