import Entities
import FetchedResults
import Foundation
import RecordFormats
import SQLiteStore
import Testing
import TestSupport

/// Import, seed and export of a declared entity in every format, on real files.
struct EntityFilesTests {
    let directory: TemporaryDirectory
    let queue: DatabaseQueue

    init() throws {
        directory = try TemporaryDirectory()
        queue = try DatabaseQueue(path: directory.path())
        try Kitchen.now.migrate(queue)
    }

    func file(_ name: String, _ text: String) throws -> String {
        let path = directory.path(name)
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    static let csv = """
        name,cuisine,minutes,vegetarian,servings,remarks,tasted
        親子丼,Japanese,25,No,2,,2024-05-01T12:00:00+09:00
        Crème brûlée,French,60,YES,4,torch,

        """

    @Test func importReadsEveryKindAndUpdatesByTheUniqueKey() throws {
        let path = try file("dishes.csv", Self.csv)
        #expect(try Dish.importFile(path, into: queue) == ImportReport(inserted: 2))
        let dishes = try queue.read { db in try Dish.fetchAll(db) }
        #expect(dishes.map(\.name) == ["親子丼", "Crème brûlée"])
        #expect(dishes.map(\.vegetarian) == [false, true])
        #expect(dishes[0].tasted == Date(timeIntervalSince1970: 1_714_532_400) && dishes[1].tasted == nil)
        let changed = try file("changed.jsonl", #"{"name": "親子丼", "cuisine": "Japanese", "minutes": 30, "vegetarian": false, "servings": 1, "remarks": "", "tasted": null}"# + "\n")
        #expect(try Dish.importFile(changed, into: queue) == ImportReport(updated: 1))
        #expect(try queue.read { db in try Dish.fetchOne(id: 1, db)?.minutes } == 30)
        #expect(try Dish.seedFile(path, into: queue) == ImportReport(skipped: 2))
    }

    @Test func exportThenImportKeepingIDsGivesTheSameRows() throws {
        try Dish.importFile(try file("dishes.csv", Self.csv), into: queue)
        let before = try queue.read { db in try Dish.fetchAll(db) }
        for format in DataFormat.allCases {
            let path = directory.path("export.\(format.rawValue)")
            #expect(try Dish.exportFile(path, from: queue) == 2)
            let other = try DatabaseQueue(path: directory.path("copy-\(format.rawValue).sqlite"))
            try Kitchen.now.migrate(other)
            #expect(try Dish.importFile(path, keepingIDs: true, into: other) == ImportReport(inserted: 2))
            #expect(try other.read { db in try Dish.fetchAll(db) } == before, "\(format)")
        }
        let json = try String(contentsOfFile: directory.path("export.json"), encoding: .utf8)
        #expect(json.contains(#""tasted" : "2024-05-01T03:00:00Z""#) && json.contains(#""vegetarian" : true"#))
    }

    @Test func aBadRecordNamesFileLineColumnAndFieldAndWritesNothing() throws {
        let path = try file("bad.csv", Self.csv + "Miso soup,Japanese,ten,no,2,,\n")
        let error = #expect(throws: EntityFileError.self) { try Dish.importFile(path, into: queue) }
        #expect(error?.description == "\(path): line 4, column 3 (minutes): expected a whole number, found \"ten\"")
        #expect(try queue.read { db in try Dish.fetchCount(db) } == 0)
        let missing = #expect(throws: EntityFileError.self) { try Dish.importFile(directory.path("none.csv"), into: queue) }
        #expect(missing?.description.hasSuffix("none.csv: no such file") == true)
        let orphan = try file("steps.csv", "dishID,position,text\n7,1,Stir\n")
        let refused = #expect(throws: EntityFileError.self) { try DishStep.importFile(orphan, into: queue) }
        #expect(refused?.description.hasPrefix("\(orphan): line 2: ") == true)
    }

    /// Past the rows a bulk insert keeps its triggers for, the rows still reach the search
    /// structures (not named to the bulk insert, their triggers stay) and the change log.
    @Test func aLargeImportIsSearchedAndLogged() throws {
        let rows = (1...300).map { "Dish \($0),Cuisine \($0 % 7),\($0),no,2,,\n" }.joined()
        let path = try file("many.csv", "name,cuisine,minutes,vegetarian,servings,remarks,tasted\n" + rows)
        #expect(try Dish.importFile(path, into: queue) == ImportReport(inserted: 300))
        let controller = FetchedResultsController(request: FetchRequest<Dish>(searchText: "dish 277"), reader: queue)
        try controller.performFetch()
        #expect(try controller.fetchedObjects.map(\.name) == ["Dish 277"])
        let logged = try queue.read { db in try db.scalar(Int.self, sql: "SELECT count(*) FROM store_changes WHERE table_name = 'dishes'") }
        #expect(logged == 300)
        #expect(try Dish.importFile(path, into: queue) == ImportReport(updated: 300))
    }
}
