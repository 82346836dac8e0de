import Entities
import FetchedResults
import Foundation
import SQLiteStore
import Testing
import TestSupport

/// An entity with an attribute of every kind decoding reads: each library column type and its
/// optional, enumerations (with text and integer raw values, and optional), a date, data, a type of
/// its own read straight from the statement, and a computed property (set through its key path,
/// having no offset in the struct).
private struct Sample: DeclaredEntity, Hashable {
    enum Shade: String, DatabaseValueConvertible { case light, dark }
    enum Level: Int, DatabaseValueConvertible { case low = 1, high = 2 }

    /// A value of its own that reads straight from a statement's column: an integer, doubled in memory.
    struct Twice: Hashable, DatabaseValueConvertible, StatementColumnConvertible {
        var doubled: Int64
        var databaseValue: DatabaseValue { .integer(doubled / 2) }
        static func fromDatabaseValue(_ value: DatabaseValue) -> Twice? {
            guard case .integer(let integer) = value else { return nil }
            return Twice(doubled: integer * 2)
        }
        init(doubled: Int64) { self.doubled = doubled }
        init?(sqliteStatement: SQLiteStatement, index: Int32) {
            guard let integer = Int64(sqliteStatement: sqliteStatement, index: index) else { return nil }
            doubled = integer * 2
        }
    }

    var id: Int64?
    var text = ""
    var int = 0
    var int64: Int64 = 0
    var double = 0.0
    var bool = false
    var optionalText: String?
    var optionalInt: Int?
    var optionalInt64: Int64?
    var optionalDouble: Double?
    var optionalBool: Bool?
    var shade = Shade.light
    var date = Date(timeIntervalSince1970: 0)
    var data: Data?
    var twice = Twice(doubled: 0)
    var cents = 0
    var level = Level.low
    var optionalShade: Shade?

    /// A computed property: `cents` as a number of whole units.
    var units: Int {
        get { cents / 100 }
        set { cents = newValue * 100 }
    }

    static let declaration = EntityDeclaration<Sample>(
        table: "samples", template: Sample(), folding: { $0.lowercased() },
        attributes: [
            .text("text", \.text), .value("int", \.int), .value("int64", \.int64), .value("double", \.double),
            .value("bool", \.bool), .value("optionalText", \.optionalText), .value("optionalInt", \.optionalInt),
            .value("optionalInt64", \.optionalInt64), .value("optionalDouble", \.optionalDouble),
            .value("optionalBool", \.optionalBool), .value("shade", \.shade), .value("date", \.date),
            .value("data", \.data), .value("twice", \.twice), .value("units", \.units), .value("level", \.level),
            .value("optionalShade", \.optionalShade),
        ])

    /// Written by hand (no STRICT: a test stores values of the wrong type).
    static let schemaSQL = """
        CREATE TABLE samples (
            id INTEGER PRIMARY KEY, text, int, int64, double, bool, optional_text, optional_int, optional_int64,
            optional_double, optional_bool, shade, date, data, twice, units, level, optional_shade
        )
        """
}

struct DecodingTests {
    let directory: TemporaryDirectory
    let queue: DatabaseQueue

    init() throws {
        directory = try TemporaryDirectory()
        queue = try DatabaseQueue(path: directory.path())
        try queue.write { db in try db.execute(sql: Sample.schemaSQL) }
    }

    /// Rows written with literal SQL (not through the declaration) read as the values they hold.
    @Test func everyKindOfColumnReadsAsWritten() throws {
        try queue.write { db in
            try db.execute(sql: """
                INSERT INTO samples VALUES
                    (1, 'Straße 東京', -7, 9007199254740993, 2.5, 1, 'é', 42, -9007199254740993, -0.25, 0,
                     'dark', 86400.5, x'00ff', 21, 3, 2, 'light'),
                    (2, '', 0, 0, 0.0, 0, NULL, NULL, NULL, NULL, NULL, 'light', 0, NULL, 0, 0, 1, NULL)
                """)
        }
        let samples = try queue.read { db in try Sample.fetchAll(db) }
        var full = Sample(id: 1)
        full.text = "Straße 東京"
        full.int = -7
        full.int64 = 9_007_199_254_740_993
        full.double = 2.5
        full.bool = true
        full.optionalText = "é"
        full.optionalInt = 42
        full.optionalInt64 = -9_007_199_254_740_993
        full.optionalDouble = -0.25
        full.optionalBool = false
        full.shade = .dark
        full.date = Date(timeIntervalSince1970: 86_400.5)
        full.data = Data([0, 255])
        full.twice = Sample.Twice(doubled: 42)
        full.cents = 300
        full.level = .high
        full.optionalShade = .light
        #expect(samples == [full, Sample(id: 2)])
    }

