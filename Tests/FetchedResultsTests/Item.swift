import FetchedResults
import Foundation
import SQLiteStore
import TestSupport

/// A test entity covering each kind of column: text, optional text, integers, reals, booleans.
struct Item: FetchableEntity, Hashable {
    var id: Int64?
    var name: String
    var nick: String?
    var score: Int
    var price: Double
    var flag: Bool

    static var tableName: String { "items" }
    static var selection: String { "id, name, nick, score, price, flag" }
    var rowID: Int64? { id }

    static func column(for keyPath: PartialKeyPath<Item>) -> EntityColumn? {
        switch keyPath {
        case \Item.id: EntityColumn("id")
        case \Item.name: EntityColumn("name", sortedBy: "lower(name)", sectionedBy: "upper(substr(name, 1, 1))")
        case \Item.nick: EntityColumn("nick")
        case \Item.score: EntityColumn("score")
        case \Item.price: EntityColumn("price")
        case \Item.flag: EntityColumn("flag")
        default: nil
        }
    }

    init(id: Int64? = nil, name: String, nick: String?, score: Int, price: Double, flag: Bool) {
        (self.id, self.name, self.nick, self.score, self.price, self.flag) = (id, name, nick, score, price, flag)
    }

    init(row: Row) throws {
        self.init(
            id: try row.decode(Int64.self, at: 0), name: try row.decode(String.self, at: 1),
            nick: try row.decode(String?.self, at: 2), score: try row.decode(Int.self, at: 3),
            price: try row.decode(Double.self, at: 4), flag: try row.decode(Bool.self, at: 5))
    }
}

/// A fresh store of items on an engine (``StoreEngine``: a temporary SQLite file, or a schema of its
/// own on the test PostgreSQL primary), removed when the value is dropped.
final class ItemDatabase {
    let engine: StoreEngine
    let store: TestStore
    private(set) var items: [Item] = []

    init(engine: StoreEngine = .sqlite) throws {
        self.engine = engine
        store = try engine.makeStore()
        try store.writer.write { db in
            let dialect = db.dialect
            let text = dialect == .postgreSQL ? "text COLLATE \"C\"" : "TEXT"
            try db.execute(
                sql: """
                    CREATE TABLE items (
                        id \(dialect.integerPrimaryKey), name \(text) NOT NULL, nick \(text),
                        score \(dialect.columnType(.integer)) NOT NULL, price \(dialect.columnType(.real)) NOT NULL,
                        flag \(dialect.columnType(.integer)) NOT NULL)\(dialect.strictTableSuffix);
                    CREATE INDEX items_by_name ON items(upper(substr(name, 1, 1)), lower(name), id);
                    """, values: [])
        }
    }

    /// The store: what a controller reads.
    var writer: any StoreWriter { store.writer }

    /// The SQLite store, for a test of SQLite's own machinery (a pool on the file, its change monitor).
    var queue: DatabaseQueue {
        guard let queue = store.writer as? DatabaseQueue else { preconditionFailure("a test of SQLite's own machinery ran on \(engine)") }
        return queue
    }

    /// A reader that reads beside the writer: a pool on SQLite's file, the cluster (its replicas) on
    /// PostgreSQL.
    func concurrentReader() throws -> any StoreReader {
        switch engine {
        case .sqlite: try DatabasePool(path: queue.path, maximumReaderCount: 2)
        case .postgreSQL: store.writer
        }
    }

    /// Installs the engine's change log and its tracking of `items`.
    func trackChanges() throws {
        try store.writer.writeWithoutTransaction { db in
            switch db.dialect {
            case .sqlite:
                try db.execute(sql: ChangeLog.installationSQL() + ChangeLog.trackingSQL(forTable: "items"), values: [])
            case .postgreSQL:
                try db.execute(sql: PostgreSQLChangeLogSchema.installationSQL + ";\n" + PostgreSQLChangeLogSchema.trackingSQL(forTable: "items"), values: [])
            }
        }
    }

    /// Inserts items and keeps them, with their ids, in ``items``.
    func insert(_ new: [Item]) throws {
        let added = try store.writer.write { db in try Self.insert(new, db) }
        items += added
    }

    /// Inserts items on `db` and gives them with their ids.
    static func insert(_ new: [Item], _ db: some SQLConnection) throws -> [Item] {
        try new.map { item in
            var item = item
            let ids = try db.fetchRows(
                sql: "INSERT INTO items(name, nick, score, price, flag) VALUES (?, ?, ?, ?, ?) RETURNING id",
                values: [item.name.databaseValue, item.nick.databaseValue, item.score.databaseValue, item.price.databaseValue, item.flag.databaseValue])
            guard case .integer(let id) = ids.first?.first else { throw DatabaseError(resultCode: .SQLITE_ERROR, message: "no id returned") }
            item.id = id
            return item
        }
    }

    /// `count` random items: short names over a small alphabet (so that ties and substrings are
    /// common), nil nicks one time in three, small numbers.
    static func randomItems(_ count: Int, seed: UInt64) -> [Item] {
        var random = SplitMix64(seed: seed)
        let letters = Array("abcAB é")
        func word() -> String { String((0..<Int.random(in: 1...4, using: &random)).map { _ in letters.randomElement(using: &random)! }) }
        return (0..<count).map { _ in
            Item(
                name: word(), nick: Int.random(in: 0..<3, using: &random) == 0 ? nil : word(),
                score: Int.random(in: -5...5, using: &random), price: Double(Int.random(in: 0...20, using: &random)) / 4,
                flag: Bool.random(using: &random))
        }
    }

    /// The ids of the items matching `predicate`, as the engine finds them.
    func ids(matching predicate: Predicate<Item>) throws -> Set<Int64> {
        let controller = FetchedResultsController(request: FetchRequest(predicate: predicate), reader: writer)
        try controller.performFetch()
        return Set(try controller.fetchedObjects.map { $0.id! })
    }
}
