// W3 on PostgreSQL: the store's search (PostgreSQLTextSearch, planned by TextSearch's planner) against
// what a PostgreSQL user writes (one `LIKE '%term%'` per term on the folded name, served by a
// pg_trgm GIN index, a number also matching year or price; PostgreSQL's planner choosing), on the
// same products, loaded with COPY. Each query: the total and the first 50 rows in list order (type,
// folded name, id), in one REPEATABLE READ transaction; both contenders' results are checked equal.
//
//   pg-search-bench --url postgresql://postgres@127.0.0.1:54320/postgres [--rows 1000000]
//                   [--queries 500] [--repetitions 5] [--reuse] [--query-log FILE.tsv]
//
// --reuse keeps the loaded table of an earlier run with the same --rows (schema `w3_<rows>`).
// --query-log writes each query's class, text and both contenders' medians (milliseconds).
// Prints the Markdown table of Benchmarks/README.md's "W3 on PostgreSQL".
import BenchmarkSupport
import Foundation
import PostgreSQLSearch
import PostgreSQLStore
import SQLiteStore
import TextSearch

struct Options {
    var url = ""
    var rows = 1_000_000
    var queries = 500
    var repetitions = 5
    var reuse = false
    var queryLog: String?

    init(_ arguments: [String]) {
        var iterator = arguments.dropFirst().makeIterator()
        while let argument = iterator.next() {
            switch argument {
            case "--url": url = iterator.next() ?? ""
            case "--rows": rows = Int(iterator.next() ?? "") ?? rows
            case "--queries": queries = Int(iterator.next() ?? "") ?? queries
            case "--repetitions": repetitions = Int(iterator.next() ?? "") ?? repetitions
            case "--reuse": reuse = true
            case "--query-log": queryLog = iterator.next()
            default:
                FileHandle.standardError.write(Data("pg-search-bench: unknown option \(argument)\n".utf8))
                exit(64)
            }
        }
        if url.isEmpty {
            FileHandle.standardError.write(Data("pg-search-bench: --url postgresql://… is required\n".utf8))
            exit(64)
        }
    }
}

let options = Options(CommandLine.arguments)
let schema = "w3_\(options.rows)"
let admin = try PostgreSQLConnection(url: options.url)
let products = CatalogGenerator.products(count: options.rows, seed: 42)
let search = PostgreSQLTextSearch(SearchDescription(
    table: "products", textColumns: ["name_folded"], numberColumns: ["year_introduced", "intro_price"], scopeColumn: "type",
    listIndex: "products_list", accelerators: [.substringCounts]))

let exists = try admin.scalar(sql: "SELECT count(*) FROM pg_namespace WHERE nspname = $1", arguments: [.text(schema)]) == .integer(1)
if !options.reuse || !exists {
    try admin.execute(sql: "CREATE EXTENSION IF NOT EXISTS pg_trgm SCHEMA public; DROP SCHEMA IF EXISTS \(schema) CASCADE; CREATE SCHEMA \(schema)")
}
let db = try PostgreSQLConnection(url: options.url + (options.url.contains("?") ? "&" : "?") + "options=-csearch_path%3D\(schema)%2Cpublic")
if !options.reuse || !exists {
    let start = ContinuousClock.now
    try db.execute(sql: """
        CREATE TABLE products (
            id bigint PRIMARY KEY, type text COLLATE "C" NOT NULL, name text NOT NULL, name_folded text COLLATE "C" NOT NULL,
            year_introduced integer NOT NULL, intro_price double precision NOT NULL)
        """)
    try db.copy(
        into: "products", columns: ["id", "type", "name", "name_folded", "year_introduced", "intro_price"],
        rows: products.enumerated().lazy.map { index, product in
            [.integer(Int64(index + 1)), .text(product.type), .text(product.name), .text(TextFolding.fold(product.name)),
             .integer(Int64(product.yearIntroduced)), .real(product.introPrice)]
        })
    let loaded = ContinuousClock.now
    try db.execute(sql: """
        SET maintenance_work_mem = '512MB';
        CREATE INDEX products_list ON products (type, name_folded, id);
        CREATE INDEX products_year ON products (year_introduced);
        CREATE INDEX products_price ON products (intro_price);
        \(search.installSQL)
        """)
    try db.inTransaction(writing: true) { try search.refreshSubstringCounts(db) }
    try db.execute(sql: "VACUUM ANALYZE products")
    FileHandle.standardError.write(Data(
        "loaded \(options.rows) rows with COPY in \(loaded - start), built the indexes in \(ContinuousClock.now - loaded)\n".utf8))
}

let queries = BenchmarkSupport.SearchQuery.generate(count: options.queries, from: products, seed: 42) + BenchmarkSupport.SearchQuery.named
/// The id in a row's first column.
func id(_ row: [DatabaseValue]) -> Int64 {
    if case .integer(let id) = row[0] { return id }
    return -1
}