    @Test func whatIsInsertedReadsBackEqual() throws {
        var sample = Sample(text: "x", int: .max, int64: .min, double: -1e300, bool: true, optionalText: "", optionalInt: 0,
                            shade: .dark, date: Date(timeIntervalSince1970: -5), data: Data([1]), twice: Sample.Twice(doubled: 8),
                            level: .high, optionalShade: .dark)
        sample.units = 7
        try queue.write { db in try sample.insert(db) }
        #expect(try queue.read { db in try Sample.fetchOne(id: sample.id!, db) } == sample)
    }

    /// Every row read by a controller without a batch size (the whole result in one pass, cut into
    /// sections) equals the same rows read one by one.
    @Test func aWholeResultReadsEveryRowInItsSection() throws {
        try queue.write { db in
            for index in 0..<30 {
                var sample = Sample(text: "t\(index)", int: index % 3, optionalInt: index % 2 == 0 ? index : nil)
                try sample.insert(db)
            }
        }
        let controller = FetchedResultsController(
            request: FetchRequest<Sample>(sortDescriptors: [SortDescriptor(\.text)], sectionKeyPath: \Sample.int),
            reader: queue)
        try controller.performFetch()
        #expect(controller.sections.map(\.numberOfObjects) == [10, 10, 10])
        for section in 0..<3 {
            let expected = try queue.read { db in
                try db.fetchAll(sql: "SELECT \(Sample.selection) FROM samples WHERE int = ? ORDER BY text, id", arguments: [section]) {
                    try Sample(row: $0)
                }
            }
            #expect(try controller.objects(inSection: section) == expected)
        }
        #expect(try controller.fetchedObjects.count == 30)
    }

    @Test func nullInANonOptionalColumnIsAClearError() throws {
        try queue.write { db in
            try db.execute(sql: "INSERT INTO samples VALUES (1, 'a', NULL, 0, 0, 0, NULL, NULL, NULL, NULL, NULL, 'light', 0, NULL, 0, 0, 1, NULL)")
        }
        let error = try #require(throws: DatabaseError.self) { try queue.read { db in try Sample.fetchAll(db) } }
        #expect(error.resultCode == .SQLITE_MISMATCH)
        #expect(error.message == "could not read column 2 (int) as Int: found NULL")
    }

    @Test(arguments: [
        ("text", "1", "could not read column 1 (text) as String: found INTEGER"),
        ("int", "'seven'", "could not read column 2 (int) as Int: found TEXT"),
        ("double", "'x'", "could not read column 4 (double) as Double: found TEXT"),
        ("optional_int", "2.5", "could not read column 7 (optional_int) as Optional<Int>: found REAL"),
        ("shade", "'grey'", "could not read column 11 (shade) as Shade: found TEXT"),
        ("twice", "'two'", "could not read column 14 (twice) as Twice: found TEXT"),
        ("units", "x'01'", "could not read column 15 (units) as Int: found BLOB"),
        ("shade", "NULL", "could not read column 11 (shade) as Shade: found NULL"),
        ("level", "3", "could not read column 16 (level) as Level: found INTEGER"),
        ("level", "'high'", "could not read column 16 (level) as Level: found TEXT"),
        ("optional_shade", "'grey'", "could not read column 17 (optional_shade) as Optional<Shade>: found TEXT"),
        ("optional_shade", "1", "could not read column 17 (optional_shade) as Optional<Shade>: found INTEGER"),
    ])
    func aValueOfTheWrongTypeIsAClearError(column: String, value: String, message: String) throws {
        try queue.write { db in
            try db.execute(sql: "INSERT INTO samples(id, text, int, int64, double, bool, shade, date, twice, units, level) VALUES (1, 'a', 0, 0, 0, 0, 'light', 0, 0, 0, 1)")
            try db.execute(sql: "UPDATE samples SET \(column) = \(value)")
        }
        let error = try #require(throws: DatabaseError.self) { try queue.read { db in try Sample.fetchAll(db) } }
        #expect(error.resultCode == .SQLITE_MISMATCH)
        #expect(error.message == message)
    }
}
