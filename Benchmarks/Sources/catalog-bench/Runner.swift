import BenchmarkSupport
import Foundation
import RawSQLiteContender
import StoreContender

/// Runs the selected workloads for every contender and collects the report.
struct Runner {
    let options: Options
    /// Raw C first: the baseline of the ratios.
    let contenders: [any Contender]
    /// Contenders measured in W2 only (GRDB's Codable path).
    let fetchOnlyContenders: [any Contender]
    /// Contenders measured in W3 only (the store's search through a controller).
    let searchOnlyContenders: [any Contender]
    let raw: RawSQLiteContender
    let schemaFingerprint: Fingerprint
    var report: Report

    init(options: Options, contenders: [any Contender], fetchOnlyContenders: [any Contender],
         searchOnlyContenders: [any Contender], raw: RawSQLiteContender, schema: [String]) {
        self.options = options
        self.contenders = contenders
        self.fetchOnlyContenders = fetchOnlyContenders
        self.searchOnlyContenders = searchOnlyContenders
        self.raw = raw
        var fingerprint = Fingerprint()
        for migration in schema { fingerprint.combine(migration) }
        schemaFingerprint = fingerprint
        report = Report(contenders: (contenders + fetchOnlyContenders + searchOnlyContenders).map(\.name))
    }

    func log(_ message: String) {
        FileHandle.standardError.write(Data("[catalog-bench] \(message)\n".utf8))
    }

    // MARK: - Repetitions

    /// Runs `body` `warmups` times unmeasured, then `repetitions` times; the durations and the
    /// fingerprint of the last run.
    func repeated(_ body: (Int) throws -> Measured) throws -> (Samples, Fingerprint) {
        for warmup in 0..<options.warmups { _ = try body(-1 - warmup) }
        var durations: [Duration] = []
        var fingerprint = Fingerprint()
        for repetition in 0..<options.repetitions {
            let measured = try body(repetition)
            durations.append(measured.duration)
            fingerprint = measured.fingerprint
        }
        return (Samples(durations), fingerprint)
    }

    /// The median of `contender`'s repetitions as a cell: "pending …" when it throws ``Pending``,
    /// "wrong result" when its fingerprint differs from the baseline's.
    func medianCell(
        _ contender: any Contender, baseline: inout Fingerprint?, _ body: (Int) throws -> Measured
    ) -> Report.Cell {
        do {
            let (samples, fingerprint) = try repeated(body)
            if let expected = baseline, expected != fingerprint {
                log("\(contender.name): result \(fingerprint) differs from raw C's \(expected)")
                return .text("wrong result")
            }
            if baseline == nil { baseline = fingerprint }
            return .time(samples.median)
        } catch let pending as Pending {
            return .text(pending.description)
        } catch {
            log("\(contender.name) failed: \(error)")
            return .text("failed")
        }
    }

