import BenchmarkSupport
import Foundation

/// W1b (issue #16): bulk loads as a user of each contender does them — `--bulk-rows` (1,000,000)
/// products into an empty database, then `--bulk-added-rows` (100,000) more into that database — the
/// store with its own schema and its bulk `seed`, raw C and GRDB with ``PlainFullTextSchema`` (a products
/// table with an FTS5 trigram index) loaded both ways (``PlainFullTextSchema/Load``): in bulk (the
/// indexes built after the rows) and with a per-row trigger (labelled so); and, as whole processes,
/// `catalog seed --count N` (`--seed-count`, 40,000) against `load-products.py` (Python's sqlite3
/// loading `catalog export`'s JSON of the same products into that plain schema).
///
/// Each load runs once per contender and way (they take tens of seconds at the issue's sizes),
/// contenders in turn; every contender must end with the same row count as the first. The store loads
/// one way: its cells in the per-row rows are its one measurement again.
extension Runner {
    mutating func runBulkLoad() throws {
        let catalog = catalog(rows: options.bulkRows + options.bulkAddedRows)
        let (first, added) = (Array(catalog.prefix(options.bulkRows)), Array(catalog.dropFirst(options.bulkRows)))
        var empty: [PlainFullTextSchema.Load: [String: Report.Cell]] = [:]
        var filled: [PlainFullTextSchema.Load: [String: Report.Cell]] = [:]
        var expected: (empty: Fingerprint, filled: Fingerprint)?
        for load in PlainFullTextSchema.Load.allCases {
            for contender in contenders {
                let name = contender.name + (load == .bulk ? "" : " per-row trigger")
                if load == .perRowTrigger && contender.name == "store" {
                    empty[load, default: [:]][contender.name] = empty[.bulk]?[contender.name]
                    filled[load, default: [:]][contender.name] = filled[.bulk]?[contender.name]
                    continue
                }
                let file = path("w1b-\(name.replacingOccurrences(of: " ", with: "-")).sqlite")
                remove(database: file)
                defer { remove(database: file) }
                do {
                    log("W1b \(name): \(first.count.formatted()) products into an empty database")
                    let loaded = try contender.bulkLoad(first, intoDatabaseAt: file, load)
                    log("W1b \(name): \(added.count.formatted()) more")
                    let more = try contender.bulkLoad(added, intoDatabaseAt: file, load)
                    if let expected, expected != (loaded.fingerprint, more.fingerprint) {
                        log("W1b \(name): row counts differ from \(contenders[0].name)'s")
                        empty[load, default: [:]][contender.name] = .text("wrong result")
                        filled[load, default: [:]][contender.name] = .text("wrong result")
                        continue
                    }
                    expected = expected ?? (loaded.fingerprint, more.fingerprint)
                    empty[load, default: [:]][contender.name] = .time(loaded.duration)
                    filled[load, default: [:]][contender.name] = .time(more.duration)
                } catch let pending as Pending {
                    empty[load, default: [:]][contender.name] = .text(pending.description)
                    filled[load, default: [:]][contender.name] = .text(pending.description)
                } catch {
                    log("W1b \(name) failed: \(error)")
                    empty[load, default: [:]][contender.name] = .text("failed")
                    filled[load, default: [:]][contender.name] = .text("failed")
                }
            }
        }
        for load in PlainFullTextSchema.Load.allCases {
            let (intoEmpty, intoFilled) = switch load {
            case .bulk:
                ("peers in bulk: rows, then UNIQUE(name) and the FTS5 trigram index in one statement each",
                 "peers: rows with UNIQUE(name) in place, then the new rows into the FTS5 index in one statement")
            case .perRowTrigger:
                ("peers: FTS5 trigram kept by a per-row trigger; store: the same load as above",
                 "peers: FTS5 trigram kept by a per-row trigger; store: the same load as above")
            }
            report.append(.init(
                workload: "W1b load \(first.count.formatted()) products into an empty database, one transaction (\(intoEmpty))",
                cells: empty[load, default: [:]], target: "store ≤ 1× peers"))
            report.append(.init(
                workload: "W1b load \(added.count.formatted()) products into that database of \(first.count.formatted()) (\(intoFilled))",
                cells: filled[load, default: [:]], target: "store ≤ 1× peers"))
        }
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