let order = SearchOrder(SQLFragment(sql: "products.type, products.name_folded, products.id"), isListIndexOrder: true)

/// The store: the total and the first page through PostgreSQLTextSearch.
@MainActor func storeSearch(_ text: String) throws -> [Int64] {
    try db.inTransaction(readOnly: true) {
        let page = try search.page(TextSearch.SearchQuery(text), order: order, limit: 50, selection: "products.id", db, decode: id)
        return [Int64(page.totalCount)] + page.records
    }
}

/// The peer: a condition per term, as a PostgreSQL user writes it, the same for the count and the page.
@MainActor func peerSearch(_ text: String) throws -> [Int64] {
    var conditions: [String] = []
    var values: [DatabaseValue] = []
    for term in TextSearch.SearchQuery(text).terms {
        let escaped = term.folded.replacing("\\", with: "\\\\").replacing("%", with: "\\%").replacing("_", with: "\\_")
        values.append(.text("%" + escaped + "%"))
        var condition = "name_folded LIKE $\(values.count)"
        if let number = term.number {
            values.append(.real(number))
            condition += " OR intro_price = $\(values.count)"
            if number.rounded() == number, number < 1e9 {
                values.append(.integer(Int64(number)))
                condition += " OR year_introduced = $\(values.count)"
            }
        }
        conditions.append("(\(condition))")
    }
    let condition = conditions.isEmpty ? "TRUE" : conditions.joined(separator: " AND ")
    return try db.inTransaction(readOnly: true) {
        let total = try db.scalar(sql: "SELECT count(*) FROM products WHERE \(condition)", arguments: values)
        let ids = try db.fetchAll(
            sql: "SELECT id FROM products WHERE \(condition) ORDER BY type, name_folded, id LIMIT 50", arguments: values
        , id)
        guard case .integer(let count) = total else { return ids }
        return [count] + ids
    }
}

/// The median of `repetitions` runs of each query, after a warm-up, contenders taking turns.
var medians: [String: [(query: BenchmarkSupport.SearchQuery, median: Duration)]] = ["store": [], "peer": []]
let contenders: [(String, @MainActor (String) throws -> [Int64])] = [("store", storeSearch), ("peer", peerSearch)]
var mismatches = 0
for (index, query) in queries.enumerated() {
    if index % 50 == 0 { FileHandle.standardError.write(Data("query \(index) of \(queries.count)\n".utf8)) }
    var results: [[Int64]] = []
    var durations: [String: [Duration]] = [:]
    for (_, run) in contenders { results.append(try run(query.term)) }
    if results[0] != results[1] {
        mismatches += 1
        FileHandle.standardError.write(Data("wrong result for \(String(reflecting: query.term)): store \(results[0].prefix(4)), peer \(results[1].prefix(4))\n".utf8))
    }
    for _ in 0..<options.repetitions {
        for (name, run) in contenders {
            let start = ContinuousClock.now
            _ = try run(query.term)
            durations[name, default: []].append(ContinuousClock.now - start)
        }
    }
    for (name, _) in contenders { medians[name]!.append((query, Samples(durations[name]!).median)) }
}

func cell(_ duration: Duration) -> String { String(format: "%.2f", duration.milliseconds) }

if let path = options.queryLog {
    let lines = zip(medians["store"]!, medians["peer"]!).map { store, peer in
        "\(store.query.termClass.rawValue)\t\(store.query.term)\t\(cell(store.median))\t\(cell(peer.median))\n"
    }
    try ("class\tquery\tstore\tpeer\n" + lines.joined()).write(toFile: path, atomically: true, encoding: .utf8)
}

print("| Query class | Queries | store median (ms) | store p99 | store max | peer median (ms) | peer p99 | peer max |")
print("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |")
let classes = BenchmarkSupport.SearchQuery.TermClass.allCases
for termClass in classes {
    var row = "| \(termClass.rawValue) |"
    for name in ["store", "peer"] {
        let samples = Samples(medians[name]!.prefix(options.queries).filter { $0.query.termClass == termClass }.map(\.median))
        if name == "store" { row += " \(samples.count) |" }
        guard samples.count > 0 else { row += " – | – | – |"; continue }
        row += " \(cell(samples.median)) | \(cell(samples.percentile(99))) | \(cell(samples.sorted.last!)) |"
    }
    print(row)
}
for (index, query) in BenchmarkSupport.SearchQuery.named.enumerated() {
    let store = medians["store"]![options.queries + index].median
    let peer = medians["peer"]![options.queries + index].median
    print("| `\(query.term)` | 1 | \(cell(store)) | | | \(cell(peer)) | | |")
}
if mismatches > 0 {
    FileHandle.standardError.write(Data("pg-search-bench: \(mismatches) queries differ between the store and the peer\n".utf8))
    exit(1)
}