    /// Runs `body` for every contender, interleaved (warm-ups, then repetition 1 of each contender,
    /// repetition 2 of each…), so that a change in the machine's load during the run (2 shared cores)
    /// hits all contenders alike. One cell per contender: the median, "pending …", "failed", or "wrong
    /// result" when its fingerprint differs from the first contender's (raw C).
    func interleaved(
        _ contenders: [any Contender], label: String, _ body: (any Contender, Int) throws -> Measured
    ) -> [String: Report.Cell] {
        var durations: [String: [Duration]] = [:]
        var fingerprints: [String: Fingerprint] = [:]
        var cells: [String: Report.Cell] = [:]
        let runs = (0..<options.warmups).map { -1 - $0 } + Array(0..<options.repetitions)
        for run in runs {
            for contender in contenders where cells[contender.name] == nil {
                log("\(label) \(contender.name)\(run < 0 ? " (warm-up)" : " #\(run + 1)")")
                do {
                    let measured = try body(contender, run)
                    guard run >= 0 else { continue }
                    durations[contender.name, default: []].append(measured.duration)
                    fingerprints[contender.name] = measured.fingerprint
                } catch let pending as Pending {
                    cells[contender.name] = .text(pending.description)
                } catch {
                    log("\(label) \(contender.name) failed: \(error)")
                    cells[contender.name] = .text("failed")
                }
            }
        }
        let expected = contenders.first.flatMap { fingerprints[$0.name] }
        for contender in contenders where cells[contender.name] == nil {
            guard let samples = durations[contender.name] else { continue }
            if let expected, fingerprints[contender.name] != expected {
                log("\(label) \(contender.name): result \(fingerprints[contender.name]!) differs from \(contenders[0].name)'s \(expected)")
                cells[contender.name] = .text("wrong result")
            } else {
                cells[contender.name] = .time(Samples(samples).median)
            }
        }
        return cells
    }

    // MARK: - Files

    var workDirectory: URL { URL(fileURLWithPath: options.workDirectory, isDirectory: true) }

    func path(_ name: String) -> String { workDirectory.appendingPathComponent(name).path }

    func remove(database path: String) {
        for suffix in ["", "-wal", "-shm", "-journal"] { try? FileManager.default.removeItem(atPath: path + suffix) }
    }

    func catalog(rows: Int) -> [SyntheticProduct] {
        CatalogGenerator.products(count: rows, seed: options.seed &+ UInt64(rows))
    }

    /// A database of `rows` generated products at the current schema, created once and reused: the
    /// store's bulk seed makes it (ids 1…`rows` in catalog order), then raw C reads every row back and
    /// checks it against the catalog.
    func dataset(rows: Int) throws -> String {
        let file = path("catalog-\(rows)-seed\(options.seed)-schema\(schemaFingerprint).sqlite")
        if FileManager.default.fileExists(atPath: file) { return file }
        log("generating a dataset of \(rows) products…")
        let start = ContinuousClock.now
        let temporary = file + ".partial"
        remove(database: temporary)
        let products = catalog(rows: rows)
        try StoreContender.createCatalog(at: temporary, with: products)
        try raw.check(databaseAt: temporary, holds: products)
        try FileManager.default.moveItem(atPath: temporary, toPath: file)
        remove(database: temporary)
        log("dataset ready in \(Report.Cell.time(ContinuousClock.now - start).rendered)")
        return file
    }

    /// Copies the database at `source`, which no one has open, with its `-wal` when there is one (the
    /// copy replays it when opened): the file alone lacks what was committed since the last checkpoint.
    func copy(_ source: String, to destination: String) throws {
        remove(database: destination)
        try FileManager.default.copyItem(atPath: source, toPath: destination)
        if FileManager.default.fileExists(atPath: source + "-wal") {
            try FileManager.default.copyItem(atPath: source + "-wal", toPath: destination + "-wal")
        }
    }

    // MARK: - Running

    mutating func run() throws {
        try FileManager.default.createDirectory(at: workDirectory, withIntermediateDirectories: true)
        try checkFolding()
        let workloads = options.workloads
        if workloads.contains("W1") { try runInsert() }
        if workloads.contains("W1B") { try runBulkLoad() }
        if workloads.contains("W2") { try runFetch() }
        if workloads.contains("W3") { try runSearch() }
        if workloads.contains("W4") { try runLiveUpdate() }
        if workloads.contains("W5") { try runOpen() }
        if workloads.contains("W6") { try runMemory() }
        if workloads.contains("W7") { try runStartUp() }
        if workloads.contains("W8") { try runConcurrency() }
    }

    /// The raw and GRDB contenders fold names with `Folding.fold`; it must be the store's folding.
    func checkFolding() throws {
        for word in Vocabulary.words + ["ｃａｆｅ", "STRASSE", "ﬁne"] where Folding.fold(word) != StoreContender.fold(word) {
            throw Options.UsageError(description: "Folding.fold(\(word)) differs from the store's TextFolding.fold: update BenchmarkSupport")
        }
    }

    mutating func runInsert() throws {
        let rows = options.insertRows
        let products = catalog(rows: rows)
        let cells = interleaved(contenders, label: "W1") { contender, run in
            let file = path("w1-\(contender.name.replacingOccurrences(of: " ", with: "-"))-\(run).sqlite")
            remove(database: file)
            defer { remove(database: file) }
            return try contender.insert(products, intoNewDatabaseAt: file)
        }
        report.append(.init(workload: "W1 insert \(rows.formatted()) products, one transaction, FTS maintained",
                            cells: cells, target: "store ≤ 1.15×"))
    }

    mutating func runFetch() throws {
        let file = try dataset(rows: options.fetchRows)
        let cells = interleaved(contenders + fetchOnlyContenders, label: "W2") { contender, _ in
            try contender.fetchSorted(databaseAt: file)
        }
        report.append(.init(workload: "W2 fetch \(options.fetchRows.formatted()) products sorted by (type, name) into structs",
                            cells: cells, target: "store ≤ 1.3×, < GRDB Codable"))
    }

    mutating func runSearch() throws {
        let file = try dataset(rows: options.searchRows)
        let generated = SearchQuery.generate(count: options.queries, from: catalog(rows: options.searchRows), seed: options.seed)
        // The generated queries make the class rows; the named ones (run after them) a row each.
        let queries = generated + SearchQuery.named
        let contenders = contenders + searchOnlyContenders
        // Per contender, per query: the median of the repetitions, and the fingerprint.
        var perContender: [String: Result<[(Duration, Fingerprint)], any Error>] = [:]
        for contender in contenders {
            log("W3 \(contender.name): \(queries.count) queries")
            perContender[contender.name] = Result {
                if options.warmups > 0 { _ = try contender.search(databaseAt: file, queries: Array(queries.prefix(50))) }
                var runs: [[Measured]] = []
                for _ in 0..<options.repetitions { runs.append(try contender.search(databaseAt: file, queries: queries)) }
                return queries.indices.map { index in
                    (Samples(runs.map { $0[index].duration }).median, runs[0][index].fingerprint)
                }
            }
        }
        let baselineFingerprints = (try? perContender[raw.name]?.get())?.map(\.1)
        if let queryLog = options.queryLog {
            var lines = ["term\tclass\t" + contenders.map { "\($0.name) ms" }.joined(separator: "\t")]
            for (index, query) in queries.enumerated() {
                let times = contenders.map { contender in
                    (try? perContender[contender.name]?.get()).map { String($0[index].0.milliseconds) } ?? ""
                }
                lines.append(([query.term, query.termClass.rawValue] + times).joined(separator: "\t"))
            }
            try (lines.joined(separator: "\n") + "\n").write(toFile: queryLog, atomically: true, encoding: .utf8)
        }
        /// The medians and p99s of the queries at `indices` per contender ("wrong result" when one of them
        /// differs from raw C's).
        func cells(_ indices: [Int]) -> (medians: [String: Report.Cell], p99s: [String: Report.Cell]) {
            var medians: [String: Report.Cell] = [:]
            var p99s: [String: Report.Cell] = [:]
            for contender in contenders {
                switch perContender[contender.name]! {
                case .success(let results):
                    if let baselineFingerprints, let wrong = indices.first(where: { results[$0].1 != baselineFingerprints[$0] }) {
                        log("W3 \(contender.name): wrong result for \(String(reflecting: queries[wrong].term))")
                        medians[contender.name] = .text("wrong result")
                        continue
                    }
                    let samples = Samples(indices.map { results[$0].0 })
                    medians[contender.name] = .time(samples.median)
                    p99s[contender.name] = .time(samples.percentile(99))
                case .failure(let pending as Pending):
                    medians[contender.name] = .text(pending.description)
                    p99s[contender.name] = .text(pending.description)
                case .failure(let error):
                    log("W3 \(contender.name) failed: \(error)")
                    medians[contender.name] = .text("failed")
                }
            }
            return (medians, p99s)
        }
        for termClass in SearchQuery.TermClass.allCases {
            let indices = generated.indices.filter { generated[$0].termClass == termClass }
            guard !indices.isEmpty else { continue }
            let (medians, p99s) = cells(indices)
            let title = "W3 search \(options.searchRows.formatted()) products, \(termClass.rawValue) (\(indices.count) queries)"
            report.append(.init(workload: "\(title): median", cells: medians, target: "store ≤ 1.5 ms"))
            report.append(.init(workload: "\(title): p99", cells: p99s, target: "store ≤ 15 ms"))
        }
        for index in generated.count..<queries.count {
            report.append(.init(workload: "W3 search \(options.searchRows.formatted()) products, `\(queries[index].term)`",
                                cells: cells([index]).medians, target: "store ≤ 20 ms"))
        }
    }

    mutating func runLiveUpdate() throws {
        for size in options.liveSizes {
            let source = try dataset(rows: size)
            var files: [String: String] = [:]
            for contender in contenders {
                let file = path("w4-\(contender.name.replacingOccurrences(of: " ", with: "-"))-\(size).sqlite")
                try copy(source, to: file)
                files[contender.name] = file
            }
            defer { for file in files.values { remove(database: file) } }
            var runs: [String: Int] = [:]
            let cells = interleaved(contenders, label: "W4 \(size) rows") { contender, _ in
                let run = runs[contender.name, default: 0] + 1
                runs[contender.name] = run
                return try contender.liveUpdate(databaseAt: files[contender.name]!, change: .forRun(run))
            }
            report.append(.init(workload: "W4 live update over \(size.formatted()) products (insert + rename + delete)",
                                cells: cells, target: "store < 20 ms"))
        }
        // The writer in another process, for the store's live controller only.
        for size in options.liveSizes {
            let source = try dataset(rows: size)
            let file = path("w4-other-process-\(size).sqlite")
            try copy(source, to: file)
            defer { remove(database: file) }
            var cells: [String: Report.Cell] = [:]
            if let store = contenders.first(where: { $0.name == "store" }) {
                var run = 0
                cells = interleaved([store], label: "W4 \(size) rows, writer in another process") { contender, _ in
                    run += 1
                    return try contender.liveUpdateFromAnotherProcess(databaseAt: file, change: .forRun(run))
                }
            }
            var storeMeasured = false
            if case .time? = cells["store"] { storeMeasured = true }
            if !storeMeasured, size == options.liveSizes.first {
                // Until the store measures it, check that the writer process still works.
                cells["raw C"] = checkWriterProcess(databaseAt: file)
            }
            report.append(.init(
                workload: "W4 live update over \(size.formatted()) products, writer in another process (store only)",
                cells: cells, target: "store < 20 ms"))
        }
    }

    /// Runs the W4 writer process once on `path` and checks what it committed: an empty cell when it
    /// worked, "failed" otherwise (which fails the CI smoke run).
    func checkWriterProcess(databaseAt path: String) -> Report.Cell? {
        let change = LiveChange.forRun(1)
        do {
            let report = try LiveWriterProcess.run(databaseAt: path, change: change)
            guard try RawSQLiteContender.holdsChange(change, report, databaseAt: path) else {
                log("W4 writer process: the database does not hold its change")
                return .text("failed")
            }
            log("W4 writer process: committed in \(Report.Cell.time(.nanoseconds(report.commitNanoseconds - report.beginNanoseconds)).rendered)")
            return nil
        } catch {
            log("W4 writer process failed: \(error)")
            return .text("failed")
        }
    }

    mutating func runOpen() throws {
        let file = try dataset(rows: options.openRows)
        let cells = interleaved(contenders, label: "W5") { contender, _ in
            try contender.openFirstPage(databaseAt: file)
        }
        report.append(.init(workload: "W5 open \(options.openRows.formatted()) products, show sections + first 50 rows",
                            cells: cells, target: "store < 50 ms"))
    }

    mutating func runMemory() throws {
        let file = try dataset(rows: options.memoryRows)
        var cells: [String: Report.Cell] = [:]
        var baseline: Fingerprint?
        for contender in contenders {
            log("W6 \(contender.name) (one process per run)")
            var peaks: [Double] = []
            let cell = medianCell(contender, baseline: &baseline) { _ in
                let result = try ChildProcess.run(workload: "W6", contender: contender.name, database: file, options: options)
                peaks.append(result.peakMegabytes)
                return result.measured
            }
            if case .time = cell {
                cells[contender.name] = .megabytes(peaks.dropFirst(options.warmups).sorted()[(peaks.count - options.warmups) / 2])
            } else {
                cells[contender.name] = cell
            }
        }
        report.append(.init(workload: "W6 peak memory (VmHWM) of a controller over \(options.memoryRows.formatted()) products, batch \(options.batchSize)",
                            cells: cells, target: "store < 64 MB"))
    }
}
