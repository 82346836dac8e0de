import BenchmarkSupport
import Foundation

extension Runner {
    /// W8's cancellations timed per contender.
    static let cancellationRuns = 7

    /// W8: reads per second with 1, 2, 4 and 8 reading tasks beside a writer committing every 10 ms,
    /// the writer's commit latency over all those runs, and the time a cancelled long read takes to end.
    mutating func runConcurrency() throws {
        // A copy: the writer's commits must not change the dataset the other workloads share.
        let file = path("w8-\(options.concurrencyRows).sqlite")
        try copy(try dataset(rows: options.concurrencyRows), to: file)
        defer { remove(database: file) }
        let queries = SearchQuery.generate(count: options.queries, from: catalog(rows: options.concurrencyRows), seed: options.seed)
        var latencies: [String: [Duration]] = [:]
        var failures: [String: Report.Cell] = [:]
        for read in ConcurrentLoad.Read.allCases where options.concurrencyReads?.contains("\(read)") ?? true {
            var single: [String: Double] = [:]
            for tasks in options.concurrencyTasks {
                var cells: [String: Report.Cell] = [:]
                for contender in contenders {
                    log("W8 \(read.rawValue) \(tasks) task(s) \(contender.name)")
                    do {
                        let outcome = try contender.concurrentReads(
                            databaseAt: file, read: read, tasks: tasks, queries: queries, window: options.concurrencyWindow)
                        latencies[contender.name, default: []] += outcome.commitLatencies
                        if tasks == 1 { single[contender.name] = outcome.throughput }
                        let scaling = single[contender.name].map { " (\(Report.Cell.format(outcome.throughput / $0, digits: 2))×)" } ?? ""
                        cells[contender.name] = .text("\(Int(outcome.throughput.rounded()).formatted())/s" + (tasks > 1 ? scaling : ""))
                    } catch is NotApplicable {
                        cells[contender.name] = .text("—")
                    } catch let pending as Pending {
                        cells[contender.name] = .text(pending.description)
                    } catch {
                        log("W8 \(contender.name) failed: \(error)")
                        cells[contender.name] = .text("failed")
                        failures[contender.name] = .text("failed")
                    }
                }
                report.append(.init(
                    workload: "W8 \(read.rawValue), \(tasks) task\(tasks == 1 ? "" : "s") beside a writer every 10 ms: reads/s (× 1 task)",
                    cells: cells, target: tasks == 2 ? "≥ 1.8× 1 task, ≥ GRDB" : "≥ GRDB"))
            }
        }
        var medians = failures
        var p99s = failures
        for (name, durations) in latencies where failures[name] == nil && !durations.isEmpty {
            medians[name] = .time(Samples(durations).median)
            p99s[name] = .time(Samples(durations).percentile(99))
        }
        report.append(.init(workload: "W8 writer commit latency during those runs: median", cells: medians, target: ""))
        report.append(.init(workload: "W8 writer commit latency during those runs: p99", cells: p99s, target: "< 10 ms"))

        var cancellations: [String: Report.Cell] = [:]
        for contender in contenders {
            log("W8 cancellation \(contender.name)")
            do {
                let times = try (0..<Self.cancellationRuns).map { _ in try contender.cancellationTime(databaseAt: file) }
                cancellations[contender.name] = .time(Samples(times).median)
            } catch is NotApplicable {
                cancellations[contender.name] = .text("—")
            } catch let pending as Pending {
                cancellations[contender.name] = .text(pending.description)
            } catch {
                log("W8 cancellation \(contender.name) failed: \(error)")
                cancellations[contender.name] = .text("failed")
            }
        }
        report.append(.init(workload: "W8 cancel a running read: cancel() → task end, median of \(Self.cancellationRuns)",
                            cells: cancellations, target: "a few ms"))
    }
}
