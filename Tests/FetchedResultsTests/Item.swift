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

/// A temporary database of items, deleted with its folder when the value is dropped.
final class ItemDatabase {
    let directory: URL
    let queue: DatabaseQueue
    private(set) var items: [Item] = []

    init() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("frc-tests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        queue = try DatabaseQueue(path: directory.appendingPathComponent("items.sqlite").path)
        try queue.write { db in
            try db.execute(sql: """
                CREATE TABLE items (
                    id INTEGER PRIMARY KEY, name TEXT NOT NULL, nick TEXT, score INTEGER NOT NULL,
                    price REAL NOT NULL, flag INTEGER NOT NULL) STRICT;
                CREATE INDEX items_by_name ON items(upper(substr(name, 1, 1)), lower(name), id);
                """)
        }
    }

    deinit {
        try? queue.close()
        try? FileManager.default.removeItem(at: directory)
    }

    /// Inserts items and keeps them, with their ids, in ``items``.
    func insert(_ new: [Item]) throws {
        try queue.write { db in
            for var item in new {
                try db.execute(
                    sql: "INSERT INTO items(name, nick, score, price, flag) VALUES (?, ?, ?, ?, ?)",
                    arguments: [item.name, item.nick, item.score, item.price, item.flag])
                item.id = db.lastInsertedRowID
                items.append(item)
            }
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

    /// The ids of the items matching `predicate`, as SQLite finds them.
    func ids(matching predicate: Predicate<Item>) throws -> Set<Int64> {
        let controller = FetchedResultsController(request: FetchRequest(predicate: predicate), reader: queue)
        try controller.performFetch()
        return Set(try controller.fetchedObjects.map { $0.id! })
    }
}
