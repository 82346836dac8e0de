import Entities
import FetchedResults
import Foundation
import PostgreSQLStore
import SQLiteStore
import Testing
import TestSupport

/// Importing a declared entity into a store of either engine through ``EntityCopyImporter`` (new
/// rows by one `COPY` on PostgreSQL) gives the rows, ids and report that storing the records one at
/// a time gives: the reference applies the import's rules (a record whose unique key is stored
/// updates that row, or is skipped; another is inserted) with `insert` and `update`.
struct CopyImportTests {
    let directory: TemporaryDirectory

    init() throws { directory = try TemporaryDirectory() }

    /// A record as a JSON line, as an export writes it.
    static func line(_ jar: Jar) throws -> String {
        var object: [String: Any] = [
            "label": jar.label, "shelf": jar.shelf, "grams": jar.grams, "sealed": jar.sealed, "servings": jar.servings,
            "remarks": jar.remarks, "opened": NSNull(),
        ]
        if let opened = jar.opened { object["opened"] = ISO8601DateFormatter().string(from: opened) }
        if let id = jar.id { object["id"] = id }
        return String(decoding: try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys]), as: UTF8.self) + "\n"
    }

    func file(_ name: String, _ jars: [Jar]) throws -> String {
        let path = directory.path(name)
        try jars.map(Self.line).joined().write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    /// The import's rules, one record at a time.
    static func reference(_ jars: [Jar], conflicts: ImportConflicts, _ store: any StoreWriter) throws -> ImportReport {
        var report = ImportReport()
        for var jar in jars {
            try store.write { db in
                if let stored = try Jar.fetchAll(db).first(where: { $0.label == jar.label }) {
                    guard conflicts == .update else { report.skipped += 1; return }
                    jar.id = stored.id
                    try jar.update(db)
                    report.updated += 1
                } else {
                    try jar.insert(db)
                    report.inserted += 1
                }
            }
        }
        return report
    }

    static let first = [
        Jar(label: "Honey", shelf: "Top", grams: 300, sealed: true),
        Jar(label: "Jam", shelf: "Top", grams: 200, remarks: "tab\there, back\\slash, new\nline, quote \" and é 漢字"),
        Jar(label: "Honey", shelf: "Low", grams: 310, remarks: "again"),  // the key of a record before it
        Jar(label: "Salt", grams: 1000, servings: 9, opened: Date(timeIntervalSince1970: 1_714_532_400)),
        Jar(label: "Tea", shelf: "Low", grams: 0),
    ]
    static let second = [
        Jar(label: "Jam", shelf: "Side", grams: 150),  // a stored key
        Jar(label: "Oil", grams: 500),
        Jar(label: "Oil", grams: 450),
        Jar(label: "Rice", shelf: "Low", grams: 2000),
    ]

    @Test(arguments: StoreEngine.all) func importingGivesWhatStoringOneAtATimeGives(engine: StoreEngine) throws {
        let imported = try engine.makeStore()
        let expected = try engine.makeStore()
        for store in [imported, expected] { try Pantry.now.migrate(store.writer) }

        for (name, jars, conflicts) in [("first.jsonl", Self.first, ImportConflicts.update), ("second.jsonl", Self.second, .update), ("again.jsonl", Self.second, .skip)] {
            let report = try Jar.importFile(try file(name, jars), conflicts: conflicts, into: imported.writer)
            #expect(report == (try Self.reference(jars, conflicts: conflicts, expected.writer)), "\(name)")
            let rows = try imported.writer.read { db in try Jar.fetchAll(db) }
            #expect(rows == (try expected.writer.read { db in try Jar.fetchAll(db) }), "\(name)")
            // The jars' counts by shelf (a sectioned index), counted after the bulk load on PostgreSQL.
            #expect(try imported.writer.read { db in try SectionCounts.problems(db) } == [], "\(name)")
            #expect(try imported.writer.read { db in try SectionCounts.countedSections(ofTable: "jars", db) }.count == 1)
        }
        #expect(try imported.writer.read { db in try Jar.fetchCount(db) } == 6)
    }

    @Test(arguments: StoreEngine.all) func aBadRecordWritesNothing(engine: StoreEngine) throws {
        let store = try engine.makeStore()
        try Pantry.now.migrate(store.writer)
        let path = try file("bad.jsonl", [Jar(label: "Honey"), Jar(label: "Bad", grams: -1)])  // grams' CHECK refuses it
        #expect(throws: (any Error).self) { try Jar.importFile(path, into: store.writer) }
        #expect(try store.writer.read { db in try Jar.fetchCount(db) } == 0)
    }

    /// An import into an empty table (PostgreSQL logs its rows in one statement after the `COPY`,
    /// its trigger disabled meanwhile) gives a tracking controller every row, and the trigger logs
    /// the writes after it.
    @Test(arguments: StoreEngine.all) func aLiveControllerSeesAnImportIntoAnEmptyTableAndWritesAfterIt(engine: StoreEngine) throws {
        let store = try engine.makeStore()
        try Pantry.now.migrate(store.writer)
        let request = FetchRequest<Jar>(sortDescriptors: [SortDescriptor(\.label)], sectionKeyPath: \Jar.shelf)
        let controller = FetchedResultsController(request: request, reader: store.writer)
        try controller.performFetch()
        try controller.startTracking()
        let jars = (0..<40).map { Jar(label: "jar \($0)", shelf: ["Top", "Low"][$0 % 2], grams: $0) }
        for change in [{ _ = try Jar.importFile(try file("jars.jsonl", jars), into: store.writer) },
                       { try store.writer.write { db in var jar = Jar(label: "after", grams: 1); try jar.insert(db) } }] {
            let before = try #require(controller.trackedSnapshot)
            try change()
            let applied = try before.applying(try controller.applyPendingChanges())
            let fresh = FetchedResultsController(request: request, reader: store.writer)
            try fresh.performFetch()
            #expect(applied == (try fresh.snapshot()))
            #expect(try store.writer.read { db in try SectionCounts.problems(db) } == [])
        }
        #expect(try controller.fetchedObjects.count == 41)
    }

    /// A schema of its own on the test primary with the pantry's tables, and a cluster on it.
    static func pantryOnPostgreSQL() throws -> (TestSchema, PostgreSQLCluster) {
        let schema = try TestSchema()
        let cluster = try PostgreSQLCluster(PostgreSQLConfiguration(primary: schema.primary))
        try Pantry.now.migrate(cluster)
        return (schema, cluster)
    }

    /// A streamed import into an empty table given up half-way (a bad record read after 3,000 good
    /// ones) aborts its `COPY` at once rather than ending it and building the indexes: the
    /// transaction is failed (it holds none of the rows), and once rolled back the table is empty,
    /// its indexes there, the connection free for the next write.
    @Test func anAbandonedStreamedImportAbortsItsCopy() throws {
        guard StoreEngine.all.contains(.postgreSQL) else { return }
        let (schema, cluster) = try Self.pantryOnPostgreSQL()
        defer { cluster.close(); withExtendedLifetime(schema) {} }  // the schema is dropped when it goes
        let db = try schema.connect()
        struct BadRecord: Error {}
        var readAfter: Result<[[DatabaseValue]], any Error>?
        #expect(throws: BadRecord.self) {
            try db.inTransaction(writing: true) {
                let importer = try EntityCopyImporter<Jar, PostgreSQLConnection>(db, conflicts: .update)
                for index in 0..<3_000 { try importer.add(Jar(label: "jar \(index)")) }
                importer.abandon()
                importer.abandon()
                readAfter = Result { try db.fetchRows(sql: "SELECT count(*) FROM jars", values: []) }
                throw BadRecord()
            }
        }
        // The transaction failed with the aborted COPY: it reads nothing more (an ended COPY would
        // have left its 3,000 rows to count).
        #expect(throws: PostgreSQLError.self) { try readAfter?.get() }
        #expect(try db.fetchRows(sql: "SELECT count(*) FROM jars", values: []) == [[.integer(0)]])
        let indexes = try db.fetchRows(sql: "SELECT count(*) FROM pg_indexes WHERE schemaname = current_schema() AND tablename = 'jars'", values: [])
        #expect(indexes != [[.integer(0)]])
        try cluster.write { db in var jar = Jar(label: "after"); try jar.insert(db) }
        #expect(try cluster.read { db in try Jar.fetchCount(db) } == 1)
    }

    /// An importer dropped while its bulk load streams (neither `insertPending()` nor `abandon()`
    /// called) abandons it: its thread ends and the `COPY` is aborted before the drop returns, as
    /// another session sees the connection (no longer running a statement).
    @Test func aDroppedImporterEndsItsBulkLoad() throws {
        guard StoreEngine.all.contains(.postgreSQL) else { return }
        let (schema, cluster) = try Self.pantryOnPostgreSQL()
        defer { cluster.close(); withExtendedLifetime(schema) {} }  // the schema is dropped when it goes
        let db = try schema.connect()
        try db.execute(sql: "BEGIN", values: [])
        let pid = try db.fetchRows(sql: "SELECT pg_backend_pid()", values: [])[0][0]
        var importer: EntityCopyImporter<Jar, PostgreSQLConnection>? = try EntityCopyImporter(db, conflicts: .update)
        for index in 0..<3_000 { try importer?.add(Jar(label: "jar \(index)")) }
        importer = nil
        // A COPY still running would be "active", its thread waiting for rows forever: its session
        // is then ended from outside (its locks would keep the schema from being dropped).
        let other = try schema.connect()
        let state = try other.fetchRows(sql: "SELECT state FROM pg_stat_activity WHERE pid = ?", values: [pid])
        guard state == [[.text("idle in transaction (aborted)")]] else {
            Issue.record("the dropped importer's connection is \(state), not idle in an aborted transaction")
            _ = try other.fetchRows(sql: "SELECT pg_terminate_backend(?)", values: [pid])
            return
        }
        try db.execute(sql: "ROLLBACK", values: [])
        #expect(try db.fetchRows(sql: "SELECT count(*) FROM jars", values: []) == [[.integer(0)]])
    }

    /// Ids a file keeps do not come back as the ids of rows added later, in the same import or after:
    /// as on SQLite, a new row's id is one more than the largest stored (PostgreSQL's identity
    /// sequence is moved up to it).
    @Test(arguments: StoreEngine.all) func idsKeptFromAFileAreNotGivenAgain(engine: StoreEngine) throws {
        let store = try engine.makeStore()
        try Pantry.now.migrate(store.writer)
        var kept = [Jar(label: "Honey"), Jar(label: "Jam"), Jar(label: "Salt"), Jar(label: "Tea")]
        for (index, id) in [3, 1, 2, 40].enumerated() { kept[index].id = Int64(id) }
        let path = try file("kept.jsonl", Array(kept[0..<3]) + [Jar(label: "Oil")] + [kept[3], Jar(label: "Rice")])
        #expect(try Jar.importFile(path, keepingIDs: true, into: store.writer) == ImportReport(inserted: 6))
        var added = Jar(label: "Flour")
        try store.writer.write { db in try added.insert(db) }
        let ids = try store.writer.read { db in try Jar.fetchAll(db) }.map { ($0.label, $0.id ?? 0) }
        #expect(ids.map(\.0) == ["Jam", "Salt", "Honey", "Oil", "Tea", "Rice", "Flour"])
        #expect(ids.map(\.1) == [1, 2, 3, 4, 40, 41, 42])

        // An import with lower ids than the stored ones leaves the numbering where it is.
        var low = Jar(label: "Sugar")
        low.id = 10
        #expect(try Jar.importFile(try file("low.jsonl", [low]), keepingIDs: true, into: store.writer) == ImportReport(inserted: 1))
        var next = Jar(label: "Yeast")
        try store.writer.write { db in try next.insert(db) }
        #expect(next.id == 43)
    }
}
