#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Synchronization

/// The writes of a pool that are queued or running, which its readers make way for.
///
/// On a machine with fewer cores than busy connections, the writer's thread waits for a core like any
/// other: woken to run a commit, it could wait a whole scheduler tick behind readers that run for
/// tens of milliseconds, and then again for the caller's task to resume. In W8 (Benchmarks/README.md),
/// on 2 cores beside 4-8 reading tasks, those waits were most of the writer's slowest
/// commits once the checkpoint had left them. So while a write is pending, from the moment it is
/// queued until its caller has its result, each reader gives up its core at its next progress check
/// (every ``Database/cancellationCheckInterval`` virtual machine instructions, a few microseconds):
/// `sched_yield()` lets a thread waiting for the core (the writer's) run first, and returns at once when
/// none waits. Nothing else changes for readers: they keep their snapshots and never wait for the
/// writer. During a long write (a bulk load) they make that system call every check, a few percent of
/// their speed.
final class PendingWrites: Sendable {
    private let count = Atomic<Int>(0)

    /// Whether a write is queued or running.
    var isEmpty: Bool { count.load(ordering: .relaxed) == 0 }

    /// Runs `body`, a write from its queuing to its caller's resumption, as pending.
    func tracking<T>(_ body: () async throws -> T) async rethrows -> T {
        count.add(1, ordering: .relaxed)
        defer { count.subtract(1, ordering: .relaxed) }
        return try await body()
    }

    /// Runs `body`, a synchronous write, as pending.
    func tracking<T>(_ body: () throws -> T) rethrows -> T {
        count.add(1, ordering: .relaxed)
        defer { count.subtract(1, ordering: .relaxed) }
        return try body()
    }

    /// Gives up the calling thread's core when a write is pending: called by readers' progress handlers.
    func yieldIfPending() {
        if !isEmpty { sched_yield() }
    }
}
