import BenchmarkSupport
import Foundation

/// W1b (issue #16): bulk loads as a user of each contender does them — `--bulk-rows` (1,000,000)
/// products into an empty database, then `--bulk-added-rows` (100,000) more into that database — the
/// store with its own schema and its bulk `seed`, raw C and GRDB with ``PlainFullTextSchema`` (a products
/// table with an FTS5 trigram index); and, as whole processes, `catalog seed --count N` (`--seed-count`,
/// 40,000) against `load-products.py` (Python's sqlite3 loading `catalog export`'s JSON of the same
/// products into that plain schema).
///
/// Each load runs once per contender (they take tens of seconds at the issue's sizes), contenders in
/// turn; every contender must end with the same row count as raw C.
extension Runner {
    mutating func runBulkLoad() throws {
        let catalog = catalog(rows: options.bulkRows + options.bulkAddedRows)
        let (first, added) = (Array(catalog.prefix(options.bulkRows)), Array(catalog.dropFirst(options.bulkRows)))
        var empty: [String: Report.Cell] = [:]
        var filled: [String: Report.Cell] = [:]
        var expected: (empty: Fingerprint, filled: Fingerprint)?
        for contender in contenders {
            let file = path("w1b-\(contender.name.replacingOccurrences(of: " ", with: "-")).sqlite")
            remove(database: file)
            defer { remove(database: file) }
            do {
                log("W1b \(contender.name): \(first.count.formatted()) products into an empty database")
                let load = try contender.bulkLoad(first, intoDatabaseAt: file)
                log("W1b \(contender.name): \(added.count.formatted()) more")
                let more = try contender.bulkLoad(added, intoDatabaseAt: file)
                if let expected, expected != (load.fingerprint, more.fingerprint) {
                    log("W1b \(contender.name): row counts differ from \(contenders[0].name)'s")
                    empty[contender.name] = .text("wrong result")
                    filled[contender.name] = .text("wrong result")
                    continue
                }
                expected = expected ?? (load.fingerprint, more.fingerprint)
                empty[contender.name] = .time(load.duration)
                filled[contender.name] = .time(more.duration)
            } catch let pending as Pending {
                empty[contender.name] = .text(pending.description)
                filled[contender.name] = .text(pending.description)
            } catch {
                log("W1b \(contender.name) failed: \(error)")
                empty[contender.name] = .text("failed")
                filled[contender.name] = .text("failed")
            }
        }
        let peers = "peers: plain table + FTS5 trigram"
        report.append(.init(
            workload: "W1b load \(first.count.formatted()) products into an empty database, one transaction (\(peers))",
            cells: empty, target: "store ≤ 1× peers"))
        report.append(.init(
            workload: "W1b load \(added.count.formatted()) products into that database of \(first.count.formatted()) (\(peers))",
            cells: filled, target: "store ≤ 1× peers"))
        try runSeedProcess()
    }

    /// `catalog seed --count N` into a new file against `python3 load-products.py` loading the same
    /// products (exported by `catalog export`, untimed) into the plain schema, each a whole process,
    /// `--repetitions` runs taking turns; the median of each.
    private mutating func runSeedProcess() throws {
        let catalog = URL(fileURLWithPath: options.catalogBinary).standardizedFileURL.path
        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("../../load-products.py").standardizedFileURL.path
        let workload = "W1b `catalog seed --count \(options.seedCount.formatted())`, whole process (raw C: a Python sqlite3 loader)"
        guard FileManager.default.isExecutableFile(atPath: catalog) else {
            report.append(.init(workload: workload, cells: ["store": .text("pending \(options.catalogBinary)")], target: "store ≤ 1× Python"))
            return
        }
        let (storeFile, pythonFile, json) = (path("w1b-seed.sqlite"), path("w1b-python.sqlite"), path("w1b-seed.json"))
        defer { for file in [storeFile, pythonFile] { remove(database: file) }; try? FileManager.default.removeItem(atPath: json) }
        let seed = ["seed", "--count", String(options.seedCount), "--database", storeFile]
        remove(database: storeFile)
        _ = try Self.run(catalog, seed)
        try Self.run(catalog, ["export", "--database", storeFile, "--format", "json"]).write(to: URL(fileURLWithPath: json))
        var store: [Duration] = []
        var python: [Duration] = []
        var pythonCount = ""
        for run in 0..<(options.warmups + options.repetitions) {
            log("W1b whole process \(run < options.warmups ? "(warm-up)" : "#\(run - options.warmups + 1)")")
            remove(database: storeFile)
            remove(database: pythonFile)
            let storeTime = try Self.timed { _ = try Self.run(catalog, seed) }
            var output = Data()
            let pythonTime = try Self.timed {
                output = try Self.run("/usr/bin/env", ["python3", script, json, pythonFile, PlainFullTextSchema.sql])
            }
            pythonCount = String(decoding: output, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
            guard run >= options.warmups else { continue }
            store.append(storeTime)
            python.append(pythonTime)
        }
        let cells: [String: Report.Cell] = pythonCount == String(options.seedCount)
            ? ["store": .time(Samples(store).median), "raw C": .time(Samples(python).median)]
            : ["store": .text("wrong result")]
        report.append(.init(workload: workload, cells: cells, target: "store ≤ 1× Python"))
    }
}
