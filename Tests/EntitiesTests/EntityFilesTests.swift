import Entities
import FetchedResults
import Foundation
import RecordFormats
import SQLiteStore
import Testing
import TestSupport

/// Import, seed and export of a declared entity in every format, from and to real files, on each
/// engine.
struct EntityFilesTests {
    let directory: TemporaryDirectory
    let store: TestStore
    let engine: StoreEngine
    var queue: any StoreWriter { store.writer }

    init(_ engine: StoreEngine) throws {
        directory = try TemporaryDirectory()
        store = try Kitchen.store(engine)
        self.engine = engine
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

    @Test(arguments: StoreEngine.all) static func importReadsEveryKindAndUpdatesByTheUniqueKey(engine: StoreEngine) throws {
        try Self(engine).importReadsEveryKindAndUpdatesByTheUniqueKey()
    }

    func importReadsEveryKindAndUpdatesByTheUniqueKey() throws {
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

    @Test(arguments: StoreEngine.all) static func exportThenImportKeepingIDsGivesTheSameRows(engine: StoreEngine) throws {
        try Self(engine).exportThenImportKeepingIDsGivesTheSameRows()
    }

    func exportThenImportKeepingIDsGivesTheSameRows() throws {
        try Dish.importFile(try file("dishes.csv", Self.csv), into: queue)
        let before = try queue.read { db in try Dish.fetchAll(db) }
        for format in DataFormat.allCases {
            let path = directory.path("export.\(format.rawValue)")
            #expect(try Dish.exportFile(path, from: queue) == 2)
            let copy = try Kitchen.store(engine)
            let other = copy.writer
            #expect(try Dish.importFile(path, keepingIDs: true, into: other) == ImportReport(inserted: 2))
            #expect(try other.read { db in try Dish.fetchAll(db) } == before, "\(format)")
        }
        let json = try String(contentsOfFile: directory.path("export.json"), encoding: .utf8)
        #expect(json.contains(#""tasted" : "2024-05-01T03:00:00Z""#) && json.contains(#""vegetarian" : true"#))
    }

    @Test(arguments: StoreEngine.all) static func aBadRecordNamesFileLineColumnAndFieldAndWritesNothing(engine: StoreEngine) throws {
        try Self(engine).aBadRecordNamesFileLineColumnAndFieldAndWritesNothing()
    }

    func aBadRecordNamesFileLineColumnAndFieldAndWritesNothing() throws {
        let path = try file("bad.csv", Self.csv + "Miso soup,Japanese,ten,no,2,,\n")
        let error = #expect(throws: EntityFileError.self) { try Dish.importFile(path, into: queue) }
        #expect(error?.description == "\(path): line 4, column 3 (minutes): expected a whole number, found \"ten\"")
        #expect(try queue.read { db in try Dish.fetchCount(db) } == 0)
        let missing = #expect(throws: EntityFileError.self) { try Dish.importFile(directory.path("none.csv"), into: queue) }
        #expect(missing?.description.hasSuffix("none.csv: no such file") == true)
        let orphan = try file("steps.csv", "dishID,position,text\n7,1,Stir\n")
        try expectRefused(orphan, line: 2) { _ = try DishStep.importFile(orphan, into: queue) }
        #expect(try queue.read { db in try DishStep.fetchCount(db) } == 0)
    }

    /// A JSON lines file of many 64 KiB chunks, its last record bad: the error names the file, the
    /// record's line and the value's column in characters, and no record of the file is stored.
    @Test(arguments: StoreEngine.all) static func aBadRecordAfterManyChunksNamesItsLineAndWritesNothing(engine: StoreEngine) throws {
        try Self(engine).aBadRecordAfterManyChunksNamesItsLineAndWritesNothing()
    }

    func aBadRecordAfterManyChunksNamesItsLineAndWritesNothing() throws {
        let good = (1...3_000).map { number in
            #"{"name": "親子丼 \#(number)", "cuisine": "Japanese", "minutes": 25, "vegetarian": false, "servings": 2, "remarks": "", "tasted": null}"#
        }
        let badPrefix = #"{"name": "Crème brûlée", "cuisine": "French", "minutes": "#
        let path = try file("many.jsonl", (good + [badPrefix + #""ten", "vegetarian": true, "servings": 4, "remarks": "", "tasted": null}"#])
            .joined(separator: "\n") + "\n")
        let error = #expect(throws: EntityFileError.self) { try Dish.importFile(path, into: queue) }
        #expect(error?.description == "\(path): line 3001, column \(badPrefix.unicodeScalars.count + 1) (minutes): expected a number, found text \"ten\"")
        #expect(try queue.read { db in try Dish.fetchCount(db) } == 0)
    }

    /// `importing` fails on a record the table refuses (a foreign key) at `line` of `path`, on each
    /// engine: on PostgreSQL the rows are loaded with one COPY, which the server refuses whole, naming
    /// no row; the importer finds the record.
    func expectRefused(_ path: String, line: Int, _ importing: () throws -> Void) throws {
        let error = #expect(throws: (any Error).self) { try importing() }
        let refused = try #require(error as? EntityFileError, "\(error.map { "\($0)" } ?? "")")
        #expect(refused.description.hasPrefix("\(path): line \(line): ") && refused.kind == .invalid, "\(refused)")
        #expect(refused.description.contains("FOREIGN KEY constraint failed"), "\(refused)")
    }

    /// Past the rows a bulk insert keeps its triggers for, the rows still reach the search
    /// structures (not named to the bulk insert, their triggers stay) and the change log.
    @Test(arguments: StoreEngine.all) static func aLargeImportIsSearchedAndLogged(engine: StoreEngine) throws {
        try Self(engine).aLargeImportIsSearchedAndLogged()
    }

    func aLargeImportIsSearchedAndLogged() throws {
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

    /// An import into a table that had rows, past the rows a bulk insert keeps its triggers for
    /// (whose new names are looked up in the table as the queue goes in, in name order): a record
    /// whose name is stored updates that row (a seed skips it), a name given twice updates what the
    /// first gave, and new names get ids in file order without gaps, as a reference that applies the
    /// records one at a time by that definition says.
    @Test static func anImportIntoATableWithRowsMatchesARecordByRecordReference() throws {
        let test = try Self(.sqlite)
        let header = "name,cuisine,minutes,vegetarian,servings,remarks,tasted\n"
        func line(_ name: Int, _ minutes: Int) -> String { "Dish \(name),Cuisine \(name % 5),\(minutes),no,2,,\n" }
        var reference: [String: (id: Int64, minutes: Int)] = [:]
        var nextID: Int64 = 1
        func apply(_ records: [(name: Int, minutes: Int)], updating: Bool) -> ImportReport {
            var report = ImportReport()
            for record in records {
                let name = "Dish \(record.name)"
                if let stored = reference[name] {
                    if updating {
                        reference[name] = (stored.id, record.minutes)
                        report.updated += 1
                    } else {
                        report.skipped += 1
                    }
                } else {
                    reference[name] = (nextID, record.minutes)
                    nextID += 1
                    report.inserted += 1
                }
            }
            return report
        }
        func rows() throws -> [String] {
            try test.queue.read { db in try Dish.fetchAll(db) }.sorted { $0.id! < $1.id! }.map { "\($0.id!) \($0.name) \($0.minutes)" }
        }
        func expected() -> [String] {
            reference.sorted { $0.value.id < $1.value.id }.map { "\($0.value.id) \($0.key) \($0.value.minutes)" }
        }
        let first = (0..<150).map { (name: $0 * 2, minutes: $0) }
        let firstReport = apply(first, updating: true)
        #expect(try Dish.importFile(test.file("first.csv", header + first.map { line($0.name, $0.minutes) }.joined()), into: test.queue) == firstReport)
        // Names 0-499 in a scrambled order (211 is prime to 500): half of the even ones stored, and
        // every tenth record repeats the name of the one three before it.
        let second = (0..<400).map { index in (name: (index % 10 == 9 ? index - 3 : index) * 211 % 500, minutes: 1_000 + index) }
        let secondReport = apply(second, updating: true)
        #expect(secondReport.updated > 0 && secondReport.inserted > 100)
        #expect(try Dish.importFile(test.file("second.csv", header + second.map { line($0.name, $0.minutes) }.joined()), into: test.queue) == secondReport)
        #expect(try rows() == expected())
        let third = (0..<300).map { index in (name: index * 7 % 700, minutes: 2_000 + index) }
        let thirdReport = apply(third, updating: false)
        #expect(try Dish.seedFile(test.file("third.csv", header + third.map { line($0.name, $0.minutes) }.joined()), into: test.queue) == thirdReport)
        #expect(try rows() == expected())
        let logged = try test.queue.read { db in try db.scalar(Int.self, sql: "SELECT count(*) FROM store_changes WHERE table_name = 'dishes' AND kind = 1") }
        #expect(logged == reference.count)
    }

    /// Files of two entities in one call: each file's entity told by its fields, the progress
    /// called every `EntityFiles.progressInterval` records counted over both files (by that
    /// definition: 2,100 records call it at 1,000 and 2,000), one transaction for all.
    @Test(arguments: StoreEngine.all) static func filesOfSeveralEntitiesGoInOneTransactionWithProgress(engine: StoreEngine) throws {
        try Self(engine).filesOfSeveralEntitiesGoInOneTransactionWithProgress()
    }

    func filesOfSeveralEntitiesGoInOneTransactionWithProgress() throws {
        let dishes = try file("dishes.csv", "name,cuisine,minutes,vegetarian,servings,remarks,tasted\n"
            + (1...1_200).map { "Dish \($0),Cuisine \($0 % 7),\($0),no,2,,\n" }.joined())
        let steps = try file("steps.jsonl", (1...900).map { #"{"dishID": \#($0), "position": 1, "text": "Stir \#($0)"}"# + "\n" }.joined())
        let sources = try [steps, dishes].reversed().map { try EntitySource(path: $0, of: nil, among: [Dish.self, DishStep.self]) }
        #expect(sources.map { ObjectIdentifier($0.entity) } == [ObjectIdentifier(Dish.self), ObjectIdentifier(DishStep.self)])
        var calls: [Int] = []
        let report = try EntityFiles.importSources(sources, progress: { calls.append($0) }, into: queue)
        #expect(calls == [1_000, 2_000])
        #expect(report[Dish.self] == ImportReport(inserted: 1_200) && report[DishStep.self] == ImportReport(inserted: 900))
        #expect(report.total == ImportReport(inserted: 2_100))
        #expect(try queue.read { db in try DishStep.fetchOne(id: 900, db)?.dishID } == 900)

        // Seeding the same files again skips the dishes (by their unique name) and adds the steps,
        // which have no unique key.
        let again = try EntityFiles.importSources(
            try [dishes, steps].map { try EntitySource(path: $0, of: nil, among: [Dish.self, DishStep.self]) }, conflicts: .skip, into: queue)
        #expect(again[Dish.self] == ImportReport(skipped: 1_200) && again[DishStep.self] == ImportReport(inserted: 900))
    }

    @Test(arguments: StoreEngine.all) static func aBadRecordInTheLastFileWritesNothingOfAnyFile(engine: StoreEngine) throws {
        try Self(engine).aBadRecordInTheLastFileWritesNothingOfAnyFile()
    }

    func aBadRecordInTheLastFileWritesNothingOfAnyFile() throws {
        let dishes = try file("dishes.csv", Self.csv)
        // The first record refused, among several, on the line it is (two dishes: ids 1 and 2).
        let steps = try file("steps.csv", "dishID,position,text\n1,1,Stir\n2,1,Fold\n9,1,Fold\n1,2,Serve\n7,1,Rest\n")
        try expectRefused(steps, line: 4) {
            _ = try EntityFiles.importSources([try EntitySource(path: dishes, of: Dish.self), try EntitySource(path: steps, of: DishStep.self)], into: queue)
        }
        #expect(try queue.read { db in try Dish.fetchCount(db) + DishStep.fetchCount(db) } == 0)

        // A file of the other entity, given as dishes, is said to be of it.
        let misread = #expect(throws: EntityFileError.self) {
            try EntityFiles.importSources([try EntitySource(path: steps, of: Dish.self, among: [Dish.self, DishStep.self])], into: queue)
        }
        #expect(misread?.kind == .otherEntity(table: "dish_steps", expected: "dishes", line: 2, record: nil))
        #expect(misread?.description == "\(steps): line 2: record has the fields of DishStep, not of Dish")
    }

    /// A label of a dish: a unique code and a reference, so that an import queues its new rows in
    /// the order of their codes and inserts them later, after records read since.
    struct DishLabel: DeclaredEntity, Hashable {
        var id: Int64?
        var code: String
        var dishID: Int64
        static let declaration = EntityDeclaration<DishLabel>(
            table: "dish_labels", template: DishLabel(code: "", dishID: 0), folding: { $0 },
            attributes: [.text("code", \.code, unique: true), .reference("dishID", \.dishID, to: Dish.self, onDelete: .cascade)])
    }

    @Test(arguments: StoreEngine.all) static func aRefusedRecordOfAnEntityWithAKeyIsNamedByItsOwnLine(engine: StoreEngine) throws {
        try Self(engine).aRefusedRecordOfAnEntityWithAKeyIsNamedByItsOwnLine()
    }

    /// Line 3's dish does not exist: the import names line 3, whether its row goes in at the end or
    /// when a later record (line 5, a code given again) makes the rows read so far go in.
    func aRefusedRecordOfAnEntityWithAKeyIsNamedByItsOwnLine() throws {
        try EntitySchema(identity: "org.example.labels", tables: [EntityTable(DishLabel.self)]).migrate(queue)
        #expect(try Dish.importFile(try file("dishes.csv", Self.csv), into: queue) == ImportReport(inserted: 2))
        let atTheEnd = try file("labels.csv", "code,dishID\na,1\nb,9\nc,2\n")
        try expectRefused(atTheEnd, line: 3) { _ = try DishLabel.importFile(atTheEnd, into: queue) }
        let meanwhile = try file("again.csv", "code,dishID\na,1\nb,9\nc,2\na,2\n")
        try expectRefused(meanwhile, line: 3) { _ = try DishLabel.importFile(meanwhile, into: queue) }
        #expect(try queue.read { db in try DishLabel.fetchCount(db) } == 0)
    }
}
