import Entities
import Foundation
@_spi(Testing) import PostgreSQLSearch
import SeededRandom
import SQLiteStore
import Testing
import TestSupport

/// A searchable entity's import into its empty table on PostgreSQL is one bulk load (the indexes
/// built after the `COPY`, each row's grams computed in Swift, the counts added after it): it holds
/// what storing the records one at a time holds (rows, grams, gram counts, indexes, constraints, the
/// change log's entries), checked against the search's definitions, and the triggers keep it exact
/// for the writes after it. Records whose unique key an earlier record has update it (an import) or
/// are skipped (a seed), as one at a time.
struct SearchImportTests {
    static let cuisines = ["French", "Thai", "和食"]

    /// A dish as a JSON line, as an export writes it.
    static func line(_ dish: Dish) throws -> String {
        let object: [String: Any] = [
            "name": dish.name, "cuisine": dish.cuisine, "minutes": dish.minutes, "vegetarian": dish.vegetarian,
            "servings": dish.servings, "remarks": dish.remarks, "tasted": NSNull(),
        ]
        return String(decoding: try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys]), as: UTF8.self) + "\n"
    }

    /// What a table holds, comparable between two schemas: each query's rows (the schema's name left out).
    static func contents(_ db: some SQLConnection) throws -> [[[DatabaseValue]]] {
        try [
            "SELECT id, name, name_folded, cuisine, minutes FROM dishes ORDER BY id",
            "SELECT gram, scope, count FROM dishes_gram_counts WHERE count > 0 ORDER BY 1, 2",
            "SELECT replace(indexdef, current_schema(), '') FROM pg_indexes WHERE schemaname = current_schema() AND tablename = 'dishes' ORDER BY 1",
            "SELECT conname::text, pg_get_constraintdef(oid) FROM pg_constraint WHERE conrelid = to_regclass('dishes') ORDER BY 1",
            "SELECT row_id, kind FROM store_changes WHERE table_name = 'dishes' ORDER BY row_id, seq",
        ].map { try db.fetchRows(sql: $0, values: []) }
    }

    @Test func aBulkImportHoldsWhatStoringOneAtATimeHolds() throws {
        guard StoreEngine.all.contains(.postgreSQL) else { return }
        let directory = try TemporaryDirectory()
        var random = SplitMix64(seed: 0xB01C)
        let words = ["tarte", "café", "ラーメン", "pad", "x", "東京", "crème", "ß", "20", "a b"]
        var dishes = (0..<300).map { index in
            let name = (0..<Int.random(in: 1...4, using: &random)).map { _ in words[Int.random(in: 0..<words.count, using: &random)] }
            return Dish(name: name.joined(separator: " ") + " \(index)", cuisine: Self.cuisines[index % 3], minutes: index)
        }
        // Records whose name an earlier one has: each updates that record (a later one wins).
        for index in stride(from: 20, to: 300, by: 20) {
            dishes.insert(Dish(name: dishes[index / 2].name, cuisine: "Thai", minutes: 1_000 + index, remarks: "again"), at: index)
        }
        let path = directory.path("dishes.jsonl")
        try dishes.map(Self.line).joined().write(toFile: path, atomically: true, encoding: .utf8)
        let (imported, expected) = (try StoreEngine.postgreSQL.makeStore(), try StoreEngine.postgreSQL.makeStore())
        let schema = EntitySchema(identity: "org.example.kitchen.search", tables: [EntityTable(Dish.self)])
        for store in [imported, expected] { _ = try schema.migrate(store.writer) }

        let unique = Set(dishes.map(\.name)).count
        #expect(try Dish.importFile(path, into: imported.writer) == ImportReport(inserted: unique, updated: dishes.count - unique))
        // Its result: each name's last record, in the place of its first (logged once, as inserted).
        var merged: [Dish] = []
        var places: [String: Int] = [:]
        for dish in dishes {
            if let place = places[dish.name] { merged[place] = dish } else { places[dish.name] = merged.count; merged.append(dish) }
        }
        try expected.writer.write { db in
            for var dish in merged { try dish.insert(db) }
        }
        let search = PostgreSQLTextSearch(Dish.searchDescription)
        for step in ["import", "writes after"] {
            let (left, right) = try (imported.writer.read { db in try Self.contents(db) }, expected.writer.read { db in try Self.contents(db) })
            #expect(left == right, "\(step)")
            #expect(left[1].count > 50, "\(step)")
            for store in [imported, expected] { #expect(try store.writer.read { db in try search.check(db) } == [], "\(step)") }
            guard step == "import" else { break }
            for store in [imported, expected] {
                try store.writer.write { db in
                    for id in stride(from: 7, through: unique, by: 7) {
                        try Dish(id: Int64(id), name: "renamed \(id) 東", cuisine: "Thai", minutes: 1).update(db)
                    }
                    for id in stride(from: 5, through: unique, by: 5) { _ = try Dish.delete(id: Int64(id), db) }
                    var dish = Dish(name: "Új", cuisine: "French")
                    try dish.insert(db)
                }
            }
        }
        // A seed of the same file into an empty table skips the records whose name an earlier one has.
        let seeded = try StoreEngine.postgreSQL.makeStore()
        _ = try schema.migrate(seeded.writer)
        #expect(try Dish.seedFile(path, into: seeded.writer) == ImportReport(inserted: unique, skipped: dishes.count - unique))
        let firsts = try seeded.writer.read { db in try db.fetchRows(sql: "SELECT count(*) FROM dishes WHERE remarks = 'again'", values: []) }
        #expect(firsts == [[.integer(0)]])
        #expect(try seeded.writer.read { db in try search.check(db) } == [])
        // The unique name is a constraint again.
        #expect(throws: (any Error).self) {
            try imported.writer.write { db in var dish = Dish(name: dishes[1].name); try dish.insert(db) }
        }
    }
}
