import Dispatch
import Synchronization

/// W8: reads repeated by several tasks at once while another task commits a single-row write at a
/// steady pace: the reads completed, and each commit's latency.
public enum ConcurrentLoad {
    /// The writer's pace, from issue #17: one single-row commit every 10 ms.
    public static let writeInterval = Duration.milliseconds(10)

    /// What W8 reads: the W3 search (first page of 50 + total) over the queries in turn, or a W2-style
    /// fetch of the first ``fetchLimit`` products in list order into structs.
    public enum Read: String, Sendable, CaseIterable {
        case search = "search + first page"
        case fetch = "W2-style fetch"
    }

    /// The rows a W8 fetch reads: the list's first 10,000, an index walk of a few milliseconds, so a
    /// run holds hundreds of reads.
    public static let fetchLimit = 10_000

    /// W8's fetch: the first ``fetchLimit`` products in list order.
    public static let fetchSQL = "SELECT \(BenchSQL.productColumns) FROM products ORDER BY \(BenchSQL.listOrder) LIMIT \(fetchLimit)"

    /// The writer's statement: rewrites one product's price with itself (a real single-row write, its
    /// triggers included, that leaves the reused dataset as it was), a different product each time.
    public static let writeSQL = "UPDATE products SET intro_price = intro_price WHERE id = ?"

    /// How long the long read runs before W8 cancels it.
    public static let cancellationDelay = Duration.milliseconds(20)

    /// What one W8 run produced.
    public struct Outcome: Sendable {
        /// Reads completed by all tasks within the window.
        public var reads: Int
        public var window: Duration
        /// How long each commit took (its `write` call), in order.
        public var commitLatencies: [Duration]

        /// Reads per second.
        public var throughput: Double { Double(reads) / (window.milliseconds / 1_000) }
    }

    /// Runs `tasks` tasks that each call `read` (with 0, 1, 2… offset by the task) until `window` has
    /// passed, and one task that calls `write` every ``writeInterval`` meanwhile; blocks the calling
    /// thread (not a cooperative one) until all have ended.
    public static func run(
        tasks: Int, window: Duration,
        read: @escaping @Sendable (Int) async throws -> Void,
        write: @escaping @Sendable (Int) async throws -> Void
    ) throws -> Outcome {
        let done = DispatchSemaphore(value: 0)
        let outcome = Mutex<Result<Outcome, any Error>?>(nil)
        Task {
            let result = await Result(catching: {
                try await measure(tasks: tasks, window: window, read: read, write: write)
            })
            outcome.withLock { $0 = result }
            done.signal()
        }
        done.wait()
        return try outcome.withLock { $0! }.get()
    }

    private static func measure(
        tasks: Int, window: Duration,
        read: @escaping @Sendable (Int) async throws -> Void,
        write: @escaping @Sendable (Int) async throws -> Void
    ) async throws -> Outcome {
        let clock = ContinuousClock()
        let start = clock.now
        let deadline = start + window
        return try await withThrowingTaskGroup(of: (reads: Int, latencies: [Duration]).self) { group in
            group.addTask {
                var latencies: [Duration] = []
                var next = start
                var index = 0
                while clock.now < deadline {
                    let begin = clock.now
                    try await write(index)
                    latencies.append(clock.now - begin)
                    index += 1
                    next += writeInterval
                    if next > clock.now { try await Task.sleep(until: next, clock: clock) }
                }
                return (0, latencies)
            }
            for task in 0..<tasks {
                group.addTask {
                    var reads = 0
                    while clock.now < deadline {
                        try await read(task + reads * tasks)
                        reads += 1
                    }
                    return (reads, [])
                }
            }
            var outcome = Outcome(reads: 0, window: window, commitLatencies: [])
            for try await part in group {
                outcome.reads += part.reads
                outcome.commitLatencies += part.latencies
            }
            outcome.window = clock.now - start
            return outcome
        }
    }

    /// Times the cancellation of a long read: starts `read` in a task, cancels it after `delay`, and
    /// returns the time from `cancel()` until the task has ended (it must end by throwing).
    public static func cancellationTime(after delay: Duration, of read: @escaping @Sendable () async throws -> Void) throws -> Duration {
        let done = DispatchSemaphore(value: 0)
        let outcome = Mutex<Result<Duration, any Error>?>(nil)
        Task {
            let clock = ContinuousClock()
            let task = Task { try await read() }
            try? await Task.sleep(for: delay)
            let cancelled = clock.now
            task.cancel()
            let ended = await task.result
            let elapsed = clock.now - cancelled
            let result: Result<Duration, any Error> = switch ended {
            case .success: .failure(Pending("the read ended before it was cancelled"))
            case .failure: .success(elapsed)
            }
            outcome.withLock { $0 = result }
            done.signal()
        }
        done.wait()
        return try outcome.withLock { $0! }.get()
    }

    /// W8's long read for the cancellation time: one that never ends on its own (counting an endless
    /// recursive CTE), so that what is timed is the interruption, whatever the dataset's size.
    public static let longReadSQL = "WITH RECURSIVE n(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM n) SELECT count(*) FROM n"
}

extension Result where Failure == any Error {
    init(catching body: () async throws -> Success) async {
        do { self = .success(try await body()) } catch { self = .failure(error) }
    }
}
