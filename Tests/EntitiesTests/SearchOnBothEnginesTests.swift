import Entities
import FetchedResults
@_spi(Testing) import PostgreSQLSearch
import PostgreSQLStore
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
        let schema = EntitySchema(identity: "org.example.kitchen.search", tables: [EntityTable(Dish.self)])
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

    /// A search whose statement waits on the server (another connection holds a lock on its table)
    /// ends when its task is cancelled: the statement is stopped on the server, the call throws
    /// `CancellationError`, and the connection answers the next read. PostgreSQL-only: SQLite's
    /// cancellation is SQLiteStoreTests' CancellationTests.
    @Test func cancellingASearchStopsItsStatementAndFreesItsConnection() async throws {
        guard StoreEngine.all.contains(.postgreSQL) else { return }
        let schema = try TestSchema()
        let cluster = try PostgreSQLCluster(PostgreSQLConfiguration(primary: schema.primary))
        defer { cluster.close() }
        _ = try EntitySchema(identity: "org.example.kitchen.search", tables: [EntityTable(Dish.self)]).migrate(cluster)
        try await cluster.write { db in
            for name in Self.names {
                var dish = Dish(name: name)
                try dish.insert(db)
            }
        }
        let locker = try PostgreSQLConnection(url: schema.primary)
        defer { locker.close() }
        try locker.execute(sql: "BEGIN; LOCK TABLE dishes IN ACCESS EXCLUSIVE MODE")

        let search = Task {
            let controller = FetchedResultsController(
                request: FetchRequest<Dish>(sortDescriptors: [SortDescriptor(\.name)], searchText: "cafe"), reader: cluster)
            try await controller.performFetch()
        }
        // Seen from a connection outside the locker's transaction, whose statistics are one snapshot.
        let observer = try PostgreSQLConnection(url: schema.primary)
        defer { observer.close() }
        let waiting = "SELECT count(*) FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND datname = current_database() AND query LIKE '%dishes%'"
        while try observer.scalar(sql: waiting) != .integer(1) { try await Task.sleep(for: .milliseconds(10)) }
        search.cancel()
        // Only the server's cancellation ends the search while the lock is held.
        await #expect(throws: CancellationError.self) { try await search.value }
        #expect(try observer.scalar(sql: waiting) == .integer(0))
        try locker.execute(sql: "ROLLBACK")
        let controller = FetchedResultsController(
            request: FetchRequest<Dish>(sortDescriptors: [SortDescriptor(\.name)], searchText: "cafe"), reader: cluster)
        try await controller.performFetch()
        #expect(try controller.fetchedObjects.map(\.name) == ["Café crème"])
    }
}
