// W4 and W5 on PostgreSQL, ours against what a PostgreSQL user writes, on the same server in one run,
// over `count` products of catalog-bench's generator (a declared entity that logs its changes,
// loaded by `importFile`, its COPY).
//
//   pg-live-bench PRIMARY-URL FOLDER [COUNT] [--runs N] [--reuse]
//
// W4: another process (this binary, `--child writer URL RUN`) commits an insert, a rename and a
// delete in one transaction and prints the CLOCK_MONOTONIC time just after COMMIT returned; this
// process, woken by the change log's NOTIFY on a connection that LISTENs, reads what changed, and
// the time is taken when it holds it. **ours**: a `FetchedResultsController` (sections by type,
// batch size 50) tracking the table: `applyPendingChanges()` returns the change set. **peer**: the
// same wake-up, then `SELECT` of the sections' counts (`GROUP BY type`) and the first 50 rows in
// list order, as a PostgreSQL user refreshes a screen. The wake-up alone (commit → NOTIFY received),
// which both contenders wait for, is printed below the table.
// W5: open and read the sections with their counts and the first 50 rows. **ours**: a
// `PostgreSQLCluster`, the same controller's `performFetch()` and `object(at:)` × 50. **peer**: a
// libpq connection (`PostgreSQLConnection`) and those two queries.
// --reuse keeps the table of an earlier run with the same COUNT (schema `w45_<count>`).
import BenchmarkSupport
import Entities
import FetchedResults
import Foundation
import PostgreSQLBenchSupport
import PostgreSQLStore

func url(_ primary: String, _ schema: String) -> String { DeclaredProduct.url(primary, schema: schema) }

let arguments = CommandLine.arguments
if arguments.count == 5, arguments[1] == "--child", arguments[2] == "writer", let run = Int(arguments[4]) {
    // The writer: one transaction, as W4's on SQLite (an insert, a rename, a delete); the inserted
    // name holds the process id, so that a run with --reuse inserts no name twice.
    let db = try PostgreSQLConnection(url: arguments[3])
    try db.inTransaction {
        try db.execute(sql: "INSERT INTO products (type, name, name_folded, year_introduced, intro_price) VALUES ('phone', $1, $2, 2026, 1)",
                       arguments: [.text("Live \(run) \(getpid())"), .text("live \(run) \(getpid())")])
        try db.execute(sql: "UPDATE products SET name = name || ' x', name_folded = name_folded || ' x' WHERE id = $1", arguments: [.integer(Int64(run * 7 + 1))])
        try db.execute(sql: "DELETE FROM products WHERE id = $1", arguments: [.integer(Int64(run * 7 + 2))])
    }
    print("COMMITTED \(MonotonicTime.nanoseconds())")
    exit(0)
}
guard arguments.count >= 3 else {
    FileHandle.standardError.write(Data("usage: pg-live-bench PRIMARY-URL FOLDER [COUNT] [--runs N] [--reuse]\n".utf8))
    exit(64)
}
let primary = arguments[1]
let count = arguments.count > 3 ? Int(arguments[3]) ?? 1_000_000 : 1_000_000
let runs = arguments.firstIndex(of: "--runs").flatMap { Int(arguments[$0 + 1]) } ?? 11
let schema = "w45_\(count)"
let schemaURL = url(primary, schema)

let admin = try PostgreSQLConnection(url: primary)
let exists = try admin.scalar(sql: "SELECT count(*) FROM pg_namespace WHERE nspname = $1", arguments: [.text(schema)]) == .integer(1)
if !arguments.contains("--reuse") || !exists {
    try admin.execute(sql: "DROP SCHEMA IF EXISTS \(schema) CASCADE; CREATE SCHEMA \(schema)")
    let csv = arguments[2] + "/w45-products.csv"
    try DeclaredProduct.writeCSV(count: count, to: csv)
    let cluster = try PostgreSQLCluster(PostgreSQLConfiguration(primary: schemaURL))
    _ = try EntitySchema(identity: "w45", tables: [EntityTable(DeclaredProduct.self)]).migrate(cluster)
    _ = try DeclaredProduct.importFile(csv, into: cluster)
    try cluster.writeWithoutTransaction { db in try db.execute(sql: "VACUUM ANALYZE products", values: []) }
    cluster.close()
    try? FileManager.default.removeItem(atPath: csv)
}

let request = FetchRequest<DeclaredProduct>(
    sortDescriptors: [SortDescriptor(\.name)], sectionKeyPath: \DeclaredProduct.type, batchSize: 50)
let sectionsSQL = "SELECT type, count(*) FROM products GROUP BY type ORDER BY type"
let firstPageSQL = "SELECT id, type, name, year_introduced, intro_price FROM products ORDER BY type, name_folded, id LIMIT 50"

