// frc-benchmark [--rows N] [--database PATH]
//
// Measures the fetched-results controller on N products (1,000,000 by default) sectioned by type and
// sorted by name, against fetching every product into structs. Each contender runs in its own process
// (this executable, with --contender), so that each peak resident memory (VmHWM) is its own.
// Build with `swift build -c release --product frc-benchmark`.
import TextSearch
import Catalog
import FetchedResults
import Foundation
import SQLiteStore

let arguments = Array(CommandLine.arguments.dropFirst())
func option(_ name: String) -> String? {
    guard let index = arguments.firstIndex(of: name), index + 1 < arguments.count else { return nil }
    return arguments[index + 1]
}
let rows = option("--rows").flatMap(Int.init) ?? 1_000_000
let path = option("--database") ?? FileManager.default.temporaryDirectory.appendingPathComponent("frc-benchmark-\(rows).sqlite").path

/// The peak resident set size of this process, in MB (VmHWM of /proc/self/status).
func peakMegabytes() -> Double {
    let status = (try? String(contentsOfFile: "/proc/self/status", encoding: .utf8)) ?? ""
    let line = status.split(separator: "\n").first { $0.hasPrefix("VmHWM:") } ?? ""
    let kilobytes = Double(line.split(separator: " ").dropFirst().first ?? "0") ?? 0
    return kilobytes / 1024
}

/// User and system CPU time of this process so far, in milliseconds.
func cpuMilliseconds() -> Double {
    var usage = rusage()
    getrusage(RUSAGE_SELF.rawValue, &usage)
    func ms(_ time: timeval) -> Double { Double(time.tv_sec) * 1000 + Double(time.tv_usec) / 1000 }
    return ms(usage.ru_utime) + ms(usage.ru_stime)
}

func milliseconds(since start: ContinuousClock.Instant) -> Double {
    let elapsed = ContinuousClock.now - start
    return Double(elapsed.components.seconds) * 1000 + Double(elapsed.components.attoseconds) / 1e15
}

/// Deterministic products: names from a seeded generator, types and years in turn.
func generate() throws {
    let store = try CatalogStore(path: path)
    var state: UInt64 = 2024
    func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
    let syllables = ["ma", "cbo", "ok", "pro", "air", "pad", "pho", "ne", "mi", "ni", "to", "uch", "wa", "tch", "Ma", "i"]
    let types = ProductType.allCases
    try store.queue.write { db in
        for index in 0..<rows {
            var name = ""
            for _ in 0..<4 { name += syllables[Int(next() % UInt64(syllables.count))] }
            name += " \(index)"
            try db.execute(
                sql: "INSERT INTO products(type, name, name_folded, year_introduced, intro_price) VALUES (?, ?, ?, ?, ?)",
                arguments: [types[index % types.count], name, TextFolding.fold(name), 1980 + index % 45, Double(index % 3000)])
        }
    }
}

/// Open, sections with counts, and the first page of 50, with batch size 50; then scroll through
/// every row to show that memory stays bounded.
func controller() throws -> [String: Double] {
    let start = ContinuousClock.now
    let store = try CatalogStore(path: path)
    let openMs = milliseconds(since: start)
    let request = ListRequest(entity: .products)
    let controller = try store.fetchedResults(Product.self, request, batchSize: 50)
    let sectionsMs = milliseconds(since: start)
    var page: [Product] = []
    for row in 0..<min(50, controller.sections.first?.numberOfObjects ?? 0) {
        page.append(try controller.object(at: ItemPath(section: 0, row: row)))
    }
    let firstPage = milliseconds(since: start)
    precondition(page.count == 50 && controller.numberOfObjects == rows)
    let firstPagePeak = peakMegabytes()
    let firstPageCPU = cpuMilliseconds()
    let scrollStart = ContinuousClock.now
    var seen = 0
    for (section, info) in controller.sections.enumerated() {
        for row in 0..<info.numberOfObjects {
            _ = try controller.object(at: ItemPath(section: section, row: row))
            seen += 1
        }
    }
    precondition(seen == rows)
    return ["openMs": openMs, "sectionsMs": sectionsMs, "cpuMs": firstPageCPU, "firstPageMs": firstPage, "firstPagePeakMB": firstPagePeak, "scrollAllMs": milliseconds(since: scrollStart),
            "peakMB": peakMegabytes(), "loadedObjects": Double(controller.loadedObjectCount)]
}

/// Open, then every product into structs in one query, grouped in sections: the naive way.
func structs() throws -> [String: Double] {
    let start = ContinuousClock.now
    let store = try CatalogStore(path: path)
    let products = try store.queue.read { db in
        try db.fetchAll(sql: "SELECT \(Product.selection) FROM products ORDER BY type, name_folded, id") { try Product(row: $0) }
    }
    var sections: [(name: String, products: ArraySlice<Product>)] = []
    var first = 0
    for index in products.indices where index == products.count - 1 || products[index + 1].type != products[index].type {
        sections.append((products[index].type.title, products[first...index]))
        first = index + 1
    }
    precondition(sections.reduce(0) { $0 + $1.products.count } == rows)
    return ["firstPageMs": milliseconds(since: start), "cpuMs": cpuMilliseconds(), "peakMB": peakMegabytes()]
}

if let contender = option("--contender") {
    let result = try contender == "controller" ? controller() : structs()
    let json = try JSONSerialization.data(withJSONObject: result, options: [.sortedKeys])
    print(String(decoding: json, as: UTF8.self))
    exit(0)
}

if !FileManager.default.fileExists(atPath: path) {
    let start = ContinuousClock.now
    FileHandle.standardError.write(Data("generating \(rows) products in \(path)…\n".utf8))
    try generate()
    FileHandle.standardError.write(Data("generated in \(Int(milliseconds(since: start))) ms\n".utf8))
}

func run(_ contender: String) throws -> [String: Double] {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: CommandLine.arguments[0])
    process.arguments = ["--contender", contender, "--rows", String(rows), "--database", path]
    let pipe = Pipe()
    process.standardOutput = pipe
    try process.run()
    let data = pipe.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return (try JSONSerialization.jsonObject(with: data) as? [String: Double]) ?? [:]
}

let sqliteVersion = try DatabaseQueue.inMemory().read { db in try db.scalar(String.self, sql: "SELECT sqlite_version()") } ?? "?"

// Warm the OS file cache once, so both contenders read the same warm file.
_ = try run("controller")
let measured = try run("controller")
let naive = try run("structs")
print("""
    \(rows) products, sectioned by type, sorted by name (SQLite \(sqliteVersion))
    controller, batch size 50: open + sections + counts + first page of 50: \(String(format: "%.1f", measured["firstPageMs"] ?? -1)) ms \
    (CPU \(String(format: "%.1f", measured["cpuMs"] ?? -1)) ms, process start included), peak \(String(format: "%.1f", measured["firstPagePeakMB"] ?? -1)) MB
    controller, then scrolling through all rows: \(String(format: "%.0f", measured["scrollAllMs"] ?? -1)) ms, \
    peak \(String(format: "%.1f", measured["peakMB"] ?? -1)) MB, \(Int(measured["loadedObjects"] ?? -1)) entities in memory at the end
    all into structs: \(String(format: "%.0f", naive["firstPageMs"] ?? -1)) ms (CPU \(String(format: "%.0f", naive["cpuMs"] ?? -1)) ms), peak \(String(format: "%.1f", naive["peakMB"] ?? -1)) MB
    """)