/// Milliseconds from nanoseconds.
func milliseconds(_ nanoseconds: Int64) -> Double { Double(nanoseconds) / 1e6 }

/// Starts the writer process of run `run`; `committed` then waits for it and returns its commit time.
func startWriter(_ run: Int) throws -> (process: Process, output: Pipe) {
    let child = Process()
    let output = Pipe()
    child.executableURL = URL(fileURLWithPath: CommandLine.arguments[0])
    child.arguments = ["--child", "writer", schemaURL, String(run)]
    child.standardOutput = output
    try child.run()
    return (child, output)
}

func committed(_ writer: (process: Process, output: Pipe)) -> Int64 {
    let text = String(decoding: writer.output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    writer.process.waitUntilExit()
    guard writer.process.terminationStatus == 0,
        let time = text.split(separator: " ").last.flatMap({ Int64($0.trimmingCharacters(in: .whitespacesAndNewlines)) })
    else { fatalError("the writer failed: \(text)") }
    return time
}

// W4: the observers take turns, each woken by the one LISTEN connection.
let cluster = try PostgreSQLCluster(PostgreSQLConfiguration(primary: schemaURL))
let controller = FetchedResultsController(request: request, reader: cluster)
try controller.performFetch()
try controller.startTracking()
let listener = try PostgreSQLConnection(url: schemaURL)
try listener.listen(PostgreSQLChangeLog.channel)
let peer = try PostgreSQLConnection(url: schemaURL)
var w4: [String: [Double]] = ["ours": [], "peer": [], "wake-up": []]
for run in 0..<(runs + 1) {
    for name in ["ours", "peer"] {
        let writer = try startWriter(run * 2 + (name == "ours" ? 0 : 1))
        while try listener.notifications(waitingMilliseconds: -1).isEmpty {}
        let woken = MonotonicTime.nanoseconds()
        if name == "ours" {
            let change = try controller.applyPendingChanges()
            precondition(!change.isEmpty, "the change set is empty")
        } else {
            _ = try peer.inTransaction(readOnly: true) {
                (try peer.fetchAll(sql: sectionsSQL), try peer.fetchAll(sql: firstPageSQL))
            }
        }
        let held = MonotonicTime.nanoseconds()
        let commit = committed(writer)
        if run > 0 {
            w4[name]!.append(milliseconds(held - commit))
            w4["wake-up"]!.append(milliseconds(woken - commit))
        }
    }
}

// W5: a new connection (or cluster) each run, contenders taking turns.
var w5: [String: [Double]] = ["ours": [], "peer": []]
for run in 0..<(runs + 1) {
    var start = MonotonicTime.nanoseconds()
    let opened = try PostgreSQLCluster(PostgreSQLConfiguration(primary: schemaURL))
    let fetched = FetchedResultsController(request: request, reader: opened)
    try fetched.performFetch()
    for row in 0..<min(50, fetched.sections.first?.numberOfObjects ?? 0) { _ = try fetched.object(at: ItemPath(section: 0, row: row)) }
    opened.close()
    if run > 0 { w5["ours"]!.append(milliseconds(MonotonicTime.nanoseconds() - start)) }
    start = MonotonicTime.nanoseconds()
    let connection = try PostgreSQLConnection(url: schemaURL)
    _ = try connection.inTransaction(readOnly: true) {
        (try connection.fetchAll(sql: sectionsSQL), try connection.fetchAll(sql: firstPageSQL))
    }
    connection.close()
    if run > 0 { w5["peer"]!.append(milliseconds(MonotonicTime.nanoseconds() - start)) }
}

func median(_ values: [Double]) -> String { String(format: "%.2f", values.sorted()[values.count / 2]) }
func maximum(_ values: [Double]) -> String { String(format: "%.2f", values.max() ?? 0) }
print("| Workload (\(count) products, \(runs) runs) | ours median (ms) | ours max | peer median (ms) | peer max |")
print("| --- | ---: | ---: | ---: | ---: |")
print("| W4: commit in another process → change set held | \(median(w4["ours"]!)) | \(maximum(w4["ours"]!)) | \(median(w4["peer"]!)) | \(maximum(w4["peer"]!)) |")
print("| W5: open, sections with counts, first 50 rows | \(median(w5["ours"]!)) | \(maximum(w5["ours"]!)) | \(median(w5["peer"]!)) | \(maximum(w5["peer"]!)) |")
print("W4's wake-up (commit → NOTIFY received), both contenders' runs: median \(median(w4["wake-up"]!)) ms, max \(maximum(w4["wake-up"]!)) ms")
